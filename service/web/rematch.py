"""Rematch: from a finished game's play page, one POST creates the same game with
the same players, seats rotated by one (the first player moves to the last chair), the same
options and clock, a new seed, and sends the player to their new seat.  A second player
asking for it is sent to that same new game (``rematches`` row)."""
from __future__ import annotations

from datetime import datetime

from flask import Blueprint, flash, redirect, url_for
from flask_babel import gettext

from engine import IllegalAction
from engine.text import phrase
from service.store import preferences
from service.web.errors import told
from service.application.games import Outcome, create_game
from service.store.db import Duplicate, Session
from service.store.loading import load
from service.store.seats import game_seats
from service.store.models import RematchRow
from service.core.tokens import make_secret
from service.web.extensions import services

bp = Blueprint("rematch", __name__, url_prefix="/play")


def rematch(session: Session, game_id: str, now: datetime, domain: str,
            actor: str) -> tuple[str, Outcome]:
    """The rematch of a finished game (created now, or the one created before)."""
    existing = session.get(RematchRow, game_id)
    if existing is not None:
        return existing.new_game_id, Outcome(0)
    loaded = load(session, game_id)
    if loaded.row.status != "finished" or loaded.game.outcome(loaded.state) is None:
        raise IllegalAction(phrase("a rematch can only be asked for when the game is over"))
    start = loaded.first.payload
    rotated = loaded.seats[1:] + loaded.seats[:1]
    options = dict(start.get("options") or {})
    if start.get("mail") is not None:
        options["mail"] = start["mail"]
    new_id, outcome = create_game(session, start["game"],
                                  [{"name": s.name, "email": s.email} for s in rotated],
                                  None, options, actor, now, domain, clock=start.get("clock"),
                                  pace=loaded.row.pace)
    for new_seat, old in enumerate(rotated):
        kept = preferences.preference(session, game_id, old.seat)
        if kept is not None:
            preferences.set_preference(session, new_id, new_seat, now, mode=kept.mode,
                                       language=kept.language)
    session.add(RematchRow(game_id=game_id, new_game_id=new_id, created_at=now))
    session.flush()
    return new_id, outcome


def new_seat_of(seats: int, old_seat: int) -> int:
    return (old_seat - 1) % seats




@bp.post("/<secret>/rematch")
def create(secret: str):
    from service.application.moves import resolve_seat

    svc = services()
    for _attempt in range(2):  # two players at once: the loser of the race finds the winner's
        try:
            with svc.db.unit_of_work() as session:
                game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
                new_id, outcome = rematch(session, game_id, svc.clock(), svc.settings.mail_domain,
                                          f"seat:{seat}")
                seats = game_seats(session, new_id)
                mine = seats[new_seat_of(len(seats), seat)]
                new_secret = make_secret(svc.settings.secret_key, new_id, mine.seat, mine.nonce)
            break
        except Duplicate:
            continue
        except IllegalAction as error:
            flash(gettext("Not done: %(error)s", error=told(error)), "error")
            return redirect(url_for("play.page", secret=secret), 303)
    else:
        flash(gettext("Not done: try again"), "error")
        return redirect(url_for("play.page", secret=secret), 303)
    svc.dispatch_owed(outcome.owed)
    flash(gettext("Rematch! This is your seat in the new game."), "ok")
    return redirect(url_for("play.page", secret=new_secret), 303)
