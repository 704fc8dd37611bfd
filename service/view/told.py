"""What each move did, in the words a spectator may read.

Why from public views and not from the move itself: a move's own phrase may name a secret
choice (a stay or a leave, a card drafted face down), and a feed, a webhook post or another
seat's history page must not tell it.  What the public view (``game.view(state, None)``)
shows changed is public by the engine's contract, so a move is told by that change: the new
lines of the game's log, or, for a game whose view keeps no log, by its presentation's own
``news`` module (``presentations.news``)."""
from __future__ import annotations

from typing import Iterator

from engine.text import Phrase, phrase
from service.store.history import ENGINE_EVENTS
from service.store.loading import Loaded
from service.view import presentations
from service.view.audit import states_after_each


def new_log_lines(before: dict | None, after: dict) -> list:
    """The lines ``after``'s log added to ``before``'s.  A view keeps only its newest lines,
    so the old log may have lost lines at its front: the new lines are what follows the
    longest front of the new log that ends the old one."""
    old, new = list((before or {}).get("log") or []), list(after.get("log") or [])
    for added in range(len(new) + 1):
        kept = len(new) - added
        if kept <= len(old) and new[:kept] == old[len(old) - kept:]:
            return new[kept:]
    return new


def move_news(game_name: str, before: dict | None, after: dict, seat, names: list[str]) -> list:
    """What a move of ``seat`` did, as phrases, from the public views before and after it."""
    teller = presentations.news(game_name)
    if teller is not None:
        return teller.told(before, after, seat, names)
    return new_log_lines(before, after)


def sentences(lines: list) -> Phrase:
    """Several sentences as one phrase, so a title or a post line stays one text: the
    catalogs join them as their language writes sentences (a space in English, none in
    Chinese or Japanese)."""
    joined = lines[-1]
    for line in reversed(lines[:-1]):
        joined = phrase("{first} {then}", first=line, then=joined)
    return joined


def told_events(loaded: Loaded) -> Iterator[tuple]:
    """(event, state right after it, what it did in public words) for every event, replaying
    once; the words are a list of phrases, empty for an event that is not a move.  The state
    is changed in place by the next step: read what you need of it before asking for more."""
    names = [s.name for s in loaded.seats]
    before = None
    for event, state in states_after_each(loaded):
        after = loaded.game.view(state, None)
        words = (move_news(loaded.game.name, before, after, event.payload.get("seat"), names)
                 if event.kind in ENGINE_EVENTS and before is not None else [])
        yield event, state, words
        before = after
