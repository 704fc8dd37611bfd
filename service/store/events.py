"""The event store: append with an expected seq, a SHA-256 hash chain, load, verify.

Appends are optimistic.  The caller says which seq it believes is next; the primary key
(game_id, seq) guarantees that of two racing writers exactly one commits.  Nothing in this
module (or anywhere else) updates or deletes an event row; the database refuses it too.

Every event written since schema version 2 (``schema_version`` in its payload; 3 now) keeps
a random ``nonce`` in its row's ``sealed`` column, and its hash covers that nonce: a hash then
confirms no guess about the event's content (a secret choice, a seed) to anyone who lacks the
nonce, while whoever holds the events with their nonces (the store, and anyone once a
finished game's record is published) recomputes every hash exactly.  Events of schema
version 1 (written before) have no nonce and keep the hash over their content alone.
Version 3 hashes exactly as version 2; it marks a game (its GameCreated's version) whose
chance is derived from a committed secret of the service's and the players' contributions
(``service.store.fairness``).
``docs/fairness.md`` says why a nonce rather than a keyed MAC."""
from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone

from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from engine import canonical_json
from service.store.db import lost_races_refused
from service.store.models import EventRow
from service.core.refusals import Conflict

GENESIS = "0" * 64
SCHEMA_VERSION = 3
NONCE_SINCE = 2   # the first schema version whose hash covers a per-event nonce
NONCE_BYTES = 16  # 128 random bits per event


@dataclass(frozen=True)
class Event:
    seq: int
    kind: str
    payload: dict
    actor: str
    recorded_at: datetime
    prev_hash: str
    hash: str
    # What the event keeps out of every view while its game runs: its ``nonce`` and, for
    # GameCreated, the game's ``seed`` and ``salt`` (``service.store.fairness``).  None: an event
    # of schema version 1.  Never shown by ``repr``, so no log line or traceback prints it.
    sealed: dict | None = field(default=None, repr=False)

    @property
    def nonce(self) -> str | None:
        return (self.sealed or {}).get("nonce")


def utc(moment: datetime) -> datetime:
    """SQLite hands datetimes back without a zone; every stored time is UTC."""
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)


def event_hash(game_id: str, seq: int, kind: str, payload: dict, actor: str,
               recorded_at: datetime, prev_hash: str, nonce: str | None = None) -> str:
    """SHA-256 of the previous hash and the canonical JSON of the event's content, which
    includes ``nonce`` when there is one (schema version 2 on)."""
    content = {"game": game_id, "seq": seq, "kind": kind, "payload": payload, "actor": actor,
               "recorded_at": utc(recorded_at).isoformat(timespec="microseconds")}
    if nonce is not None:
        content["nonce"] = nonce
    return hashlib.sha256((prev_hash + canonical_json(content)).encode()).hexdigest()


def nonced(payload: dict) -> bool:
    """Whether an event with this payload is hashed with a nonce (its schema version says)."""
    version = payload.get("schema_version")
    return type(version) is int and version >= NONCE_SINCE


def digest_of(game_id: str, event: Event) -> str | None:
    """The hash ``event`` must have, recomputed from its content; None when its schema
    version needs a nonce and it has none (or has one it must not have)."""
    nonce = event.nonce
    if nonced(event.payload) != (nonce is not None) or not (nonce is None or type(nonce) is str):
        return None
    return event_hash(game_id, event.seq, event.kind, event.payload, event.actor,
                      event.recorded_at, event.prev_hash, nonce)


EVENT_COLUMNS = (EventRow.seq, EventRow.kind, EventRow.payload, EventRow.actor, EventRow.recorded_at,
                 EventRow.prev_hash, EventRow.hash, EventRow.sealed)


def _read(session: Session, game_id: str, *where) -> list[Event]:
    """Plain column rows (no ORM identity map: events are immutable) in seq order."""
    rows = session.execute(
        select(*EVENT_COLUMNS).where(EventRow.game_id == game_id, *where).order_by(EventRow.seq))
    return [to_event(row) for row in rows]


def to_event(row) -> Event:
    """An ``Event`` from a row of ``EVENT_COLUMNS``."""
    seq, kind, payload, actor, at, prev, digest, sealed = row
    return Event(seq, kind, payload, actor, utc(at), prev, digest, sealed)


def load(session: Session, game_id: str, upto: int | None = None) -> list[Event]:
    """Every event (up to ``upto``), in seq order."""
    return _read(session, game_id, *(() if upto is None else (EventRow.seq <= upto,)))


def load_range(session: Session, game_id: str, first: int, last: int) -> list[Event]:
    """Events ``first`` to ``last`` (inclusive)."""
    return _read(session, game_id, EventRow.seq >= first, EventRow.seq <= last)


def of_kinds(session: Session, game_id: str, kinds) -> list[Event]:
    """The game's events of these kinds, in seq order: a rule that reads a few rare events of
    a long game reads them alone, not the whole log a snapshot let the load skip."""
    return _read(session, game_id, EventRow.kind.in_(sorted(kinds)))


def load_from(session: Session, game_id: str, seq: int, upto: int | None = None) -> list[Event]:
    """``GameCreated`` (seq 1) and the events from ``seq`` on (up to ``upto``): what a load
    that starts from a snapshot at ``seq`` needs, in one round trip."""
    where = [or_(EventRow.seq == 1, EventRow.seq >= seq)]
    if upto is not None:
        where.append(EventRow.seq <= upto)
    return _read(session, game_id, *where)


class EventLog(Sequence):
    """A game's events by position: ``log[i]`` is event seq ``i + 1`` (seqs are gapless).

    A load that starts from a snapshot reads only ``first`` (GameCreated) and the ``tail``
    (the events from the snapshot's seq to the head).  Anything before the tail is read from
    the store the first time it is asked for (``fetch(first_seq, last_seq)``), so the
    freshness checks, the stale message, undo and the mail, which look at the last few events,
    read nothing more, while the audit, the export and the API's status page see every event
    exactly as before.  ``append`` adds a new head (a command's event)."""

    def __init__(self, events: list[Event], first: Event | None = None,
                 fetch: Callable[[int, int], list[Event]] | None = None):
        self.first = first if first is not None else events[0]
        if not events or events[0].seq == 2:  # nothing between GameCreated and the tail
            events = [self.first, *events]
        elif events[0].seq > 2 and fetch is None:
            raise ValueError("a log that starts after seq 2 needs a fetch for the rest")
        self._tail = events
        self._fetch = fetch

    @property
    def complete(self) -> bool:
        return self._tail[0].seq == 1

    @property
    def head(self) -> Event:
        return self._tail[-1]

    @property
    def tail(self) -> list[Event]:
        """The contiguous events read so far, ending at the head (all of them when complete)."""
        return self._tail

    def _complete(self) -> list[Event]:
        start = self._tail[0].seq
        if start > 1:
            middle = self._fetch(2, start - 1) if start > 2 else []
            if len(middle) != start - 2:  # pragma: no cover  (events are never deleted)
                raise RuntimeError("events went missing while the game was loaded")
            self._tail[:0] = [self.first, *middle]
            self._fetch = None
        return self._tail

    def all(self) -> list[Event]:
        """Every event, read from the store if need be (the list itself: do not mutate)."""
        return self._complete()

    def since(self, seq: int) -> list[Event]:
        """The events after ``seq`` (from the tail when it reaches that far back)."""
        start = self._tail[0].seq
        if seq >= start - 1:
            return self._tail[seq - start + 1:]
        return self._complete()[max(seq, 0):]

    def append(self, event: Event) -> None:
        if event.seq != self.head.seq + 1:
            raise ValueError(f"event {event.seq} does not follow the head {self.head.seq}")
        self._tail.append(event)

    def __len__(self) -> int:  # the events before the tail are seqs 1..tail[0].seq - 1
        return self._tail[0].seq - 1 + len(self._tail)

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            offset = self._tail[0].seq - 1
            if step == 1 and start >= offset:
                return self._tail[start - offset:max(stop - offset, 0)]
            return self._complete()[index]
        if index < 0:
            index += len(self)
        if index == 0:
            return self.first
        offset = self._tail[0].seq - 1
        if offset <= index < len(self):
            return self._tail[index - offset]
        if not 0 <= index < len(self):
            raise IndexError("event index out of range")
        return self._complete()[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._complete())

    def __reversed__(self) -> Iterator[Event]:
        yield from reversed(self._tail)  # the tail first: most readers stop early
        start = self._tail[0].seq
        if start > 1:
            yield from reversed(self._complete()[:start - 1])

    def __eq__(self, other) -> bool:
        if isinstance(other, (list, EventLog)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return f"EventLog(seq 1..{len(self)}, read from {self._tail[0].seq})"


def append(session: Session, game_id: str, expected_seq: int, prev_hash: str, kind: str,
           payload: dict, actor: str, now: datetime, sealed: dict | None = None) -> Event:
    """Insert event ``expected_seq``; raise ``Conflict`` if that seq is already taken.
    ``sealed``: as for ``new_event``."""
    event, values = new_event(game_id, expected_seq, prev_hash, kind, payload, actor, now, sealed)
    dialect = session.get_bind().dialect.name
    if dialect in ("postgresql", "sqlite"):
        # one statement: a taken seq inserts nothing (no savepoint needed to stay usable)
        session.flush()  # pending ORM rows first (the game row a new event refers to), as before
        with lost_races_refused():  # a savepoint's caller (the sweep) goes on with the rest
            try:
                taken = session.execute(_append_statement(dialect), values).first() is None
            except IntegrityError as error:  # e.g. no such game (foreign key)
                raise Conflict.moved_on() from error
        if taken:
            raise Conflict.moved_on()
    else:  # pragma: no cover  (only PostgreSQL and SQLite are supported)
        try:
            with session.begin_nested():
                session.add(EventRow(**values))
                session.flush()
        except IntegrityError as error:
            raise Conflict.moved_on() from error
    return event


def new_event(game_id: str, seq: int, prev_hash: str, kind: str, payload: dict, actor: str,
              now: datetime, sealed: dict | None = None) -> tuple[Event, dict]:
    """The event ``seq`` with its place in the hash chain, and its ``events`` row's values:
    ``append`` inserts them at once, ``move_writes`` with the rest of a command's rows.

    ``sealed``: more secrets to keep with the event (GameCreated's seed and salt), or an
    imported event's own (its nonce).  An event of the current schema gets a fresh nonce
    unless ``sealed`` brings one; one of schema version 1 (an import) keeps none."""
    payload = {**payload, "schema_version": payload.get("schema_version", SCHEMA_VERSION)}
    if nonced(payload) and "nonce" not in (sealed or {}):
        sealed = {**(sealed or {}), "nonce": secrets.token_hex(NONCE_BYTES)}
    now = utc(now)
    event = Event(seq, kind, payload, actor, now, prev_hash, "", sealed)
    digest = digest_of(game_id, event)
    if digest is None:
        raise ValueError(f"event {seq}: a nonce must come with schema version "
                         f"{NONCE_SINCE} and later, and only with them")
    values = {"game_id": game_id, "seq": seq, "kind": kind, "payload": payload,
              "actor": actor, "recorded_at": now, "prev_hash": prev_hash, "hash": digest,
              "sealed": sealed}
    return Event(seq, kind, payload, actor, now, prev_hash, digest, sealed), values


_APPEND: dict = {}


def _append_statement(dialect: str):
    """``INSERT … ON CONFLICT DO NOTHING RETURNING seq`` on the events table, built once per
    dialect (a Core statement: no ORM bulk-insert machinery, no per-call construction)."""
    statement = _APPEND.get(dialect)
    if statement is None:
        table = EventRow.__table__
        statement = _APPEND[dialect] = (
            _insert_for(dialect)(table).on_conflict_do_nothing(index_elements=["game_id", "seq"])
            .returning(table.c.seq))
    return statement


def _insert_for(dialect: str):
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    events: int
    broken_at: int | None = None
    reason: str = ""


def verify_chain(game_id: str, events: list[Event]) -> ChainReport:
    """Recompute every hash (with each event's nonce from schema version 2 on, without
    before); the first event whose stored hash or link disagrees breaks it."""
    prev = GENESIS
    for expected_seq, event in enumerate(events, start=1):
        if event.seq != expected_seq:
            return ChainReport(False, len(events), event.seq, f"gap: expected seq {expected_seq}")
        if event.prev_hash != prev:
            return ChainReport(False, len(events), event.seq, "prev_hash does not link")
        digest = digest_of(game_id, event)
        if digest is None:
            return ChainReport(False, len(events), event.seq,
                               "nonce missing or not expected for its schema version")
        if digest != event.hash:
            return ChainReport(False, len(events), event.seq, "hash does not match content")
        prev = event.hash
    return ChainReport(True, len(events))


def last_seq(session: Session, game_id: str) -> int | None:
    """The seq of the game's newest stored event, as the log itself says (not the
    ``games.head_seq`` projection); None for a game without events."""
    return session.scalar(select(func.max(EventRow.seq)).where(EventRow.game_id == game_id))
