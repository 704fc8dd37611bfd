"""From events to state: which events count, and replaying them through the engine.

A rollback never deletes: ``RolledBack(to_seq=k)`` makes the effective history equal to what
it was right after event k.  Each seq remembers its effective history as a node of a linked
list (shared tails), so a rollback costs nothing and a rollback of a rollback is just another
rollback to a seq before it.

From schema version 3 on, a rewind also re-draws what no seat has seen in the rewound state
(``Game.reshuffle_unseen``, keyed by ``randomness.reshuffle_key(seed, seq of the rewind)``),
so the moves it took back teach nobody what comes next.  Such a game's effective history is
made of *steps*: its moves and its rewind events, each rewind a node of the linked list like
a move.  Games of earlier versions replay exactly as they always did (moves only)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from engine import Game, get_game
from service.store.events import Event
from service.store.randomness import reshuffle_key

ENGINE_EVENTS = frozenset({"MoveMade", "TurnTimedOut"})
# A rollback that needs every seated player's consent (its span made something known): the
# admin's proposal and each player's answer.  They change no state; the game goes on meanwhile.
PROPOSAL_EVENTS = frozenset({"RollbackProposed", "RollbackConsented", "RollbackDeclined"})
# Events that change nothing any seat decides on (the engine state is untouched), so they
# leave earlier links fresh: a vacation switched on or off, a message to the table, a
# player's order for when their time runs out, a rollback's proposal and the answers to it.
INFO_EVENTS = (frozenset({"VacationStarted", "VacationEnded", "MessagePosted", "TimeoutOrderSet"})
               | PROPOSAL_EVENTS)
# The event that ends a game's secrecy: its seed and salt, appended when the game ends
# (``service.store.fairness``).  It changes no state; after it the game can no longer be rewound.
REVEAL_EVENT = "SeedRevealed"
# Events that reset the effective history to what it was right after event ``to_seq``: an
# admin's rollback, and a player's undo of their own move.
REWIND_EVENTS = frozenset({"RolledBack", "Undone"})
# The first schema version whose rewinds reshuffle what nobody has seen.
RESHUFFLING_VERSION = 3


# What may follow an open rollback proposal without closing it: table talk, vacations, and
# consents to it.  Anything else (a move, a timeout, a rewind, a seat change, a pause, the
# end, another proposal, a decline) closes it.
KEEPS_PROPOSAL_OPEN = INFO_EVENTS - PROPOSAL_EVENTS


def consents_to(proposal: int, since: Iterable[Event]) -> set[int] | None:
    """The seats that consented to the ``RollbackProposed`` at seq ``proposal`` in ``since``
    (the events after it), or None when one of them closed it.  The service and the verifier
    both read a proposal through here."""
    agreed: set[int] = set()
    for event in since:
        if event.kind == "RollbackConsented" and event.payload.get("proposal") == proposal:
            agreed.add(event.payload.get("seat"))
        elif event.kind not in KEEPS_PROPOSAL_OPEN:
            return None
    return agreed


@dataclass(frozen=True)
class _Node:
    event: Event
    parent: "_Node | None"


def reshuffles(first: Event) -> bool:
    """Whether the game that GameCreated ``first`` began reshuffles at its rewinds."""
    version = first.payload.get("schema_version", 1)
    return type(version) is int and version >= RESHUFFLING_VERSION


def effective_moves(events: Iterable[Event]) -> list[Event]:
    """The move events that the current state is made of, in order."""
    return _walk(events, False)


def effective_steps(events: list[Event]) -> list[Event]:
    """What the current state is replayed from, in order: the effective moves and, in a game
    that reshuffles (``reshuffles``), the rewinds that are part of the current history."""
    return _walk(events, bool(events) and reshuffles(events[0]))


def _walk(events: Iterable[Event], with_rewinds: bool) -> list[Event]:
    at_seq: dict[int, _Node | None] = {}
    head: _Node | None = None
    for event in events:
        if event.kind in ENGINE_EVENTS:
            head = _Node(event, head)
        elif event.kind in REWIND_EVENTS:
            head = at_seq[event.payload["to_seq"]]
            if with_rewinds:
                head = _Node(event, head)
        at_seq[event.seq] = head
    steps: list[Event] = []
    while head is not None:
        steps.append(head.event)
        head = head.parent
    steps.reverse()
    return steps


def apply_step(game: Game, state: dict, event: Event, seed: int) -> None:
    """One step of the effective history, in place: a move, or a rewind's reshuffle."""
    if event.kind in REWIND_EVENTS:
        game.reshuffle_unseen(state, reshuffle_key(seed, event.seq))
    else:
        game.apply_in_place(state, event.payload["seat"], event.payload["action"])


def replay(game: Game, state: dict, steps: Iterable[Event], seed: int,
           check: Callable[[dict, Event], None] | None = None) -> None:
    """Apply ``steps`` to ``state`` in place (the hot path: one working copy).  ``check``,
    when given, sees the state before each move and may raise (the verifier's legality
    checks); the service, the snapshots and the verifier all replay through here."""
    for event in steps:
        if check is not None and event.kind in ENGINE_EVENTS:
            check(state, event)
        apply_step(game, state, event, seed)


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
    state = game.setup(start["players"], seed_of(first), start["options"])
    game.keep_rules_version(state, start.get("rules_version"))
    return state


def rebuild(events: list[Event]) -> tuple[Game, dict]:
    """Replay: setup from GameCreated, then every effective step, on one working copy."""
    game = get_game(created(events)["game"])
    state = setup(game, events[0])
    replay(game, state, effective_steps(events), seed_of(events[0]))
    return game, state
