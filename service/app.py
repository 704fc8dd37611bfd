"""The Flask application factory and the services it wires together."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable

from flask import Flask, current_app
from flask_wtf.csrf import CSRFProtect

from service.config import ROOT, Settings, from_env
from service.db import Database
from service.delivery import deliver
from service.dispatch import CeleryDispatcher, InlineDispatcher

csrf = CSRFProtect()


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Services:
    settings: Settings
    db: Database
    clock: Callable[[], datetime]
    dispatch: Callable

    def deliver(self, outbox_id: int) -> str:
        return deliver(self.db, self.settings, outbox_id, self.clock())


def services() -> Services:
    return current_app.extensions["chasqui"]


def create_app(settings: Settings | None = None, clock: Callable[[], datetime] = utc_now,
               upgrade: bool = False) -> Flask:
    settings = settings or from_env()
    app = Flask(__name__, template_folder=str(ROOT / "templates"),
                static_folder=str(ROOT / "service" / "static"))
    app.config.update(
        SECRET_KEY=settings.secret_key,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=settings.base_url.startswith("https://"),
        WTF_CSRF_TIME_LIMIT=None,
        MAX_CONTENT_LENGTH=64 * 1024,
        JSON_SORT_KEYS=False,
    )
    db = Database(settings.database_url)
    if upgrade:
        db.upgrade()
    chasqui = Services(settings, db, clock, dispatch=None)
    if settings.embedded_tasks:
        chasqui.dispatch = InlineDispatcher(chasqui.deliver)
    else:
        chasqui.dispatch = CeleryDispatcher(settings.redis_url, settings.queue)
    app.extensions["chasqui"] = chasqui
    csrf.init_app(app)
    _register(app, settings)
    logging.basicConfig(level=logging.INFO)
    return app


def _register(app: Flask, settings: Settings) -> None:
    from service import api, cli, pages, play

    app.register_blueprint(pages.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    if settings.local_mailbox:
        from service import mailbox

        app.register_blueprint(mailbox.bp)
    app.cli.add_command(cli.group)
