"""A game's story: every event, one step at a time, with the board as the viewer could see it
right after that event.

Who sees what (the history page says the same to its reader):

* While the game runs, a seat sees its own past views (``view(state after the step, seat)``)
  and a spectator the table's (``view(state, None)``).  Every event is told in public words
  (``told``: what the public view shows it did), and a seat's own moves also by their own
  phrase, since it made them.  Nothing else of any state reaches the page.
* Once the game is over and its seed revealed, its whole truth is public (the record
  publishes every move and the seed), so anyone may choose whose view to look at, any seat's or the table's, and every move
  is told by its own phrase too.

A rollback or an undo is a step of its own; the moves it took back stay in the list, struck
through, as the admin audit shows them.  Each page replays the game once (a game has at most
a few hundred events; the replay costs milliseconds)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.text import N_, Phrase, phrase
from service.store.fairness import publishable
from service.store.history import ENGINE_EVENTS, superseded_seqs
from service.store.loading import Loaded
from service.view.actors import actor_name
from service.view.feeds import public_words
from service.view.told import told_events

TABLE = "table"  # the ``as`` choice of the table's view (what a spectator sees)

# Events the feeds leave out (the spectator page shows neither talk nor vacations), told here
# since every seat reads them too.
_SEAT_EVENTS = {"MessagePosted": N_("{player} wrote to the table."),
                "VacationStarted": N_("{player} went on vacation."),
                "VacationEnded": N_("{player} is back from vacation."),
                "RollbackConsented": N_("{player} agreed to the proposed rollback"),
                "RollbackDeclined": N_("{player} declined the proposed rollback"),
                "TimeoutOrderSet": N_("{player} chose what happens when their time runs out.")}


@dataclass(frozen=True)
class Step:
    """One event as the history page lists it."""
    number: int                      # 1 for the game's first event
    who: str | Phrase | None         # who acted, unless the words say it
    words: Phrase | str | None       # what it did, in public words
    own: Phrase | str | None         # the move's own phrase, to a reader who may see it
    struck: bool                     # a move a rollback or an undo took back
    recorded_at: datetime


@dataclass(frozen=True)
class Story:
    steps: list[Step]
    at: int                # the step shown, from 1
    view: dict             # the board right after that step, as ``shown`` saw it
    shown: int | None      # whose view: a seat, or None for the table's
    choices: list[tuple[str, str]]  # (``as`` value, name) of the views the reader may pick
    over: bool


def may_choose(loaded: Loaded) -> bool:
    """Whether the reader may look at any seat's view: once the game is over and its record
    published (its seed revealed), when nothing of it is a secret any more."""
    return publishable(loaded.row.status, loaded.events.all())


def whose_view(loaded: Loaded, viewer: int | None, asked: int | None | str) -> int | None:
    """The seat whose view is shown: the reader's own (the table's for a spectator), or,
    once the game is over, the one they asked for (``TABLE`` for the table's)."""
    if not may_choose(loaded) or asked is None:
        return viewer
    return None if asked == TABLE else asked


def story(loaded: Loaded, viewer: int | None, at: int, asked: int | None | str = None) -> Story:
    """The game's story as ``viewer`` (a seat, or None for a spectator) may read it, showing
    the board right after step ``at`` (1 ≤ at ≤ the number of events)."""
    over = may_choose(loaded)
    shown = whose_view(loaded, viewer, asked)
    names = [s.name for s in loaded.seats]
    every = loaded.events.all()
    struck = superseded_seqs(every)
    steps, board = [], None
    for event, state, words in told_events(loaded):
        steps.append(_step(event, words, names, viewer, over, event.seq in struck, every))
        if event.seq == at:
            board = loaded.game.view(state, shown)
    choices = [(TABLE, "")] + [(str(seat + 1), name) for seat, name in enumerate(names)]
    return Story(steps, at, board, shown, choices if over else [], over)


def _step(event, words: list, names: list[str], viewer: int | None, over: bool,
          struck: bool, events) -> Step:
    seat = event.payload.get("seat")
    own = None
    if event.kind == "MoveMade" and (over or (viewer is not None and seat == viewer)):
        own = event.payload.get("say") or event.payload.get("label")
    said = _words(event, words, names, events)
    # A move's words name its player already ("Dee left the temple with 7 gems").
    who = None if words and event.kind in ENGINE_EVENTS else actor_name(event.actor, names)
    return Step(event.seq, who, said, own, struck, event.recorded_at)


def _words(event, words: list, names: list[str], events):
    told = public_words(event, names, words, events)
    if told is not None or event.kind not in _SEAT_EVENTS:
        return told
    seat = event.payload.get("seat")
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    return phrase(_SEAT_EVENTS[event.kind], player=name)
