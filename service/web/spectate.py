"""Spectators: a public link per game, ``/watch/<token>`` (the game id signed with
the service key), showing the ``seat=None`` view: what every seat may see, no secret, no
action, no player's link."""
from __future__ import annotations

from flask import Blueprint, render_template
from itsdangerous import BadSignature

from engine.text import phrase
from service.store.loading import NotFound, load
from service.view.presenter import seat_context
from service.view.privileged_reads import after_the_end
from service.core.tokens import SPECTATE_SALT, serializer, spectate_token
from service.web.extensions import services

bp = Blueprint("spectate", __name__, url_prefix="/watch")


def read_spectate_token(secret_key: str, token: str) -> str:
    try:
        game_id = serializer(secret_key, SPECTATE_SALT).loads(token)
    except BadSignature:
        raise NotFound(phrase("no such game (the link is forged or mistyped)")) from None
    if not isinstance(game_id, str):
        raise NotFound(phrase("no such game"))
    return game_id


def spectate_url(game_id: str) -> str:
    """Jinja global: the public link of a game (the play page shows it)."""
    settings = services().settings
    return f"{settings.base_url}/watch/{spectate_token(settings.secret_key, game_id)}"


def init_app(app) -> None:
    app.jinja_env.globals["spectate_url"] = spectate_url
    app.register_blueprint(bp)



def watched(token: str):
    """The game a spectator token names, loaded (404 for a forged or mistyped token)."""
    with services().db.reading() as session:
        return _game_watched(session, token)


def _game_watched(session, token: str):
    """``watched`` in a session the caller keeps open, to read more of the game in it."""
    return load(session, read_spectate_token(services().settings.secret_key, token))


@bp.get("/<token>")
def watch(token: str):
    svc = services()
    with svc.db.reading() as session:
        loaded = _game_watched(session, token)
        admin_reads = after_the_end(session, loaded)
    context = seat_context(svc.settings, loaded, None)
    context["privileged_reads"] = admin_reads
    assert not context["actions"] and context["play_url"] is None  # nothing of any seat's
    return render_template("pages/spectate.html", **context)
