"""Tasks: deliver one outbox row; sweep rows whose task was lost (crash, broker outage)."""
from __future__ import annotations

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
    return len(ids)
