"""Tasks: deliver the outbox rows of one dispatch; sweep rows whose task was lost (crash,
broker outage)."""
from __future__ import annotations

from service.application import deadlines

from service.mail import delivery

from service.mail import digest
from service.mail import webhook_delivery
from service.mail import mailer as account_mail
from service.mail.delivery import due_ids
from service.mail.dispatch import batches
from workers.celery_app import app, flask_app
from service.web.extensions import services


def _services():
    return services(flask_app)


@app.task(name="chasqui.deliver")
def deliver(outbox_id: int) -> str:
    """One row (and the due rows of its (game, seq) with it): the sweep's task, and tasks
    queued before ``deliver_many`` existed."""
    with flask_app.app_context():
        return _services().deliver(outbox_id)


@app.task(name="chasqui.deliver_many")
def deliver_many(outbox_ids: list[int]) -> str:
    """The rows of one dispatch (service/mail/dispatch.py), in one transaction."""
    with flask_app.app_context():
        svc = _services()
        statuses = delivery.deliver_many(svc.db, svc.settings, outbox_ids, svc.clock(),
                                         svc.transport)
    counts: dict[str, int] = {}
    for status in statuses.values():
        counts[status] = counts.get(status, 0) + 1
    return ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))


@app.task(name="chasqui.deliver_webhooks")
def deliver_webhooks(post_ids: list[int]) -> str:
    """The webhook posts of one commit (service/mail/webhook_delivery.py), one by one."""
    with flask_app.app_context():
        svc = _services()
        return ", ".join(svc.deliver_post(int(post_id)) for post_id in post_ids)


def _queue_batches(outbox_ids: list[int], post_ids: tuple[int, ...] | list[int] = ()) -> None:
    """Mail in batches (``chasqui.deliver_many``), the webhook posts in one task."""
    for batch in batches(outbox_ids):
        deliver_many.delay(batch)
    if post_ids:
        deliver_webhooks.delay(list(post_ids))


@app.task(name="chasqui.sweep_outbox")
def sweep_outbox() -> int:
    """Rows still pending after the grace: their task was lost (a broker outage, a killed
    worker) or they wait out a backoff.  Each gets a task of its own, as before batching: this
    is the path that recovers from a crash, and a row that kills its worker every time must
    not hold back the rows listed after it (each task sends its own row first, then the due
    rows of its (game, seq), so one event's mails still go out together)."""
    svc = _services()
    ids = due_ids(svc.db, svc.clock())
    for outbox_id in ids:
        deliver.delay(outbox_id)
    account_ids = account_mail.due_ids(svc.db, svc.clock())  # mail of no game yet
    for mail_id in account_ids:
        deliver_account_mail.delay(mail_id)
    post_ids = webhook_delivery.due_ids(svc.db, svc.clock())  # webhook posts and their retries
    for post_id in post_ids:
        deliver_webhooks.delay([post_id])
    return len(ids) + len(account_ids) + len(post_ids)


@app.task(name=account_mail.TASK)
def deliver_account_mail(mail_id: int) -> str:
    """A sign-in link, an invitation or a lobby join confirmation."""
    with flask_app.app_context():
        svc = _services()
        return account_mail.deliver(svc.db, svc.settings, mail_id, svc.clock())


@app.task(name="chasqui.sweep_deadlines")
def sweep_deadlines() -> int:
    """Reminders and timeouts that are due (SKIP LOCKED: several beats never double-fire);
    their mails go in batches, as a move's do."""
    svc = _services()
    owed = deadlines.sweep(svc.db, svc.clock(), svc.settings.mail_domain)
    _queue_batches(owed.mail, owed.posts)
    return len(owed.mail) + len(owed.posts)


@app.task(name="chasqui.send_digests")
def send_digests() -> int:
    """One daily digest per address whose seats are on "digest" and waiting
    (idempotent: the (address, day) row is written once)."""
    svc = _services()
    ids = digest.plan(svc.db, svc.clock(), svc.settings.mail_domain)
    _queue_batches(ids)
    return len(ids)
