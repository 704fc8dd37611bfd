"""Catalog entries as the catalog tests compare them, plural ones included.

A text with a count is one gettext entry with two English forms (``msgid``/``msgid_plural``)
and as many translations as the language has plural forms (one in Chinese and Japanese).
Babel reads such an entry's id as a tuple from a ``.po`` and as a list from a ``.mo``; here every
id is a string or a tuple and every translation a tuple of its forms, so ``.po``, ``.mo`` and
what extraction finds compare as they are."""
from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po


def message_key(message_id):
    """A singular entry's id as it is; a plural entry's as (singular, plural)."""
    return message_id if isinstance(message_id, str) else tuple(message_id)


def forms(text) -> tuple[str, ...]:
    """An entry's English forms or its translations, as a tuple (one item when singular)."""
    if text is None:
        return ()
    return (text,) if isinstance(text, str) else tuple(text)


def translations(path: Path) -> dict:
    """{id: its translations (a tuple)} of a ``.po`` or ``.mo`` file, fuzzy entries left out."""
    reader = read_mo if path.suffix == ".mo" else read_po
    with open(path, "rb") as handle:
        return {message_key(m.id): forms(m.string) for m in reader(handle)
                if m.id and not m.fuzzy}


def translated(texts: tuple[str, ...]) -> bool:
    """Every form has a text (an empty plural form would show an empty string)."""
    return bool(texts) and all(texts)
