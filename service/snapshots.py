"""Snapshots: replayed states cached by (game, seq, rules version), so loading a long game
replays only the moves after its newest snapshot.

A snapshot is a cache that a full replay can always rebuild (tests prove snapshot == replay).
It is used only when it is on the path of the current history: a rollback or undo to a seq
before the snapshot makes it useless, and a change of the engine's ``rules_version`` misses it
(the key includes the version the *code* has now, not the one pinned at creation).

A snapshot is written at most every ``EVERY`` events, by the ``load`` of whichever unit of
work first finds it owed, in that same transaction: a command that commits keeps it, a read
(whose session is rolled back) or a refused move throws it away, and the next command tries
again.  The insert runs at once (a Core statement, serialised before the caller goes on to
mutate the state) and ignores a snapshot another writer made first."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import JSON, Column, DateTime, Integer, MetaData, String, Table, select
from sqlalchemy.orm import Session

from engine import Game, get_game
from service.history import created, effective_moves
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


def rebuild(session: Session, game_id: str, events: list[Event], write: bool = True,
            every: int | None = None) -> tuple[Game, dict]:
    """``history.rebuild`` with the newest usable snapshot as the starting point."""
    every = every or EVERY
    start = created(events)
    game = get_game(start["game"])
    moves = effective_moves(events)
    head = events[-1].seq
    state, done, base = None, 0, 0
    found = newest(session, game_id, head, game.rules_version)
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
