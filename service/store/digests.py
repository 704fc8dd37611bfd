"""The daily digests' rows (``mail_digests``): who is owed one, what one lists, and writing
today's with its outbox row, once per (address, day)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.store.db import Duplicate
from service.store.models import DigestRow, MailPreferenceRow, OutboxRow, SeatRow


def digest_addresses(session: Session) -> list[str]:
    """The addresses (lower case, sorted) with a seat that chose digest mail."""
    return sorted(set(session.scalars(
        select(func.lower(SeatRow.email))
        .join(MailPreferenceRow, (MailPreferenceRow.game_id == SeatRow.game_id)
              & (MailPreferenceRow.seat == SeatRow.seat))
        .where(MailPreferenceRow.mode == "digest"))))


def digest_of(session: Session, outbox_id: int) -> DigestRow | None:
    """The digest an outbox row sends: the games (game, seat, seq) it fixed when planned."""
    return session.scalars(select(DigestRow).where(DigestRow.outbox_id == outbox_id)).first()


def add_digest(session: Session, outbox: OutboxRow, address: str, day: str, now: datetime,
               games: list[dict]) -> bool:
    """Write the digest mail ``outbox`` and its (address, day) row listing ``games``, in a
    savepoint: False, with neither written, when another beat wrote that day's digest first
    (its key, or the outbox row's Message-ID, is taken)."""
    try:
        with session.begin_nested():
            session.add(outbox)
            session.flush()
            session.add(DigestRow(address=address, day=day, outbox_id=outbox.id,
                                  created_at=now, games=games))
            session.flush()
    except Duplicate:
        return False
    return True
