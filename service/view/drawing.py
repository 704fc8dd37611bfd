"""What every game's pictures share: the seat colours, seat-keyed dicts and the pictures' ``_``.

A game's pictures (``service.view.games.<game>.board``) are pure: a view dict in, markup out
(SVG for pages, inline-styled HTML tables for mail, since mail clients drop SVG and external
CSS).  This module knows no game, so any game's board may import it without a cycle.
"""
from __future__ import annotations

import unicodedata


def _(text: str, **values) -> str:
    """A picture's words (SVG titles and labels, mail tables) in the page's or mail's language
    (extracted by pybabel into the game's domain).  Outside an app context, or in English, the
    text itself."""
    from flask import has_app_context

    if has_app_context():
        from flask_babel import gettext

        text = gettext(text)
    return text % values if values else text


def ngettext(singular: str, plural: str, n: int, **values) -> str:
    """A picture's words about ``n`` things, in the form the page's or mail's language uses for
    that count (gettext's plural forms; English outside an app context).  ``%(n)s`` is the
    count."""
    from flask import has_app_context

    if has_app_context():
        from flask_babel import get_translations

        text = get_translations().ngettext(singular, plural, n)
    else:
        text = singular if n == 1 else plural
    return text % {"n": n, **values}


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` is drawn at font ``size`` (px) in a sans-serif face: a wide
    (Chinese, Japanese, full-width) character is an em, any other about 0.62 em.  SVG cannot
    flow text, so a label that must clear what is drawn after it is measured this way (a
    Chinese heading is half again as wide as its English one)."""
    wide = sum(1 for c in text if unicodedata.east_asian_width(c) in ("W", "F"))
    return size * (wide + 0.62 * (len(text) - wide))


# Seat colours: one palette for pages, SVG and mail.  ``ink`` is the text colour on the fill;
# every pair has contrast >= 4.5:1 (checked in tests/service/test_boards.py).
SEAT_COLOURS = (
    {"name": "red", "fill": "#b3261e", "ink": "#ffffff"},
    {"name": "blue", "fill": "#1a5fb4", "ink": "#ffffff"},
    {"name": "green", "fill": "#1e6b3a", "ink": "#ffffff"},
    {"name": "yellow", "fill": "#f2c230", "ink": "#1d1b16"},
    {"name": "purple", "fill": "#6d3fa0", "ink": "#ffffff"},
    {"name": "grey", "fill": "#4a4a4a", "ink": "#ffffff"},
    {"name": "orange", "fill": "#c25400", "ink": "#ffffff"},
    {"name": "teal", "fill": "#0f6e73", "ink": "#ffffff"},
)


def seat_colour(seat) -> dict:
    try:
        return SEAT_COLOURS[int(seat) % len(SEAT_COLOURS)]
    except (TypeError, ValueError):
        return {"name": "none", "fill": "#8d8677", "ink": "#ffffff"}


def int_keys(mapping) -> dict:
    """Seat-keyed dicts arrive with int keys from the engine, str keys after a JSON trip."""
    out = {}
    for key, value in (mapping or {}).items():
        try:
            out[int(key)] = value
        except (TypeError, ValueError):
            continue
    return out
