"""Texts a player reads (action labels, log lines) as *phrases*, not finished sentences.

Why: the engine is pure and knows no language, yet players read Chinese or Japanese.  A phrase
keeps the English template (the catalog's msgid) apart from its arguments, so the service can
translate the template and every argument that is a game term, then fill it in.  Player names
are plain strings and are never translated; game terms (districts, goods, cards) are phrases
without arguments, made with ``term``.  A phrase is plain JSON so it can live in the state's log
and in a view::

    {"t": "{player} goes to {district}", "a": {"player": "Ana", "district": {"t": "Cusco"}}}

Templates use ``str.format`` fields (``{district}``); a list argument is joined with ", ".
A text with a count ("1 gem", "2 gems") is a ``counted`` phrase: it keeps both English forms and
the count, and the reader's catalog picks the form its language uses for that count (gettext's
plural forms: English has two, Chinese and Japanese one).
The catalogs are extracted with ``pybabel extract -k N_ -k phrase -k term -k counted:1,2``
(see ``translations/README.md``).
"""
from __future__ import annotations

from typing import Any, Callable

Phrase = dict
Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]
LIST_SEPARATOR = ", "


def N_(text: str) -> str:
    """Marks a text (a table's name, a term) for the catalogs without changing it."""
    return text


def phrase(template: str, **args: Any) -> Phrase:
    return {"t": template, "a": args} if args else {"t": template}


def term(text: str) -> Phrase:
    """A game term from the rules texts: translated wherever it is shown."""
    return {"t": text}


def counted(singular: str, plural: str, n: int, **args: Any) -> Phrase:
    """A phrase about ``n`` things: ``{n}`` in both English forms is the count.  Why both forms
    and the count travel together: the form is chosen where the phrase is read, by the
    reader's language (``ngettext``), not by the engine."""
    return {"t": singular, "p": plural, "n": n, "a": {"n": n, **args}}


def _keep(text: str) -> str:
    return text


def _english(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def render(text: Any, gettext: Gettext = _keep, ngettext: Ngettext = _english) -> str:
    """The phrase in one language (English with the default ``gettext`` and ``ngettext``).
    Strings and numbers are shown as they are: a player called "Done" stays "Done"."""
    if type(text) is dict:
        template = ngettext(text["t"], text["p"], text["n"]) if "p" in text \
            else gettext(text["t"])
        args = text.get("a")
        if not args:
            return template
        # A string argument (a name, a card's id) is shown as it is: no call to render it.
        return template.format_map({k: v if type(v) is str else render(v, gettext, ngettext)
                                    for k, v in args.items()})
    if type(text) is list:
        return gettext(LIST_SEPARATOR).join(render(v, gettext, ngettext) for v in text)
    return str(text)


def labelled(action: dict, text: Phrase) -> dict:
    """An action with its English ``label`` (the audit log and the JSON API keep it) and its
    phrase under ``_say`` (display only: ``without_label`` drops it before comparing)."""
    action["label"] = render(text)
    action["_say"] = text
    return action
