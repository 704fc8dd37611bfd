"""The Celery application, made from the same settings as the web app.

The worker holds one Flask app (for templates and config) and runs each task inside its app
context.  Tasks take ids only and are idempotent: the database rows say what is owed."""
from __future__ import annotations

from celery import Celery

from service.app import create_app
from service.config import from_env

settings = from_env()
flask_app = create_app(settings)

app = Celery("chasqui", broker=settings.redis_url or "memory://", include=["workers.tasks"])
app.conf.update(
    task_default_queue=settings.queue,
    task_acks_late=True,               # a killed worker's task is redelivered, not lost
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    broker_connection_retry_on_startup=True,
    broker_transport_options={"visibility_timeout": 300},
    task_ignore_result=True,
    beat_schedule={
        "sweep-outbox": {"task": "chasqui.sweep_outbox", "schedule": 60.0,
                         "options": {"queue": settings.queue}},
        "sweep-deadlines": {"task": "chasqui.sweep_deadlines", "schedule": 60.0,
                            "options": {"queue": settings.queue}},
        # Issue 7: hourly, but an address gets at most one digest per UTC day.
        "send-digests": {"task": "chasqui.send_digests", "schedule": 3600.0,
                         "options": {"queue": settings.queue}},
    },
)
