"""Delivering outbox rows: at least once, never twice with different content.

A delivery locks its row (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so two workers never send
the same row at once), builds the message, hands it to the transport and marks the row in the
same transaction.  A crash between sending and committing re-sends the identical message with
the identical Message-ID, which receivers dedupe.

Issue 9: a delivery also sends the other due rows of its (game, seq) that it can lock (the other
seats' mails of one event) with the same replay, in the same transaction.  A sibling that meets
a temporary failure is left untouched for its own task; a sibling task that finds its row
locked by such a batch returns "locked-or-missing", and should the batch then leave the row
pending, the sweep (``due_ids``) sends it after the grace, as for any lost task."""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import select

from service import mailkit
from service.db import Database
from service.games import load
from service.mail import build_message, deadlines_for
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


# A delivery also takes the other due rows of the same game and seq (the other seats' mails
# of one event) that no other worker holds: one lock, one replay, one transaction for all of
# them.  Their own tasks then find them sent and return at once.
BATCH_LIMIT = 16


def deliver(db: Database, settings, outbox_id: int, now: datetime, transport=None) -> str:
    """Deliver one row; returns its status afterwards ("sent", "pending", "bounced", ...).
    When it was sent, the due siblings (same game and seq, pending, not locked elsewhere) go
    out in the same transaction: each is sent and marked exactly as its own task would have,
    except that a temporary failure of a sibling leaves it untouched for its own task."""
    transport = transport or transport_for(settings)
    with db.unit_of_work() as session:
        row = session.scalars(
            select(OutboxRow).where(OutboxRow.id == outbox_id).with_for_update(skip_locked=True)
        ).first()
        if row is None:
            return "locked-or-missing"
        if row.status != "pending":
            return row.status
        loaded = load(session, row.game_id, upto=row.seq)
        siblings = [] if row.kind == "digest" else list(session.scalars(
            select(OutboxRow)
            .where(OutboxRow.game_id == row.game_id, OutboxRow.seq == row.seq,
                   OutboxRow.id != row.id, OutboxRow.status == "pending",
                   OutboxRow.kind != "digest", OutboxRow.next_attempt_at <= now)
            .order_by(OutboxRow.id).limit(BATCH_LIMIT)
            .with_for_update(skip_locked=True)))
        rows = [row, *siblings]
        languages = mailkit.languages_for(session, rows)
        deadlines = deadlines_for(session, loaded, rows)
        status = _deliver_row(settings, transport, session, loaded, row, now,
                              languages.get(row.id), deadlines)
        if status != "sent":
            return status
        for sibling in siblings:
            try:
                if _deliver_row(settings, transport, session, loaded, sibling, now,
                                languages.get(sibling.id), deadlines, sibling=True) == "pending":
                    break  # the relay is unwell: leave the rest to their own tasks
            except Exception:  # noqa: BLE001 - a sibling's bug must not undo the rows sent
                log.exception("outbox %s left to its own task", sibling.id)
                break
        return status


def _deliver_row(settings, transport, session, loaded, row: OutboxRow, now: datetime,
                 language: str | None, deadlines: dict, sibling: bool = False) -> str:
    message = build_message(settings, loaded, row, language, deadlines)
    return send_and_record(transport, session, row, message, now, own_attempt=not sibling)


def send_and_record(transport, session, row, message, now: datetime,
                    own_attempt: bool = True) -> str:
    """Send one message and write the outcome on its row (any outbox table with status,
    attempts, next_attempt_at, last_error, sent_at): sent; bounced on 5xx, never retried;
    on a temporary failure retried with backoff until MAX_ATTEMPTS, then failed.  A row sent
    along with another row's delivery (``own_attempt=False``) is left untouched by a temporary
    failure: its own task tries it and counts it."""
    try:
        transport.send(message, session, now)
    except PermanentFailure as error:
        row.attempts += 1
        row.status, row.last_error = "bounced", str(error)[:2000]
        log.warning("%s %s bounced: %s", type(row).__name__, row.id, error)
    except TemporaryFailure as error:
        if not own_attempt:
            log.info("%s %s left to its own task: %s", type(row).__name__, row.id, error)
            return "pending"
        row.attempts += 1
        row.last_error = str(error)[:2000]
        if row.attempts >= MAX_ATTEMPTS:
            row.status = "failed"
        else:
            row.next_attempt_at = now + backoff(row.attempts)
        log.info("%s %s will be retried: %s", type(row).__name__, row.id, error)
    else:
        row.attempts += 1
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
