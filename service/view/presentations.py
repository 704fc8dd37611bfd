"""How the service shows each game, found by the game's engine name (``engine.registry.GAMES``).

A game's presentation is one folder, ``service/view/games/<engine name>/``: its ``__init__``
declares a ``PRESENTATION`` (option and standing-order choices with their labels, its gettext
domain, the texts made at run time that its catalog must hold), an optional ``board``
module beside it draws its table, and an optional ``news`` module tells in words what a move
did, for a game whose public view keeps no log.  Its page and mail templates are ``templates/games/<engine
name>/``.  The service asks here and names no game, so adding a game is its engine folder, its
presentation folder and its templates and catalog domain; a game without a folder gets
``DEFAULT`` (the generic templates, no choices, and no catalog: its engine's texts are shown
as the engine writes them).

Folders are imported on first use, and a board only when a template draws it, so a process that
only translates a mail never loads the pictures' tables.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import lru_cache
from types import ModuleType

from engine.registry import GAMES
from service.view import drawing

PACKAGE = "service.view.games"


@dataclass(frozen=True)
class StandingOrder:
    """An answer a seat gives in advance: the engine's order key, its label, and the offered
    answers as (value, label)."""
    key: str
    label: str
    answers: tuple[tuple[str, str], ...]

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(value for value, _label in self.answers)


@dataclass(frozen=True)
class Presentation:
    """What the service shows of one game besides what ``engine.view`` gives.  Labels are
    catalog msgids (marked ``N_``); templates translate them with ``| tr``."""
    gettext_domain: str | None = None  # None: no catalog of its own (its texts untranslated)
    runtime_texts: tuple[str, ...] = ()
    option_names: dict[str, str] = field(default_factory=dict)  # option -> label
    option_choices: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    standing_choices: tuple[StandingOrder, ...] = ()
    # Whether a turn is several small steps worth planning on one page (placements, trades,
    # sacrifices); a game whose decision is one choice made by all at once offers no plan.
    plans_turns: bool = True

    def option_name(self, option: str) -> str:
        return self.option_names.get(option, option)

    def option_label(self, option: str, value) -> str:
        """The label of a stored option value; the value itself when it is not offered."""
        return dict(self.option_choices.get(option, ())).get(value, value)


DEFAULT = Presentation()


@lru_cache(maxsize=None)
def presentation(name: str) -> Presentation:
    """The registered game ``name``'s presentation, or ``DEFAULT`` when it has no folder."""
    if name not in GAMES:
        return DEFAULT
    module = _folder(name)
    return module.PRESENTATION if module is not None else DEFAULT


@lru_cache(maxsize=None)
def board(name: str) -> ModuleType | None:
    """The registered game ``name``'s pictures (``service/view/games/<name>/board.py``)."""
    if name not in GAMES or _folder(name) is None:
        return None
    return _optional(f"{PACKAGE}.{name}.board")


@lru_cache(maxsize=None)
def news(name: str) -> ModuleType | None:
    """The registered game ``name``'s own telling of what a move did in public
    (``service/view/games/<name>/news.py``), for a game whose view keeps no log of its own."""
    if name not in GAMES or _folder(name) is None:
        return None
    return _optional(f"{PACKAGE}.{name}.news")


def gettext_domains() -> tuple[str, ...]:
    """The games' own catalog domains, in registry order, each once."""
    found = (presentation(name).gettext_domain for name in GAMES)
    return tuple(dict.fromkeys(domain for domain in found if domain))


def runtime_texts() -> tuple[str, ...]:
    return tuple(text for name in GAMES for text in presentation(name).runtime_texts)


def option_choices() -> dict[str, dict[str, list[tuple[str, str]]]]:
    """Per game that offers any, its options' choices (the engine validates them again)."""
    return {name: presentation(name).option_choices for name in GAMES
            if presentation(name).option_choices}


def _folder(name: str) -> ModuleType | None:
    return _optional(f"{PACKAGE}.{name}")


def _optional(module: str) -> ModuleType | None:
    """``module`` imported, or None when it does not exist (an error inside it still raises)."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as missing:
        if missing.name == module:
            return None
        raise


class Boards:
    """The templates' global ``boards``: the shared seat colours and helpers, and
    ``boards.<engine name>`` for a game's pictures (used by that game's own templates)."""
    colours = drawing.SEAT_COLOURS
    seat_colour = staticmethod(drawing.seat_colour)
    int_keys = staticmethod(drawing.int_keys)

    def __getattr__(self, name: str) -> ModuleType:
        found = board(name)
        if found is None:
            raise AttributeError(name)
        return found


def init_app(app) -> None:
    """Make the pictures (``boards``) and each game's presentation (``presentation(name)``)
    available to every template, pages and mail."""
    app.jinja_env.globals["boards"] = Boards()
    app.jinja_env.globals["presentation"] = presentation
