"""Inca Empire: The Card Game -- road building across the Andes for 2-5 players, 4 Eras.

Modules: ``cards`` (the project's own card set, as data), ``board`` (grid, connections, road
systems), ``rules`` (setup and Era flow, the draft), ``actions`` (the action phase),
``scoring`` (end of game), ``view`` (what a seat may see), ``bot`` (timeout default and bot),
``game`` (the protocol object).  Rules as implemented: docs/games/inca_empire.md."""
from engine.games.inca_empire.game import GAME, IncaEmpire

__all__ = ["GAME", "IncaEmpire"]
