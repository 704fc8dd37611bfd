"""The event store: append with an expected seq, a SHA-256 hash chain, load, verify.

Appends are optimistic.  The caller says which seq it believes is next; the primary key
(game_id, seq) guarantees that of two racing writers exactly one commits.  Nothing in this
module (or anywhere else) updates or deletes an event row; the database refuses it too."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from engine import canonical_json
from service.models import EventRow

GENESIS = "0" * 64
SCHEMA_VERSION = 1


class Conflict(Exception):
    """The game moved on: another event took the seq this writer expected."""


@dataclass(frozen=True)
class Event:
    seq: int
    kind: str
    payload: dict
    actor: str
    recorded_at: datetime
    prev_hash: str
    hash: str


def utc(moment: datetime) -> datetime:
    """SQLite hands datetimes back without a zone; every stored time is UTC."""
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)


def event_hash(game_id: str, seq: int, kind: str, payload: dict, actor: str,
               recorded_at: datetime, prev_hash: str) -> str:
    body = canonical_json({
        "game": game_id, "seq": seq, "kind": kind, "payload": payload, "actor": actor,
        "recorded_at": utc(recorded_at).isoformat(timespec="microseconds"),
    })
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def _to_event(row: EventRow) -> Event:
    return Event(row.seq, row.kind, row.payload, row.actor, utc(row.recorded_at),
                 row.prev_hash, row.hash)


def load(session: Session, game_id: str) -> list[Event]:
    rows = session.scalars(
        select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq))
    return [_to_event(row) for row in rows]


def append(session: Session, game_id: str, expected_seq: int, prev_hash: str, kind: str,
           payload: dict, actor: str, now: datetime) -> Event:
    """Insert event ``expected_seq``; raise ``Conflict`` if that seq is already taken."""
    payload = {**payload, "schema_version": payload.get("schema_version", SCHEMA_VERSION)}
    now = utc(now)
    digest = event_hash(game_id, expected_seq, kind, payload, actor, now, prev_hash)
    row = EventRow(game_id=game_id, seq=expected_seq, kind=kind, payload=payload, actor=actor,
                   recorded_at=now, prev_hash=prev_hash, hash=digest)
    try:
        with session.begin_nested():
            session.add(row)
            session.flush()
    except IntegrityError as error:
        raise Conflict("the game moved on; reload and try again") from error
    return _to_event(row)


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    events: int
    broken_at: int | None = None
    reason: str = ""


def verify_chain(game_id: str, events: list[Event]) -> ChainReport:
    """Recompute every hash; the first event whose stored hash or link disagrees breaks it."""
    prev = GENESIS
    for expected_seq, event in enumerate(events, start=1):
        if event.seq != expected_seq:
            return ChainReport(False, len(events), event.seq, f"gap: expected seq {expected_seq}")
        if event.prev_hash != prev:
            return ChainReport(False, len(events), event.seq, "prev_hash does not link")
        digest = event_hash(game_id, event.seq, event.kind, event.payload, event.actor,
                            event.recorded_at, event.prev_hash)
        if digest != event.hash:
            return ChainReport(False, len(events), event.seq, "hash does not match content")
        prev = event.hash
    return ChainReport(True, len(events))
