"""The one rule set every input passes at the edge: names, addresses, numbers, free text.

Why one module: the same value (a player's name, an address, a clock's hours) enters through
the JSON API, the organiser's form, an invitation, a seat replacement, the lobby and the
accounts.  A rule kept in each entry point drifts apart, and one entry point that lets a
carriage return or a NaN through poisons everything that later reads the row (a mail that
cannot be built, a page that cannot be drawn).  So every entry point calls these functions and
turns ``BadInput`` into its own 400 (JSON for the API, a form error on pages); nothing is
stored before they have passed."""
from __future__ import annotations

import json
import math
import re
import unicodedata
from typing import Any

from engine.search import EASY, LEVELS
from engine.text import phrase
from service.core.addresses import BadAddress, normalise
from service.core.refusals import Refusal

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


# The largest whole number a request may name (a seq, a seat, a row's id): a database's
# 32-bit integer, so no number from outside overflows a query or a Python-to-SQL conversion.
MAX_WHOLE = 2**31 - 1
_ASCII_DIGITS = re.compile(r"[0-9]+")


def whole_number(raw: Any, what: Any, low: int = 0, high: int = MAX_WHOLE) -> int:
    """A whole number written in ASCII digits alone, within [low, high]: the one rule for a
    number that arrives as text (a form field, a query parameter, a mail header, a path).
    ``str.isdigit`` says yes to "²" and ``int`` to "٣", " 7" and "1_0"; neither bounds the
    value, so a number of 23 digits would reach the database.  Refused with the bounds stated."""
    text = raw.strip() if isinstance(raw, str) else None
    if text is None or not _ASCII_DIGITS.fullmatch(text):
        raise BadInput(phrase("{what} must be a whole number", what=what))
    value = int(text) if len(text) <= 20 else None  # int() of thousands of digits is slow
    if value is None or not low <= value <= high:
        raise BadInput(phrase("{what} must be between {low} and {high}", what=what, low=low,
                              high=high))
    return value


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


def one_of(raw: Any, what: Any, choices) -> str:
    """One of a fixed set of codes (a form's select, an API's enumerated field), refused with
    the choices named: anything but one of those strings, a list or a number too."""
    if not isinstance(raw, str) or raw not in choices:
        raise BadInput(phrase("{what} must be one of {choices}", what=what,
                              choices=", ".join(choices)))
    return raw


def bot_level(raw: Any, what: Any = "level") -> str:
    """A bot's level (``engine.search.LEVELS``: "easy", "strong"), wherever a seat goes to a
    bot: the admin's hand-over, the timeout policy "bot", the seats a start fills.  Nothing
    given means "easy", the level every bot had before levels; anything else is refused with
    the levels named."""
    if raw is None or raw == "":
        return EASY
    return one_of(raw, what, LEVELS)


def without_controls(text: str, allowed: str = "") -> str:
    """``text`` with every control character but ``allowed`` removed: for what arrives from
    outside and cannot be refused with an answer (a received mail), yet must not carry a
    control character into a row, a header or a page."""
    return "".join(char for char in text if not is_control(char, allowed))


# --- JSON bodies -------------------------------------------------------------------------------

MAX_JSON_BYTES = 64 * 1024  # as MAX_CONTENT_LENGTH: no request body is larger
# The deepest body the service takes nests about a dozen levels (an admin's game import: events
# whose actions nest up to seven); the parser recurses once per level, so a few kilobytes of
# "[" would exhaust Python's stack.
MAX_JSON_DEPTH = 32
_JSON_MARKS = re.compile(rb'["\\\[\]{}]')
_OPENERS, _CLOSERS = frozenset(b"[{"), frozenset(b"]}")
_QUOTE, _BACKSLASH = ord('"'), ord("\\")


_HIGH_SURROGATE = re.compile(rb"u[dD][89abAB][0-9a-fA-F]{2}")
_LOW_SURROGATE = re.compile(rb"u[dD][c-fC-F][0-9a-fA-F]{2}")
_LOW_AFTER_HIGH = re.compile(rb"\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def _surrogate_pair_length(raw: bytes, at: int, what: Any) -> int:
    """How many bytes after the escape at ``at`` (the letter after a backslash) belong to it:
    4 for a ``\\uD8xx`` followed by its ``\\uDCxx``, else 0.  A surrogate escape alone is
    refused: it decodes to a string no encoder, database or mail can take."""
    if _HIGH_SURROGATE.match(raw, at):
        if _LOW_AFTER_HIGH.match(raw, at + 5):
            return 10
    elif not _LOW_SURROGATE.match(raw, at):
        return 0
    raise BadInput(phrase("{what} contains a lone surrogate (an invalid \\u escape)", what=what))


def check_json_shape(raw: bytes, what: Any = None, depth: int = MAX_JSON_DEPTH) -> None:
    """Refuse a JSON text that nests deeper than ``depth``, holds a NUL character or a lone
    surrogate, without parsing it: one pass over its brackets and quotes, so it is safe on any
    input and cheap on the small bodies the service takes.  A NUL is refused because
    PostgreSQL cannot store it in text and a mail header must never carry it; a lone
    surrogate because no UTF-8 encoder (a hash, a database, a mail) can take it."""
    what = phrase("the body") if what is None else what
    nul = phrase("{what} contains a NUL character", what=what)
    if b"\x00" in raw:
        raise BadInput(nul)
    level, in_string, escaped_until = 0, False, -1
    for mark in _JSON_MARKS.finditer(raw):
        at = mark.start()
        if at < escaped_until:
            continue
        char = raw[at]
        if in_string:
            if char == _BACKSLASH:
                if raw.startswith(b"u0000", at + 1):
                    raise BadInput(nul)
                escaped_until = at + 2 + _surrogate_pair_length(raw, at + 1, what)
            elif char == _QUOTE:
                in_string = False
        elif char == _QUOTE:
            in_string = True
        elif char in _OPENERS:
            level += 1
            if level > depth:
                raise BadInput(phrase("{what} nests deeper than {count} levels", what=what,
                                      count=depth))
        elif char in _CLOSERS:
            level -= 1


def json_document(raw: bytes | str, what: Any = None, size: int = MAX_JSON_BYTES,
                  depth: int = MAX_JSON_DEPTH, pairs: Any = None) -> Any:
    """The value of a JSON text, bounded in size and depth, strict: NaN, Infinity and numbers
    too large for a float (``1e999``) are refused, as is anything that is not UTF-8 JSON.
    Every refusal is a ``BadInput`` (a ``ValueError``), raised before the parser recurses.
    ``pairs``, when given, makes each object from its (key, value) pairs (``json.loads``'s
    ``object_pairs_hook``), in the same one parse."""
    what = phrase("the body") if what is None else what
    data = raw.encode() if isinstance(raw, str) else raw
    if len(data) > size:
        raise BadInput(phrase("{what} is larger than {count} bytes", what=what, count=size))
    check_json_shape(data, what, depth)
    try:
        return json.loads(data, parse_constant=_non_finite, parse_float=_finite_float,
                          object_pairs_hook=pairs)
    except BadInput:
        raise
    except ValueError:  # not UTF-8, not JSON, an integer of more than 4300 digits
        raise BadInput(phrase("{what} is not valid JSON", what=what)) from None


def _non_finite(text: str):
    raise BadInput(phrase("{value}: numbers must be finite", value=text))


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        _non_finite(text[:20])
    return value
