"""A game's pace: how often its organiser expects the table to move, so that a player who
plays a move a week does not join a game played a move an hour.

A small fixed set of codes, stored on the pending game and the game (NULL: no pace was set).
It is a promise shown to players, not a rule: the clock (``service.store.timekeeping``) is
what times decisions out."""
from __future__ import annotations

from typing import Any

from engine.text import N_, phrase
from service.core.validation import one_of

# code -> what pages and mail show (translated through the catalog by ``| tr``)
PACES = {
    "hour": N_("a move an hour"),
    "day": N_("a move a day"),
    "week": N_("a move a week"),
}


def parse_pace(raw: Any) -> str | None:
    """A pace code, or None when none is given (absent, null or an empty form field).
    Anything else is a ``BadInput`` naming the choices."""
    if raw is None or raw == "":
        return None
    return one_of(raw, phrase("pace"), tuple(PACES))


def pace_label(code: str | None) -> str | None:
    """The catalog text for a stored pace code; None for none (or a code no longer offered)."""
    return PACES.get(code) if code else None
