"""Site pages that belong to no game."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, send_from_directory

from engine import GAMES
from service.web.extensions import services

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    svc = services()
    games = [(name, GAMES[name].title, GAMES[name].min_players, GAMES[name].max_players)
             for name in GAMES]
    return render_template("pages/index.html", games=games,
                           mailbox=svc.settings.serves_mailbox)


@bp.get("/healthz")
def health():
    return {"ok": True}


@bp.get("/favicon.ico")
def favicon():
    """Browsers and feed readers ask for /favicon.ico whatever a page links (the pages link
    the SVG icon of service/static); the same icon as an ICO, cached for a day."""
    return send_from_directory(current_app.static_folder, "favicon.ico",
                               mimetype="image/vnd.microsoft.icon", max_age=86400)
