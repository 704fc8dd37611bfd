"""The words players and organisers read for a bot's level (``engine.search.LEVELS``), in one
table: the choice on a form, the bot in a story ("handed Ana's seat to the strong bot"), and
the name of a seat a bot holds from the start.  A code ("easy", "strong") is never shown."""
from __future__ import annotations

from engine.search import EASY, LEVELS, STRONG
from engine.text import Phrase, term
from service.view.i18n import N_, translate

# What a form's select offers, one line per level.
CHOICES = {
    EASY: N_("Easy bot — plays at once, by a rule of thumb"),
    STRONG: N_("Strong bot — thinks a moment about each move"),
}

# The bot of a level as a story names it.
THE_BOT = {EASY: N_("the easy bot"), STRONG: N_("the strong bot")}

# A seat a bot holds from the start is named after its level; a second of one level is
# numbered ("Strong bot 2").
SEAT_NAMES = {EASY: N_("Easy bot"), STRONG: N_("Strong bot")}


def known(level) -> str:
    """The level a record or row holds: anything but a known level (an event from before
    levels has none) is the easy bot, the only one there was."""
    return level if level in LEVELS else EASY


def the_bot(level) -> Phrase:
    """"the strong bot", translated where it is read."""
    return term(THE_BOT[known(level)])


def choices() -> list[tuple[str, str]]:
    """(code, words) for a form's select, the easy bot first (it is the default)."""
    return [(level, CHOICES[level]) for level in LEVELS]


def levels_named() -> list[tuple[str, Phrase]]:
    """(code, "the strong bot") for each level, the easy bot first."""
    return [(level, the_bot(level)) for level in LEVELS]


def seat_names(levels: list[str], language: str = "en") -> list[str]:
    """The names of bot seats filled at a start, in the game's language (a seat's name is one
    text, stored and shown as it is, like a player's own): "Strong bot", "Strong bot 2", ..."""
    counts: dict[str, int] = {}
    names = []
    for level in levels:
        counts[level] = counts.get(level, 0) + 1
        base = translate(language, SEAT_NAMES[known(level)])
        names.append(base if counts[level] == 1 else f"{base} {counts[level]}")
    return names
