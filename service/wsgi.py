"""Entry point for gunicorn and ``flask --app service.wsgi``."""
from service.app import create_app

app = create_app()
