"""Delivering outbox rows: at least once, never twice with different content.

A delivery locks its row (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so two workers never send
the same row at once), builds the message, hands it to the transport and marks the row in the
same transaction.  A crash between sending and committing re-sends the identical message with
the identical Message-ID, which receivers dedupe."""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import select

from service.db import Database
from service.games import load
from service.mail import build_message
from service.models import OutboxRow
from service.transport import LocalMailbox, PermanentFailure, SmtpTransport, TemporaryFailure

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 12
BACKOFF_BASE = timedelta(seconds=30)
BACKOFF_CAP = timedelta(hours=6)


def backoff(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min, … capped at 6 h: a flaky relay is not hammered."""
    return min(BACKOFF_BASE * (2 ** max(attempts - 1, 0)), BACKOFF_CAP)


def transport_for(settings):
    return LocalMailbox() if settings.local_mailbox else SmtpTransport(settings.smtp_url)


def deliver(db: Database, settings, outbox_id: int, now: datetime, transport=None) -> str:
    """Deliver one row; returns its status afterwards ("sent", "pending", "bounced", ...)."""
    transport = transport or transport_for(settings)
    with db.unit_of_work() as session:
        row = session.scalars(
            select(OutboxRow).where(OutboxRow.id == outbox_id).with_for_update(skip_locked=True)
        ).first()
        if row is None:
            return "locked-or-missing"
        if row.status != "pending":
            return row.status
        message = build_message(settings, load(session, row.game_id, upto=row.seq), row)
        row.attempts += 1
        try:
            transport.send(message, session, now)
        except PermanentFailure as error:
            row.status, row.last_error = "bounced", str(error)[:2000]
            log.warning("outbox %s bounced: %s", outbox_id, error)
        except TemporaryFailure as error:
            row.last_error = str(error)[:2000]
            if row.attempts >= MAX_ATTEMPTS:
                row.status = "failed"
            else:
                row.next_attempt_at = now + backoff(row.attempts)
            log.info("outbox %s will be retried: %s", outbox_id, error)
        else:
            row.status, row.sent_at, row.last_error = "sent", now, None
        return row.status


def due_ids(db: Database, now: datetime, grace: timedelta = timedelta(seconds=60),
            limit: int = 200) -> list[int]:
    """Rows still owed whose time has come: the sweep that makes a lost task harmless.
    The grace keeps the sweep from racing the task that was queued right after commit."""
    with db.reading() as session:
        return list(session.scalars(
            select(OutboxRow.id)
            .where(OutboxRow.status == "pending", OutboxRow.next_attempt_at <= now - grace)
            .order_by(OutboxRow.id).limit(limit)))
