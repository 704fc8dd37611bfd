"""Delivering webhook posts from ``webhook_outbox``: at least once, the same body each time.

A delivery locks its row (``SKIP LOCKED``), builds the notice from the game at the row's seq,
checks the URL and its addresses again (``webhook_guard``), posts, and marks the row in the
same transaction, as a mail's delivery does.  A post that fails (no connection, a refused
address, a status that is not 2xx) is retried after ``backoff`` (30 s, 1 min, 2 min, …, at
most 6 h) until ``MAX_ATTEMPTS``, then ``failed``.  Every failed attempt counts against its
hook; ``SWITCH_OFF_AFTER`` failures in a row (with no post taken in between) switch the hook
off: its owed posts are cancelled, and the game's organiser (or, for a game with none, its
admins) is told by mail.  A post that is taken sets the count back to 0.

A crash between the post and the commit posts the same body again (``X-Chasqui-Delivery``
is the same too, so a receiver can drop the second); the row's (hook, seq) key means no
second row is ever written for the same event and hook."""
from __future__ import annotations

import logging
from datetime import datetime

from service.mail import mailer
from service.mail.delivery import backoff
from service.mail.webhook_formats import request
from service.mail.webhook_guard import UnsafeTarget, target
from service.mail.webhook_notice import notice
from service.mail.webhook_transport import PostFailed, post
from service.store import webhooks as hooks
from service.store.db import Database, DatabaseFailure
from service.store.loading import load
from service.store.models import WebhookDeliveryRow, WebhookRow

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8       # one post: 30 s … 32 min apart, about an hour in all
SWITCH_OFF_AFTER = 8   # failed attempts of one hook in a row
MAIL_KIND = "webhook_off"


def deliver(db: Database, settings, post_id: int, now: datetime) -> str:
    """Post one row; its status afterwards ("sent", "pending", "failed", "cancelled", …).
    The mail telling of a hook switched off is delivered after the commit in the embedded
    default; with Redis the beat's sweep sends it."""
    mail_ids: list[int] = []
    try:
        with db.unit_of_work() as session:
            status = _deliver(session, settings, post_id, now, mail_ids)
    except DatabaseFailure:
        raise
    if mail_ids and settings.embedded_tasks:
        for mail_id in mail_ids:
            mailer.deliver(db, settings, mail_id, now)
    return status


def _deliver(session, settings, post_id: int, now: datetime, mail_ids: list[int]) -> str:
    row = hooks.lock_post(session, post_id)
    if row is None:
        return "locked-or-missing"
    if row.status != "pending":
        return row.status
    # Locked: two workers posting to one hook count its failures one after the other.
    hook = session.get(WebhookRow, row.hook_id, with_for_update=True)
    if hook is None or hook.status != "active":
        row.status, row.last_error = "cancelled", "the hook is no longer on"
        return row.status
    try:
        found = target(hook.url, settings.webhook_http_hosts)
        loaded = load(session, row.game_id, upto=row.seq)
        body, headers = request(hook.style, notice(session, settings, loaded, row.first_seq,
                                                   row.topic, hook.language),
                                hook.language, f"{hook.id}-{row.seq}", hook.secret)
        post(found, body, headers)
    except (PostFailed, UnsafeTarget) as error:
        return _failed(session, settings, hook, row, str(error), now, mail_ids)
    except DatabaseFailure:
        raise
    except Exception as error:  # noqa: BLE001 - one post's bug must not stop the others
        log.exception("webhook post %s could not be built or sent", row.id)
        return _failed(session, settings, hook, row,
                       f"{type(error).__name__} (the log has the details)", now, mail_ids)
    row.attempts += 1
    row.status, row.sent_at, row.last_error = "sent", now, None
    hook.failures = 0
    return row.status


def _failed(session, settings, hook: WebhookRow, row: WebhookDeliveryRow, error: str,
            now: datetime, mail_ids: list[int]) -> str:
    row.attempts += 1
    row.last_error = error[:2000]
    hook.failures += 1
    log.info("webhook post %s failed (%s attempts; hook %s: %s in a row): %s", row.id,
             row.attempts, hook.id, hook.failures, error)
    if hook.failures >= SWITCH_OFF_AFTER:
        row.status = "failed"
        _switch_off(session, settings, hook, now, mail_ids)
        return row.status
    if row.attempts >= MAX_ATTEMPTS:
        row.status = "failed"
    else:
        row.next_attempt_at = now + backoff(row.attempts)
    return row.status


def _switch_off(session, settings, hook: WebhookRow, now: datetime, mail_ids: list[int]) -> None:
    """The hook off, its owed posts cancelled, its game's organiser told."""
    hooks.switch_off(session, hook, now)
    session.flush()
    hooks.cancel_owed_posts(
        session, hook.id, f"the hook was switched off after {SWITCH_OFF_AFTER} failures in a row")
    log.warning("webhook %s of game %s switched off after %s failures in a row", hook.id,
                hook.game_id, hook.failures)
    for address in hooks.told_of_switch_off(session, hook.game_id):
        mail_ids.append(mailer.queue(session, MAIL_KIND, hook.id, address, now,
                                     settings.mail_domain).id)


def due_ids(db: Database, now: datetime) -> list[int]:
    with db.reading() as session:
        return hooks.due_ids(session, now)
