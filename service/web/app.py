"""The Flask application factory and the services it wires together."""
from __future__ import annotations

import logging
from datetime import datetime
from typing import Callable

from flask import Flask

from service.web import request_checks
from service.core import redaction
from service.core.config import ROOT, Settings, from_env, mail_warning
from service.store.db import Database
from service.mail.dispatch import CeleryDispatcher, InlineDispatcher
from service.web.json_response import JSONResponses
from service.application.services import Services, utc_now
from service.web.extensions import csrf, install, limiter

def create_app(settings: Settings | None = None, clock: Callable[[], datetime] = utc_now,
               upgrade: bool = False) -> Flask:
    settings = settings or from_env()
    app = Flask(__name__, template_folder=str(ROOT / "templates"),
                static_folder=str(ROOT / "service" / "static"))
    app.json = JSONResponses(app)
    app.config.update(
        SECRET_KEY=settings.secret_key,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=settings.base_url.startswith("https://"),
        WTF_CSRF_TIME_LIMIT=None,
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    db = Database(settings.database_url)
    if upgrade:
        db.upgrade()
    chasqui = Services(settings, db, clock, dispatch=None)
    if settings.embedded_tasks:
        chasqui.dispatch = InlineDispatcher(chasqui.deliver, chasqui.deliver_post)
    else:
        chasqui.dispatch = CeleryDispatcher(settings.redis_url, settings.queue)
    install(app, chasqui)
    csrf.init_app(app)
    app.config.setdefault("RATELIMIT_STORAGE_URI", settings.redis_url or "memory://")
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    from service.web import limits
    limits.init_app(app, settings)  # default limit, 429 page, security headers
    limiter.init_app(app)
    request_checks.init_app(app)  # NUL in a path or query, JSON nested too deep: 400
    _register(app, settings)
    logging.basicConfig(level=logging.INFO)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    redaction.install()  # no seat secret in the access log or any other line
    return app


def _register(app: Flask, settings: Settings) -> None:
    from service.web import api
    from service.view import presentations
    from service.web import cli
    from service.web import pages
    from service.web import play
    from service.web import verify_pages
    presentations.init_app(app)  # each game's pictures and choices for templates
    from service.web.errors import page_errors

    page_errors(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(play.bp)
    from service.web import notes
    app.register_blueprint(notes.bp)  # a seat's private notes, on its play page only
    from service.web import channel
    app.register_blueprint(channel.bp)  # a game's chat channel: its webhooks
    from service.web import vacation
    app.register_blueprint(vacation.bp)
    from service.web import timeout_order
    app.register_blueprint(timeout_order.bp)  # a player's "let a bot decide" for their seat
    from service.web import rollback_consent
    app.register_blueprint(rollback_consent.bp)  # a seat's answer to a proposed rollback
    from service.web import zones
    app.register_blueprint(zones.bp)
    app.jinja_env.globals["zone_choices"] = zones.COMMON
    from service.view import bot_levels
    app.jinja_env.globals["bot_level_choices"] = bot_levels.choices()  # every bot-level select
    from service.web import planning
    app.register_blueprint(planning.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    verify_pages.init_app(app, csrf)  # finished games' records and /verify (fair play)
    from service.web import openapi
    app.register_blueprint(openapi.bp)  # GET /api/openapi.json
    if settings.serves_mailbox:  # fails closed: see Settings.serves_mailbox
        from service.web import mailbox
        app.register_blueprint(mailbox.bp)
    elif mail_warning(settings):
        logging.getLogger("chasqui").warning(mail_warning(settings))
    app.cli.add_command(cli.group)
    _register_admin(app)
    _register_mail(app)
    _register_accounts(app)


def _register_admin(app: Flask) -> None:
    """Admin pages (CSRF via CSRFProtect) and the admin JSON API (checks CSRF
    itself for cookie logins, so that Bearer-token callers need no CSRF token)."""
    from service.web import admin_api
    from service.web import seat_offer_pages
    from service.web import admin_pages as admin_views
    app.register_blueprint(admin_views.bp)
    app.register_blueprint(admin_api.bp)
    csrf.exempt(admin_api.bp)
    app.register_blueprint(seat_offer_pages.bp)  # a newcomer answers an offer of a seat


def _register_mail(app: Flask) -> None:
    """Languages (Flask-Babel), mail replies (webhook, CSRF-exempt: authorised by
    CHASQUI_INBOUND_TOKEN), table talk, my games + one-click unsubscribe (the unsubscribe
    blueprint alone is CSRF-exempt: authorised by its signed token), spectators, rematch."""
    from service.web import languages
    from service.web import mailpages
    from service.web import rematch
    from service.web import spectate
    from service.web import talk
    from service.web import inbound_webhook as webhook
    from service.mail import kinds
    from service.view import punctuation
    languages.init_app(app)
    punctuation.init_app(app)  # the marks that join translated parts, per language
    app.jinja_env.globals["mail_kind"] = kinds.label  # a mail's kind named on pages
    app.register_blueprint(webhook.bp)
    csrf.exempt(webhook.bp)
    talk.init_app(app)
    mailpages.init_app(app, csrf)
    spectate.init_app(app)
    from service.web import feeds
    app.register_blueprint(feeds.bp)  # calendars and Atom feeds by link
    app.register_blueprint(rematch.bp)
    from service.web import history_pages
    app.register_blueprint(history_pages.bp)  # a game's story, and its check at once


def _register_accounts(app: Flask) -> None:
    """Sign in by mail, organisers' pages, invitation landing pages, the lobby."""
    from service.web import invitation_pages
    from service.web import lobby
    from service.web import organiser
    from service.web import signin
    from service.web import visitor
    for blueprint in (signin.bp, organiser.bp, invitation_pages.bp, lobby.bp):
        app.register_blueprint(blueprint)
    visitor.init_app(app)  # every page's header: who is signed in
