"""Texts a player reads (action labels, log lines) as *phrases*, not finished sentences.

Why: the engine is pure and knows no language, yet players read Chinese or Japanese.  A phrase
keeps the English template (the catalog's msgid) apart from its arguments, so the service can
translate the template and every argument that is a game term, then fill it in.  Player names
are plain strings and are never translated; game terms (districts, goods, cards) are phrases
without arguments, made with ``term``.  A phrase is plain JSON so it can live in the state's log
and in a view::

    {"t": "{player} goes to {district}", "a": {"player": "Ana", "district": {"t": "Cusco"}}}

Templates use ``str.format`` fields (``{district}``); a list argument is joined with ", ".
The catalogs are extracted with ``pybabel extract -k N_ -k phrase -k term`` (see
``translations/README.md``).
"""
from __future__ import annotations

from typing import Any, Callable

Phrase = dict
Gettext = Callable[[str], str]
LIST_SEPARATOR = ", "


def N_(text: str) -> str:
    """Marks a text (a table's name, a term) for the catalogs without changing it."""
    return text


def phrase(template: str, **args: Any) -> Phrase:
    return {"t": template, "a": args} if args else {"t": template}


def term(text: str) -> Phrase:
    """A game term from the rules texts: translated wherever it is shown."""
    return {"t": text}


def _keep(text: str) -> str:
    return text


def render(text: Any, gettext: Gettext = _keep) -> str:
    """The phrase in one language (English with the default ``gettext``).  Strings and numbers
    are shown as they are: a player called "Done" stays "Done"."""
    if type(text) is dict:
        template = gettext(text["t"])
        args = text.get("a")
        if not args:
            return template
        return template.format(**{k: render(v, gettext) for k, v in args.items()})
    if type(text) is list:
        return gettext(LIST_SEPARATOR).join(render(v, gettext) for v in text)
    return str(text)


def labelled(action: dict, text: Phrase) -> dict:
    """An action with its English ``label`` (the audit log and the JSON API keep it) and its
    phrase under ``_say`` (display only: ``without_label`` drops it before comparing)."""
    action["label"] = render(text)
    action["_say"] = text
    return action
