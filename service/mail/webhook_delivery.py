"""Delivering webhook posts from ``webhook_outbox``: at least once, the same body each time.

A delivery claims its row (``SKIP LOCKED``, and its next attempt moved ``CLAIM`` ahead),
builds the notice from the game at the row's seq and checks the URL and its addresses again
(``webhook_guard``) in one short transaction; posts with no transaction open; and records the
outcome in a second one (``deliver``).  A post that fails (no connection, a refused
address, a status that is not 2xx) is retried after ``backoff`` (30 s, 1 min, 2 min, …, at
most 6 h) until ``MAX_ATTEMPTS``, then ``failed``.  Every failed attempt counts against its
hook; ``SWITCH_OFF_AFTER`` failures in a row (with no post taken in between) switch the hook
off: its owed posts are cancelled, and the game's organiser (or, for a game with none, its
admins) is told by mail.  A post that is taken sets the count back to 0.

A crash between the claim and the record posts the same body again once the claim has run
out (``X-Chasqui-Delivery``
is the same too, so a receiver can drop the second); the row's (hook, seq) key means no
second row is ever written for the same event and hook."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from service.mail import mailer
from service.mail.delivery import backoff
from service.mail.webhook_formats import request
from service.mail.webhook_guard import Target, UnsafeTarget, target
from service.mail.webhook_notice import notice
from service.mail.webhook_transport import PostFailed, post
from service.store import webhooks as hooks
from service.store.db import Database, DatabaseFailure
from service.store.events import utc
from service.store.loading import load
from service.store.models import WebhookDeliveryRow, WebhookRow

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8       # one post: 30 s … 32 min apart, about an hour in all
SWITCH_OFF_AFTER = 8   # failed attempts of one hook in a row
MAIL_KIND = "webhook_off"


# How long a claimed post is left to its worker before the sweep may post it again: far
# longer than a post can take (``webhook_transport.TIMEOUT``), so only a worker that died
# mid-post has its row taken over.
CLAIM = timedelta(minutes=5)


@dataclass(frozen=True)
class Claim:
    """A post made ready in the claim's transaction, to be sent after it commits."""
    found: Target
    body: bytes
    headers: dict[str, str]
    attempts: int  # the row's attempts when claimed: the record is this claim's only if unchanged


def deliver(db: Database, settings, post_id: int, now: datetime) -> str:
    """Post one row; its status afterwards ("sent", "pending", "failed", "cancelled", …).

    Three steps, so that no transaction is open while a channel answers (up to
    ``webhook_transport.TIMEOUT``): a short one claims the row (its next attempt moved
    ``CLAIM`` ahead) and builds the body; the post goes out with no database connection
    held; a second short one records the outcome.  In the embedded default a transaction
    holds SQLite's one write lock, so a slow channel would otherwise hold every move back.
    The mail telling of a hook switched off is delivered after the commit in the embedded
    default; with Redis the beat's sweep sends it."""
    mail_ids: list[int] = []
    with db.unit_of_work() as session:
        claim = _claim(session, settings, post_id, now, mail_ids)
    if isinstance(claim, Claim):
        error = _post(post_id, claim)
        with db.unit_of_work() as session:
            status = _record(session, settings, post_id, claim, error, now, mail_ids)
    else:
        status = claim
    if mail_ids and settings.embedded_tasks:
        for mail_id in mail_ids:
            mailer.deliver(db, settings, mail_id, now)
    return status


def _claim(session, settings, post_id: int, now: datetime, mail_ids: list[int]) -> Claim | str:
    """The row claimed and its request built, or its status when there is nothing to post:
    gone or held by another worker, no longer pending, claimed by another worker (or waiting
    for its backoff), its hook off, or a target or body that cannot be made (counted as a
    failed attempt here)."""
    row = hooks.lock_post(session, post_id)
    if row is None:
        return "locked-or-missing"
    if row.status != "pending":
        return row.status
    if utc(row.next_attempt_at) > now:
        return "claimed"
    hook = _locked_hook(session, row)
    if hook is None or hook.status != "active":
        row.status, row.last_error = "cancelled", "the hook is no longer on"
        return row.status
    try:
        found = target(hook.url, settings.webhook_http_hosts)
        loaded = load(session, row.game_id, upto=row.seq)
        body, headers = request(hook.style, notice(session, settings, loaded, row.first_seq,
                                                   row.topic, hook.language),
                                hook.language, f"{hook.id}-{row.seq}", hook.secret)
    except UnsafeTarget as error:
        return _failed(session, settings, hook, row, str(error), now, mail_ids)
    except DatabaseFailure:
        raise
    except Exception as error:  # noqa: BLE001 - one post's bug must not stop the others
        log.exception("webhook post %s could not be built", row.id)
        return _failed(session, settings, hook, row,
                       f"{type(error).__name__} (the log has the details)", now, mail_ids)
    row.next_attempt_at = now + CLAIM
    return Claim(found, body, headers, row.attempts)


def _post(post_id: int, claim: Claim) -> str | None:
    """Send the claimed request; None when the channel took it, else why not."""
    try:
        post(claim.found, claim.body, claim.headers)
    except (PostFailed, UnsafeTarget) as error:
        return str(error)
    except Exception as error:  # noqa: BLE001 - one post's bug must not stop the others
        log.exception("webhook post %s could not be sent", post_id)
        return f"{type(error).__name__} (the log has the details)"
    return None


def _record(session, settings, post_id: int, claim: Claim, error: str | None, now: datetime,
            mail_ids: list[int]) -> str:
    """Write the post's outcome on its row and hook, if the row is still this claim's (a
    worker that outlived ``CLAIM`` may find it taken over, and then leaves it alone)."""
    row = hooks.lock_post(session, post_id, wait=True)
    if row is None:
        return "locked-or-missing"
    if row.status != "pending" or row.attempts != claim.attempts:
        return row.status
    hook = _locked_hook(session, row)
    if hook is None:  # deleted with its game's hooks while the post was out
        return row.status
    if error is not None:
        return _failed(session, settings, hook, row, error, now, mail_ids)
    row.attempts += 1
    row.status, row.sent_at, row.last_error = "sent", now, None
    hook.failures = 0
    return row.status


def _locked_hook(session, row: WebhookDeliveryRow) -> WebhookRow | None:
    """The row's hook, locked: two workers posting to one hook count its failures one after
    the other."""
    return session.get(WebhookRow, row.hook_id, with_for_update=True)


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
