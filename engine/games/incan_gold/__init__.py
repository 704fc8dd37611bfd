"""Incan Gold (Diamant): push-your-luck temple raiding for 3-8 players, 5 rounds.

Modules: ``data`` (card tables), ``rules`` (state transitions), ``view`` (what a seat may
see), ``bot`` (timeout default and bot policy), ``game`` (the protocol object).
Rules as implemented: docs/games/incan_gold.md."""
from engine.games.incan_gold.game import GAME, IncanGold

__all__ = ["GAME", "IncanGold"]
