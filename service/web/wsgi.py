"""Entry point for gunicorn and ``flask --app service.web.wsgi``."""
import gc
import sys

from service.core.config import SettingError
from service.web.app import create_app

try:
    app = create_app()
except SettingError as error:  # a setting that cannot work: its one line, not a traceback
    print(f"Error: {error}", file=sys.stderr)
    raise SystemExit(SettingError.EXIT_CODE) from None

# The process's permanent heap (the app, SQLAlchemy's mappers, the compiled statements) is
# moved out of the cyclic collector's sight, as the worker's is (``workers.celery_app``): a
# full collection otherwise walks all of it, a measurable share of a move's CPU.  Objects
# made by requests afterwards are collected as before.
gc.collect()
gc.freeze()
