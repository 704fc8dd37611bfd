"""Snapshots: replayed states cached by (game, seq, rules version), so loading a long game
replays only the moves after its newest snapshot.

A snapshot is a cache that a full replay can always rebuild (tests prove snapshot == replay).
It is used only when it is on the path of the current history: a rollback or undo to a seq
before the snapshot makes it useless, and a change of the engine's ``rules_version`` misses it
(the key includes the version the *code* has now, not the one pinned at creation).

A load reads the newest snapshot, GameCreated and the events from the snapshot's seq on in
one query (``events_from_newest``) and applies the moves after it (``moves_since``); a rewind
in those events to a seq before the snapshot makes it fall back to reading and replaying every
event.  Older events are read only when something asks for them (``store.EventLog``).  On
PostgreSQL the newest decoded snapshot of each game is also kept in this process (``CACHE``,
checked against the stored text's MD5), so a load usually does not fetch it at all.

A snapshot is written at most every ``EVERY`` events, by the ``load`` of whichever command
(a unit of work: a move, a timeout, a worker's task) first finds it owed, in that same
transaction: a command that commits keeps it, a refused move throws it away, and the next
command tries again.  A read (a page, an API GET) never writes one (``loading.snapshot_owed``):
a GET changes nothing, and on SQLite a write there would take the one write lock from the
moves.  The insert runs at once (a Core statement, serialised before the caller goes on to
mutate the state) and ignores a snapshot another writer made first; the same transaction
drops the game's snapshots older than its newest ``KEEP``."""
from __future__ import annotations

import functools
import pickle
import threading
from collections import OrderedDict
from datetime import datetime, timezone

from sqlalchemy import (JSON, Column, DateTime, Integer, MetaData, String, Table, Text,
                        bindparam, case, cast, func, literal, or_, select)
from sqlalchemy.orm import Session

from engine import Game, get_game
from service.store.db import execute_core
from service.store.history import (ENGINE_EVENTS, REWIND_EVENTS, apply_step, created,
                                   effective_steps, seed_of, setup)
from service.store import events as store
from service.store.models import EventRow
from service.store.events import Event

# A late move replays on average EVERY / 2 moves after its snapshot, an early one half of its
# own count from GameCreated; ``python -m bench.snapshots`` (docs/performance.md) compares
# intervals.  Longer ones let a move 400 cost visibly more than a move 1, Inca Empire's most;
# pruning (KEEP) bounds the rows, so a short interval costs one snapshot write per EVERY
# events, not more storage.  A snapshot is a few kilobytes.
EVERY = 10
KEEP = 3  # snapshots kept per game: the newest, and two for short rollbacks and audits

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
    when there is no snapshot).  Returns (events, snapshot seq or None, snapshot state); the
    state is a fresh object the caller may mutate.

    The snapshot's seq is a scalar subquery that PostgreSQL evaluates once (an InitPlan), not
    once per event row.  On PostgreSQL the query also returns the MD5 of the stored state's
    text, and leaves the state itself out when it is the one this process already holds
    decoded (``CACHE``): the same seq and the same digest, so the very same stored text."""
    postgres = session.get_bind().dialect.name == "postgresql"
    cached = CACHE.get(game_id, rules_version) if postgres else None
    params = {"game_id": game_id, "rules_version": rules_version,
              "upto": upto if upto is not None else 2 ** 31 - 1}
    if cached is not None:
        params["known_seq"], params["known_digest"] = cached[0], cached[1]
    rows = execute_core(session, _query(postgres, cached is not None, upto is not None),
                        params).all()
    return from_rows(rows, game_id, rules_version, cached, postgres and upto is None)


def from_rows(rows, game_id: str, rules_version: str, cached, keep: bool
              ) -> tuple[list[Event], int | None, dict | None]:
    """``events_from_newest``'s answer from its rows: each an event (``store.EVENT_COLUMNS``),
    then the snapshot's seq, and on the first row the MD5 of its stored text and the state
    (None when it is ``cached``'s, which is then thawed).  ``keep``: a load at the head on
    PostgreSQL, whose decoded snapshot this process keeps (``CACHE``)."""
    if not rows:
        return [], None, None
    width = len(store.EVENT_COLUMNS)
    events = [store.to_event(r[:width]) for r in rows]
    base, found, decoded = rows[0][width:width + 3]
    if base is None:
        return events, None, None
    if decoded is None and cached is not None and (base, found) == cached[:2]:
        decoded = CACHE.thaw(cached)  # the query left it out: the same stored text
    elif decoded is not None and keep and found is not None:
        CACHE.put(game_id, rules_version, base, found, decoded)
    if decoded is None:  # pragma: no cover  (a snapshot row always has a state)
        raise RuntimeError(f"snapshot {game_id}@{base} came back without its state")
    return events, base, decoded


@functools.lru_cache(maxsize=None)
def _query(postgres: bool, known: bool, upto: bool):
    """``events_from_newest``'s statement, built once per shape (building it costs more than
    PostgreSQL takes to run it)."""
    game_id, rules_version = bindparam("game_id"), bindparam("rules_version")
    mine = (snapshots.c.game_id == game_id, snapshots.c.rules_version == rules_version)
    snap_seq = (select(snapshots.c.seq).where(*mine, snapshots.c.seq <= bindparam("upto"))
                .order_by(snapshots.c.seq.desc()).limit(1).scalar_subquery())
    at_snap = (*mine, snapshots.c.seq == snap_seq)
    digest_of = func.md5(cast(snapshots.c.state, Text))
    digest = (select(digest_of).where(*at_snap).scalar_subquery() if postgres
              else literal(None, Text))
    wanted = list(at_snap)
    if known:  # the state only when it is not the one held decoded here
        wanted.append(or_(snapshots.c.seq != bindparam("known_seq"),
                          digest_of != bindparam("known_digest")))
    state = select(snapshots.c.state).where(*wanted).scalar_subquery()
    where = [EventRow.game_id == game_id,
             or_(EventRow.seq == 1, EventRow.seq >= func.coalesce(snap_seq, literal(1)))]
    if upto:
        where.append(EventRow.seq <= bindparam("upto"))
    return (select(*store.EVENT_COLUMNS, snap_seq, case((EventRow.seq == 1, digest)),
                   case((EventRow.seq == 1, state)))
            .where(*where).order_by(EventRow.seq))


class StateCache:
    """The newest snapshot state this process decoded, per game: a small LRU whose entries
    are known by (game, seq, rules version, MD5 of the stored text).

    A snapshot row is immutable (its key never gets another state unless a test plants one,
    which changes the digest), so a hit is as good as reading it again, minus sending several KB
    and decoding them.  The loaded state is mutated by the command that loaded it, so the cache
    never hands out the object it holds: it keeps ``pickle`` bytes of the state as decoded from
    the database and every hit unpickles a new tree.  Measured on a 10 KB Inca Empire state:
    ``pickle.loads`` 45 us, ``json.loads`` of the text 80 us, ``copy.deepcopy`` 390 us.  Only
    bytes this process made itself are unpickled."""

    def __init__(self, size: int):
        self.size = size
        # game -> (rules version, seq, digest, pickled state): one entry per game, the newest
        self._items: OrderedDict[str, tuple[str, int, str, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def resize(self, size: int) -> None:
        with self._lock:
            self.size = size
            while len(self._items) > max(size, 0):
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def get(self, game_id: str, rules_version: str) -> tuple[int, str, bytes] | None:
        """(seq, digest, pickled state) held for the game under this rules version."""
        newest = self.newest(game_id)
        return newest[1] if newest is not None and newest[0] == rules_version else None

    def newest(self, game_id: str) -> tuple[str, tuple[int, str, bytes]] | None:
        """(rules version, (seq, digest, pickled state)) of the game's newest put."""
        with self._lock:
            entry = self._items.get(game_id)
            if entry is None:
                return None
            self._items.move_to_end(game_id)
            return entry[0], entry[1:]

    def put(self, game_id: str, rules_version: str, seq: int, digest: str, state: dict) -> None:
        """Called by a load at the head, before anything mutates ``state`` (it is what the
        database sent): it replaces whatever this game had here."""
        if self.size <= 0:
            return
        entry = (rules_version, seq, digest, pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        with self._lock:
            self._items[game_id] = entry
            self._items.move_to_end(game_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    @staticmethod
    def thaw(item: tuple[int, str, bytes]) -> dict:
        return pickle.loads(item[2])


CACHE = StateCache(128)


def save(session: Session, game_id: str, seq: int, rules_version: str, state: dict) -> None:
    """Store the state at ``seq`` (serialised now, before the caller mutates it) and prune
    the game's older snapshots (``prune``)."""
    dialect = session.get_bind().dialect.name
    if dialect not in ("postgresql", "sqlite"):  # pragma: no cover  (only these are supported)
        return
    values = {"game_id": game_id, "seq": seq, "rules_version": rules_version, "state": state,
              "created_at": datetime.now(timezone.utc)}
    session.execute(_writes(dialect)[0], values)
    prune(session, game_id, rules_version)


def prune(session: Session, game_id: str, rules_version: str) -> None:
    """Keep the game's newest ``KEEP`` snapshots of this rules version; drop the older ones
    and those of any other version.

    A load only ever starts from the newest snapshot on its history; older ones serve a load
    at an older seq (an audit) or after a rollback to before the newest, and replaying the
    few hundred events of a whole game costs milliseconds.  Kept, they were 20 rows of a few
    KB each per 400 events, more than the game's events themselves.  Another version's
    snapshots are of code no longer running here (during a rolling deploy two versions may
    drop each other's: a cache miss, never a wrong state)."""
    session.execute(_writes(session.get_bind().dialect.name)[1],
                    {"game_id": game_id, "rules_version": rules_version})


@functools.lru_cache(maxsize=None)
def _writes(dialect: str):
    """``save``'s insert (a snapshot another writer made first is kept) and ``prune``'s
    delete, built once per dialect: a snapshot is written every ``EVERY`` events, and building
    and compiling them anew each time cost more than the rest of that move's statements."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    save_one = (insert(snapshots).values({c.name: bindparam(c.name) for c in snapshots.c})
                .on_conflict_do_nothing())
    game_id, rules_version = bindparam("game_id"), bindparam("rules_version")
    mine = (snapshots.c.game_id == game_id) & (snapshots.c.rules_version == rules_version)
    oldest_kept = (select(snapshots.c.seq).where(mine).order_by(snapshots.c.seq.desc())
                   .offset(KEEP - 1).limit(1).scalar_subquery())
    drop_older = snapshots.delete().where(
        snapshots.c.game_id == game_id,
        (snapshots.c.rules_version != rules_version) | (snapshots.c.seq < oldest_kept))
    return save_one, drop_older


_BASE = object()  # the snapshot's own effective history, in moves_since


def moves_since(tail: list[Event], base: int, with_rewinds: bool = False) -> list[Event] | None:
    """The moves to apply to a snapshot taken right after event ``base``, given the events
    after it (``tail``); None when a rewind in them goes back to before ``base`` (the snapshot
    may then be off the current history: the caller replays in full).  ``with_rewinds``: the
    steps instead, rewinds included, for a game that reshuffles (``history.reshuffles``).

    The same linked-list walk as ``history.effective_steps``, rooted at the snapshot: a rewind
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
            if with_rewinds:
                head = (event, head)
        at_seq[event.seq] = head
    moves: list[Event] = []
    while head is not _BASE:
        event, head = head
        moves.append(event)
    moves.reverse()
    return moves


def rebuild(session: Session, game_id: str, events: list[Event], write: bool = True,
            every: int | None = None, use: bool = True
            ) -> tuple[Game, dict, tuple[int, object] | None]:
    """``history.rebuild`` with the newest usable snapshot as the starting point (all
    ``events`` in hand; ``use=False`` when the caller already knows there is none).  Returns
    the game, the state and what ``apply`` says of the last move it applied."""
    every = every or EVERY
    start = created(events)
    game = get_game(start["game"])
    moves = effective_steps(events)
    head = events[-1].seq
    state, done, base = None, 0, 0
    found = newest(session, game_id, head, game.rules_version) if use else None
    if found is not None:
        then = [e.seq for e in effective_steps([e for e in events if e.seq <= found.seq])]
        if [e.seq for e in moves[:len(then)]] == then:  # still on the current history
            state, done, base = found.state, len(then), found.seq
    if state is None:
        state = setup(game, events[0])
    before_last = apply(game, state, moves[done:], seed_of(events[0]))
    if write and head - base >= every:
        save(session, game_id, head, game.rules_version, state)
    return game, state, before_last


def apply(game: Game, state: dict, steps: list[Event], seed: int
          ) -> tuple[int, object] | None:
    """Apply ``steps`` (moves, and the rewinds of a game that reshuffles) in place; returns
    (seq of the last move, the state's ``epoch`` just before it), or None when there was none.

    That epoch is a fact of the immutable log (the state before a move depends only on the
    events before it), and it is what a player's undo must compare with (``undoable_move``):
    kept here, the play page need not replay the game a second time to learn it.  A reshuffle
    after the last move never changes the epoch."""
    before_last = None
    for event in steps:
        if event.kind in ENGINE_EVENTS:
            before_last = event.seq, state.get("epoch")
        apply_step(game, state, event, seed)
    return before_last
