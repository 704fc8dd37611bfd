"""A refusal a reader sees: English text for the logs and the JSON API, a phrase for pages and
mail in the reader's language.

Why a phrase and not a finished sentence: the service answers in English, 中文 and 日本語,
and a message made as English text can only be translated by matching that text afterwards,
which a new or reworded message silently escapes.  A phrase (``engine.text``) keeps the
catalog's msgid apart from its values, so ``pybabel extract -k phrase`` finds every template
where it is raised and ``service.web.errors.told`` only fills it in.  The engine's
``IllegalAction`` takes a phrase the same way; the service's own refusals (a stale move, a
bad link, no such game) derive from ``Refusal``."""
from __future__ import annotations

from engine.text import Phrase, phrase, render


class Refusal(Exception):
    """Raised with a phrase: ``str(error)`` is its English, ``error.say`` the phrase itself."""

    def __init__(self, said: Phrase):
        super().__init__(render(said))
        self.say = said


class Conflict(Refusal):
    """The game moved on: another writer got there first (it took the seq this writer
    expected, or the database aborted this one of two writers that waited for each other)."""

    @classmethod
    def moved_on(cls) -> Conflict:
        """The refusal every writer that lost the race gives, in the same words."""
        return cls(phrase("the game moved on; reload and try again"))


def said(error):
    """What of ``error`` a reader is shown: its phrase, else (an error no refusal is made of)
    its English text."""
    say = getattr(error, "say", None)
    return str(error) if say is None else say
