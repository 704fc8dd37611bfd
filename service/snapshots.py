"""Snapshots: replayed states cached by (game, seq, rules version), so loading a long game
replays only the moves after its newest snapshot.

A snapshot is a cache that a full replay can always rebuild (tests prove snapshot == replay).
It is used only when it is on the path of the current history: a rollback or undo to a seq
before the snapshot makes it useless, and a change of the engine's ``rules_version`` misses it
(the key includes the version the *code* has now, not the one pinned at creation).

A load reads the newest snapshot, GameCreated and the events from the snapshot's seq on in
one query (``events_from_newest``) and applies the moves after it (``moves_since``); a rewind
in those events to a seq before the snapshot makes it fall back to reading and replaying every
event.  Older events are read only when something asks for them (``store.EventLog``).

A snapshot is written at most every ``EVERY`` events, by the ``load`` of whichever unit of
work first finds it owed, in that same transaction: a command that commits keeps it, a read
(whose session is rolled back) or a refused move throws it away, and the next command tries
again.  The insert runs at once (a Core statement, serialised before the caller goes on to
mutate the state) and ignores a snapshot another writer made first."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (JSON, Column, DateTime, Integer, MetaData, String, Table, case, func,
                        literal, or_, select, true)
from sqlalchemy.orm import Session

from engine import Game, get_game
from service.history import ENGINE_EVENTS, REWIND_EVENTS, created, effective_moves
from service import store
from service.models import EventRow
from service.store import Event

EVERY = 50

metadata = MetaData()  # not Base.metadata: a cache table the ORM models need not know
snapshots = Table(
    "snapshots", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("rules_version", String(40), primary_key=True),
    Column("state", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


def newest(session: Session, game_id: str, upto: int, rules_version: str):
    """The newest snapshot at or before ``upto`` for this rules version: (seq, state) or None."""
    return session.execute(
        select(snapshots.c.seq, snapshots.c.state)
        .where(snapshots.c.game_id == game_id, snapshots.c.rules_version == rules_version,
               snapshots.c.seq <= upto)
        .order_by(snapshots.c.seq.desc()).limit(1)).first()


def events_from_newest(session: Session, game_id: str, rules_version: str,
                       upto: int | None = None) -> tuple[list[Event], int | None, dict | None]:
    """One round trip for a load: the newest snapshot at or before ``upto`` (or the head) for
    this rules version, GameCreated, and the events from the snapshot's seq on (every event
    when there is no snapshot).  Returns (events, snapshot seq or None, snapshot state)."""
    snap = (select(snapshots.c.seq, snapshots.c.state)
            .where(snapshots.c.game_id == game_id, snapshots.c.rules_version == rules_version,
                   snapshots.c.seq <= (upto if upto is not None else 2 ** 31 - 1))
            .order_by(snapshots.c.seq.desc()).limit(1).subquery("snap"))
    where = [EventRow.game_id == game_id,
             or_(EventRow.seq == 1, EventRow.seq >= func.coalesce(snap.c.seq, literal(1)))]
    if upto is not None:
        where.append(EventRow.seq <= upto)
    rows = session.execute(
        select(*store.EVENT_COLUMNS, snap.c.seq, case((EventRow.seq == 1, snap.c.state)))
        .select_from(EventRow).outerjoin(snap, true()).where(*where).order_by(EventRow.seq)).all()
    if not rows:
        return [], None, None
    return [store.to_event(r[:7]) for r in rows], rows[0][7], rows[0][8]


def save(session: Session, game_id: str, seq: int, rules_version: str, state: dict) -> None:
    values = {"game_id": game_id, "seq": seq, "rules_version": rules_version, "state": state,
              "created_at": datetime.now(timezone.utc)}
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    else:  # pragma: no cover  (only PostgreSQL and SQLite are supported)
        return
    session.execute(insert(snapshots).values(**values).on_conflict_do_nothing())


_BASE = object()  # the snapshot's own effective history, in moves_since


def moves_since(tail: list[Event], base: int) -> list[Event] | None:
    """The moves to apply to a snapshot taken right after event ``base``, given the events
    after it (``tail``); None when a rewind in them goes back to before ``base`` (the snapshot
    may then be off the current history: the caller replays in full).

    The same linked-list walk as ``history.effective_moves``, rooted at the snapshot: a rewind
    to a seq at or after ``base`` keeps the snapshot's history as the prefix."""
    at_seq: dict[int, object] = {base: _BASE}
    head: object = _BASE
    for event in tail:
        if event.kind in ENGINE_EVENTS:
            head = (event, head)
        elif event.kind in REWIND_EVENTS:
            to_seq = event.payload["to_seq"]
            if to_seq not in at_seq:
                return None
            head = at_seq[to_seq]
        at_seq[event.seq] = head
    moves: list[Event] = []
    while head is not _BASE:
        event, head = head
        moves.append(event)
    moves.reverse()
    return moves


def rebuild(session: Session, game_id: str, events: list[Event], write: bool = True,
            every: int | None = None, use: bool = True) -> tuple[Game, dict]:
    """``history.rebuild`` with the newest usable snapshot as the starting point (all
    ``events`` in hand; ``use=False`` when the caller already knows there is none)."""
    every = every or EVERY
    start = created(events)
    game = get_game(start["game"])
    moves = effective_moves(events)
    head = events[-1].seq
    state, done, base = None, 0, 0
    found = newest(session, game_id, head, game.rules_version) if use else None
    if found is not None:
        then = [e.seq for e in effective_moves(e for e in events if e.seq <= found.seq)]
        if [e.seq for e in moves[:len(then)]] == then:  # still on the current history
            state, done, base = found.state, len(then), found.seq
    if state is None:
        state = game.setup(start["players"], start["seed"], start["options"])
    for event in moves[done:]:
        game.apply_in_place(state, event.payload["seat"], event.payload["action"])
    if write and head - base >= every:
        save(session, game_id, head, game.rules_version, state)
    return game, state
