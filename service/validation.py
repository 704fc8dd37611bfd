"""The one rule set every input passes at the edge: names, addresses, numbers, free text.

Why one module: the same value (a player's name, an address, a clock's hours) enters through
the JSON API, the organiser's form, an invitation, a seat replacement, the lobby and the
accounts.  A rule kept in each entry point drifts apart, and one entry point that lets a
carriage return or a NaN through poisons everything that later reads the row (a mail that
cannot be built, a page that cannot be drawn).  So every entry point calls these functions and
turns ``BadInput`` into its own 400 (JSON for the API, a form error on pages); nothing is
stored before they have passed."""
from __future__ import annotations

import math
import unicodedata
from typing import Any

from engine.text import phrase
from service.accounts.addresses import BadAddress, normalise
from service.refusals import Refusal

MAX_NAME = 80
MAX_ADDRESS = 254
# Bidirectional controls: they let a name display as something else than it is.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
LINE_BREAKS = frozenset("\u2028\u2029\u0085")


class BadInput(Refusal, ValueError):
    """A value no entry point may store; the phrase says which and why."""


def is_control(char: str, allowed: str = "") -> bool:
    """C0, DEL, C1, bidi controls and Unicode line separators (``allowed`` excepted)."""
    if char in allowed:
        return False
    code = ord(char)
    return (code < 0x20 or 0x7F <= code <= 0x9F or char in BIDI_CONTROLS
            or char in LINE_BREAKS or unicodedata.category(char) == "Cs")


def has_control(text: str, allowed: str = "") -> bool:
    return any(is_control(char, allowed) for char in text)


def person_name(raw: Any, who: Any = None, limit: int = MAX_NAME) -> str:
    """A display name: text, spaces folded, no control characters, 1..``limit`` characters.
    ``who``: whose name, as the refusal names it (a phrase such as "player 2")."""
    who = phrase("a name") if who is None else who
    if not isinstance(raw, str):
        raise BadInput(phrase("{who} must be text", who=who))
    if has_control(raw):
        raise BadInput(phrase("{who} contains a control character", who=who))
    name = " ".join(raw.split())
    if not name:
        raise BadInput(phrase("{who} needs a name", who=who))
    if len(name) > limit:
        raise BadInput(phrase("{who}: the name is longer than {count} characters",
                              who=who, count=limit))
    return name


def one_address(raw: Any, who: Any = None) -> str:
    """Exactly one mail address (email-validator, syntax only), normalised as an account key.
    A list (``a@x, b@y``), a display-name form or any control character is refused, so one
    field can never become two recipients or a header break."""
    who = phrase("the address") if who is None else who
    if not isinstance(raw, str):
        raise BadInput(phrase("{who} must be text", who=who))
    if has_control(raw):
        raise BadInput(phrase("{who} contains a control character", who=who))
    text = raw.strip()
    if any(mark in text for mark in ",;<>"):
        raise BadInput(phrase("{who}: give exactly one mail address", who=who))
    try:
        return normalise(text)
    except BadAddress as error:
        raise BadInput(phrase("{who}: {error}", who=who, error=error.say)) from None


def bounded_number(raw: Any, what: Any, low: float, high: float, whole: bool = False) -> float:
    """A finite number within [low, high] (an int when ``whole``); booleans, strings, NaN and
    infinities are refused with the bounds stated."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        raise BadInput(phrase("{what} must be a number", what=what))
    if isinstance(raw, float) and not math.isfinite(raw):
        raise BadInput(phrase("{what} must be a finite number", what=what))
    if whole and raw != int(raw):
        raise BadInput(phrase("{what} must be a whole number", what=what))
    if not low <= raw <= high:
        raise BadInput(phrase("{what} must be between {low} and {high}", what=what, low=low,
                              high=high))
    return int(raw) if whole else raw


def bounded_text(raw: Any, what: Any, limit: int, allowed: str = "\n\t") -> str:
    """Free text (table talk, a reason): no control characters but ``allowed``, at most
    ``limit`` characters -- refused with the limit stated, never cut silently."""
    if not isinstance(raw, str):
        raise BadInput(phrase("{what} must be text", what=what))
    text = raw.replace("\r\n", "\n")
    if has_control(text, allowed):
        raise BadInput(phrase("{what} contains a control character", what=what))
    if len(text) > limit:
        raise BadInput(phrase("{what} is longer than {count} characters", what=what, count=limit))
    return text
