"""The Celery application, made from the same settings as the web app.

The worker holds one Flask app (for templates and config) and runs each task inside its app
context.  Tasks take ids only and are idempotent: the database rows say what is owed."""
from __future__ import annotations

import gc

from celery import Celery, signals

from service.web.app import create_app
from service.core import redaction
from service.core.config import settings_or_exit

settings = settings_or_exit()  # a setting that cannot work: one line, exit 2
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
        # Hourly, but an address gets at most one digest per UTC day.
        "send-digests": {"task": "chasqui.send_digests", "schedule": 3600.0,
                         "options": {"queue": settings.queue}},
    },
)


def settle_heap(**_) -> None:
    """Load what every mail uses, then move the whole heap out of the collector's sight.

    The worker holds a large, permanent heap (the Flask app, SQLAlchemy's mappers, compiled
    templates, the email package) and each mail makes many short-lived container objects, so
    CPython's cyclic collector runs often, and each full collection walked that whole heap:
    about a sixth of a mail's CPU in-process.  ``gc.freeze()`` leaves those objects
    alone for good; objects made afterwards, by the tasks, are collected as before.  The
    mail templates and catalogs are loaded first so that they are part of the frozen heap."""
    env = flask_app.jinja_env  # every mail's templates: the turn mail's and the digest's
    for name in env.list_templates(filter_func=lambda n: n.startswith(("mail/", "games/"))):
        env.get_template(name)
    try:
        from flask_babel import force_locale, get_translations

        from service.store.preferences import LANGUAGES
        with flask_app.app_context():
            for language in LANGUAGES:
                with force_locale(language):
                    get_translations()
    except ImportError:  # pragma: no cover - Babel is optional for the worker
        pass
    gc.collect()
    gc.freeze()


# --pool=solo (and threads): the worker's own process, once it is ready; prefork: each child.
signals.worker_ready.connect(settle_heap, weak=False)
signals.worker_process_init.connect(settle_heap, weak=False)


def redact_secrets(logger=None, **_) -> None:
    """Celery sets up its own handlers after the app is made: the redacting filter goes on
    them too (``service.core.redaction``), so no worker line carries a seat secret."""
    redaction.install(*([logger] if logger is not None else []))
    for handler in getattr(logger, "handlers", []):
        if redaction.REDACTOR not in handler.filters:
            handler.addFilter(redaction.REDACTOR)


signals.after_setup_logger.connect(redact_secrets, weak=False)
signals.after_setup_task_logger.connect(redact_secrets, weak=False)
