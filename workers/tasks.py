"""Tasks: deliver one outbox row; sweep rows whose task was lost (crash, broker outage)."""
from __future__ import annotations

from service import deadlines, digest
from service.accounts import mailer as account_mail
from service.delivery import due_ids
from workers.celery_app import app, flask_app


def _services():
    return flask_app.extensions["chasqui"]


@app.task(name="chasqui.deliver")
def deliver(outbox_id: int) -> str:
    with flask_app.app_context():
        return _services().deliver(outbox_id)


@app.task(name="chasqui.sweep_outbox")
def sweep_outbox() -> int:
    svc = _services()
    ids = due_ids(svc.db, svc.clock())
    for outbox_id in ids:
        deliver.delay(outbox_id)
    account_ids = account_mail.due_ids(svc.db, svc.clock())  # issue 10: mail of no game yet
    for mail_id in account_ids:
        deliver_account_mail.delay(mail_id)
    return len(ids) + len(account_ids)


@app.task(name=account_mail.TASK)
def deliver_account_mail(mail_id: int) -> str:
    """Issue 10: a sign-in link, an invitation or a lobby join confirmation."""
    with flask_app.app_context():
        svc = _services()
        return account_mail.deliver(svc.db, svc.settings, mail_id, svc.clock())


@app.task(name="chasqui.sweep_deadlines")
def sweep_deadlines() -> int:
    """Reminders and timeouts that are due (SKIP LOCKED: several beats never double-fire)."""
    svc = _services()
    ids = deadlines.sweep(svc.db, svc.clock(), svc.settings.mail_domain)
    for outbox_id in ids:
        deliver.delay(outbox_id)
    return len(ids)


@app.task(name="chasqui.send_digests")
def send_digests() -> int:
    """Issue 7: one daily digest per address whose seats are on "digest" and waiting
    (idempotent: the (address, day) row is written once)."""
    svc = _services()
    ids = digest.plan(svc.db, svc.clock(), svc.settings.mail_domain)
    for outbox_id in ids:
        deliver.delay(outbox_id)
    return len(ids)
