"""Entry point for gunicorn and ``flask --app service.web.wsgi``."""
import gc

from service.core.config import settings_or_exit
from service.web.app import create_app

app = create_app(settings_or_exit())  # a setting that cannot work: one line, exit 2

# The process's permanent heap (the app, SQLAlchemy's mappers, the compiled statements) is
# moved out of the cyclic collector's sight, as the worker's is (``workers.celery_app``): a
# full collection otherwise walks all of it, a measurable share of a move's CPU.  Objects
# made by requests afterwards are collected as before.
gc.collect()
gc.freeze()
