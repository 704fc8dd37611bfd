"""The one place the web room finds what the app factory wired: the shared services, CSRF
protection, the rate limiter and a route's own limit.  Views import these; only ``app.py`` sets them up."""
from __future__ import annotations

from flask import Flask, current_app
from flask_wtf.csrf import CSRFProtect

from service.application.services import Services
from service.web.limits import limiter, own_limit

__all__ = ["csrf", "limiter", "own_limit", "services"]

csrf = CSRFProtect()
KEY = "chasqui"


def services(app: Flask | None = None) -> Services:
    """The services of ``app`` (by default the app handling this request or CLI command)."""
    return (app or current_app).extensions[KEY]


def install(app: Flask, chasqui: Services) -> None:
    app.extensions[KEY] = chasqui
