"""Which games exist.  The service finds games only through here.

Games are imported on first use, so a process that only plays Incan Gold never pays for
loading the Machu Picchu tables, and one game's import cannot break another's."""
from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from engine.core import Game, IllegalAction
from engine.text import phrase

_MODULES = {
    "incan_gold": "engine.games.incan_gold",
    "machu_picchu": "engine.games.machu_picchu",
    "inca_empire": "engine.games.inca_empire",
}


class _Registry(Mapping[str, Game]):
    def __init__(self, modules: dict[str, str]):
        self._modules = modules
        self._loaded: dict[str, Game] = {}

    def __getitem__(self, name: str) -> Game:
        if name not in self._loaded:
            self._loaded[name] = importlib.import_module(self._modules[name]).GAME
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)


GAMES: Mapping[str, Game] = _Registry(_MODULES)


def get_game(name: str) -> Game:
    if not isinstance(name, str) or name not in GAMES:
        raise IllegalAction(phrase("unknown game {name}; known: {known}", name=repr(name),
                                    known=", ".join(sorted(GAMES))))
    return GAMES[name]
