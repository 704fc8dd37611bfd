"""Inca Empire: The Card Game -- road building across the Andes for 2-5 players, 4 Eras.

Modules (the roles every game has, engine/core.py): ``game`` (the protocol object), ``data``
(the project's own card set, as data), ``rules`` (setup, who acts, what is legal, applying a
move), ``view`` (what a seat may see, decision keys), ``scoring`` (end of game), ``bot``
(timeout default and bot); and this game's own: ``era`` (the flow of an Era and the draft),
``actions`` (the action phase), ``board`` (grid, connections, road systems).
Rules as implemented: docs/games/inca_empire.md."""
from engine.games.inca_empire.game import GAME

__all__ = ["GAME"]
