"""Privileged reads: what a site admin read, through the service, of a game that still keeps
secrets from its players -- a seat's private view, every move's content in the game's log,
or the export that holds the seed -- kept so that the players learn of it once the game is
over (its record and its finished page list them).

A GET that notes a read writes one row here and nothing else: it changes no game, its chain
or its state, and the row is append-only (the migration's triggers refuse UPDATE and DELETE).
A read of a game that is over and whose seed is revealed is not noted: everything in it is
public by then.  Reads that bypass the service (a query on the database itself) leave no
row; ``docs/fairness.md`` says so."""
from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.store import fairness
from service.store.events import utc
from service.store.loading import Loaded
from service.store.models import PrivilegedReadRow

SEAT_VIEW = "seat"  # a seat's private view, as it was after event ``seq``
LOG = "log"         # the game's log with every move's content, at its head ``seq``
EXPORT = "export"   # the export: every event's sealed data, the seed among them
KINDS = (SEAT_VIEW, LOG, EXPORT)


class PrivilegedRead(NamedTuple):
    actor: str
    what: str
    seat: int | None
    seq: int | None
    read_at: datetime


def keeps_secrets(loaded: Loaded) -> bool:
    """Whether a read of this game is noted: it runs, or it is over but its seed is not yet
    revealed (the reveal is a game's last event, so its first and last events tell)."""
    return not fairness.publishable(loaded.row.status, [loaded.first, loaded.head])


def note(session: Session, head: Loaded, actor: str, what: str, now: datetime,
         seat: int | None = None, seq: int | None = None) -> bool:
    """Note that ``actor`` read ``what`` of the game ``head`` (loaded at its newest event)
    as it was after event ``seq`` (its head when None).  False, and nothing written, when the
    game keeps no secret any more, or when the same admin already read the same thing at the
    same point (a page reloaded tells them nothing new: the first read is when they learned
    it)."""
    if what not in KINDS:
        raise ValueError(f"not a privileged read: {what!r}")
    row = PrivilegedReadRow(game_id=head.row.id, actor=actor, what=what, seat=seat,
                            seq=head.seq if seq is None else seq, read_at=now)
    if not keeps_secrets(head) or _noted_before(session, row):
        return False
    session.add(row)
    session.flush()
    return True


def _noted_before(session: Session, row: PrivilegedReadRow) -> bool:
    same = (PrivilegedReadRow.game_id == row.game_id, PrivilegedReadRow.actor == row.actor,
            PrivilegedReadRow.what == row.what, PrivilegedReadRow.seq == row.seq,
            PrivilegedReadRow.seat.is_(None) if row.seat is None
            else PrivilegedReadRow.seat == row.seat)
    return session.scalar(select(PrivilegedReadRow.id).where(*same).limit(1)) is not None


def of_game(session: Session, game_id: str) -> list[PrivilegedRead]:
    """The game's privileged reads, oldest first."""
    rows = session.scalars(select(PrivilegedReadRow).where(PrivilegedReadRow.game_id == game_id)
                           .order_by(PrivilegedReadRow.id))
    return [PrivilegedRead(r.actor, r.what, r.seat, r.seq, utc(r.read_at)) for r in rows]
