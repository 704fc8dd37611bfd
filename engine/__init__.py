"""Pure rules engines behind one protocol (see ``engine.core``)."""
from engine.core import Game, IllegalAction, canonical_json, clone, find_legal, replay, rng
from engine.registry import GAMES, get_game

__all__ = ["GAMES", "Game", "IllegalAction", "canonical_json", "clone", "find_legal",
           "get_game", "replay", "rng"]
