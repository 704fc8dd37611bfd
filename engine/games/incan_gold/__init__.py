"""Incan Gold (Diamant): push-your-luck temple raiding for 3-8 players, 5 rounds.

Modules (the roles every game has, engine/core.py): ``game`` (the protocol object), ``data``
(card tables), ``rules`` (setup, turns, what is legal, applying a move), ``view`` (what a seat
may see, decision keys), ``scoring`` (scores and winners), ``bot`` (timeout default and bot
policy).  Rules as implemented: docs/games/incan_gold.md."""
from engine.games.incan_gold.game import GAME

__all__ = ["GAME"]
