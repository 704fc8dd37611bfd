"""From events to state: which events count, and replaying them through the engine.

A rollback never deletes: ``RolledBack(to_seq=k)`` makes the effective history equal to what
it was right after event k.  Each seq remembers its effective history as a node of a linked
list (shared tails), so a rollback costs nothing and a rollback of a rollback is just another
rollback to a seq before it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from engine import Game, get_game
from service.store.events import Event

ENGINE_EVENTS = frozenset({"MoveMade", "TurnTimedOut"})
# Events that change nothing any seat decides on (the engine state is untouched), so they
# leave earlier links fresh: a vacation switched on or off, a message to the table.
INFO_EVENTS = frozenset({"VacationStarted", "VacationEnded", "MessagePosted"})
# The event that ends a game's secrecy: its seed and salt, appended when the game ends
# (``service.store.fairness``).  It changes no state; after it the game can no longer be rewound.
REVEAL_EVENT = "SeedRevealed"
# Events that reset the effective history to what it was right after event ``to_seq``: an
# admin's rollback, and a player's undo of their own move.
REWIND_EVENTS = frozenset({"RolledBack", "Undone"})


@dataclass(frozen=True)
class _Node:
    event: Event
    parent: "_Node | None"


def effective_moves(events: Iterable[Event]) -> list[Event]:
    """The move events that the current state is made of, in order."""
    at_seq: dict[int, _Node | None] = {}
    head: _Node | None = None
    for event in events:
        if event.kind in ENGINE_EVENTS:
            head = _Node(event, head)
        elif event.kind in REWIND_EVENTS:
            head = at_seq[event.payload["to_seq"]]
        at_seq[event.seq] = head
    moves: list[Event] = []
    while head is not None:
        moves.append(head.event)
        head = head.parent
    moves.reverse()
    return moves


def superseded_seqs(events: list[Event]) -> set[int]:
    """Move events that a rollback took out of the effective history (shown struck through)."""
    live = {event.seq for event in effective_moves(events)}
    return {e.seq for e in events if e.kind in ENGINE_EVENTS and e.seq not in live}


def created(events: list[Event]) -> dict:
    if not events or events[0].kind != "GameCreated":
        raise ValueError("a game's first event must be GameCreated")
    return events[0].payload


def seed_of(first: Event) -> int:
    """The seed of the game that ``first`` (its GameCreated) began.

    A game started since fair play keeps its seed sealed with GameCreated (``Event.sealed``,
    never in the payload, which publishes a commitment to it: ``service.store.fairness``), as
    decimal text beside the salt or the service's secret it came from; a game started before
    has it in the payload.  Its schema version says which."""
    if first.sealed is not None and "seed" in first.sealed:
        return int(first.sealed["seed"])
    if "seed" not in first.payload:
        raise ValueError("GameCreated has neither a sealed seed nor one in its payload")
    return first.payload["seed"]


def setup(game: Game, first: Event) -> dict:
    """The state right after GameCreated ``first``."""
    start = created([first])
    return game.setup(start["players"], seed_of(first), start["options"])


def rebuild(events: list[Event]) -> tuple[Game, dict]:
    """Replay: setup from GameCreated, then every effective move, on one working copy."""
    game = get_game(created(events)["game"])
    state = setup(game, events[0])
    for event in effective_moves(events):
        game.apply_in_place(state, event.payload["seat"], event.payload["action"])
    return game, state
