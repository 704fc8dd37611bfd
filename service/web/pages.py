"""Site pages that belong to no game."""
from __future__ import annotations

from flask import Blueprint, render_template

from engine import GAMES
from service.web.extensions import services

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    svc = services()
    games = [(name, GAMES[name].title, GAMES[name].min_players, GAMES[name].max_players)
             for name in GAMES]
    return render_template("pages/index.html", games=games,
                           mailbox=svc.settings.local_mailbox)


@bp.get("/healthz")
def health():
    return {"ok": True}
