"""Rematch: from a finished game's play page a player asks for the same game again
(``service.application.rematches``).  The others are invited by mail and accept or decline;
``GET /play/<secret>/rematch`` shows each player where it stands -- who has answered, their
own invitation while it is open, their seat once it has started -- and lets the one who
asked start it with those who accepted."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext

from engine import IllegalAction
from service.application import rematches
from service.core.refusals import Refusal
from service.mail import mailer
from service.store.db import Duplicate
from service.web.errors import told
from service.web.extensions import services

bp = Blueprint("rematch", __name__, url_prefix="/play")

REFUSED = (IllegalAction, Refusal)  # said on the page, nothing changed


@bp.post("/<secret>/rematch")
def create(secret: str):
    """Ask for the rematch (or find the one asked before) and show where it stands."""
    from service.application.moves import resolve_seat

    svc = services()
    for _attempt in range(2):  # two players at once: the loser of the race finds the winner's
        try:
            with svc.db.unit_of_work() as session:
                game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
                _row, mail_ids = rematches.ask(session, svc.settings, game_id, seat,
                                               request.form.get("contribution"), svc.clock())
            break
        except Duplicate:
            continue
        except REFUSED as error:
            flash(gettext("Not done: %(error)s", error=told(error)), "error")
            return redirect(url_for("play.page", secret=secret), 303)
    else:
        flash(gettext("Not done: try again"), "error")
        return redirect(url_for("play.page", secret=secret), 303)
    if mail_ids:
        mailer.dispatch(svc, mail_ids)
        flash(gettext("Every other player is asked by mail; the rematch starts when they have "
                      "all accepted."), "ok")
    return redirect(url_for("rematch.show", secret=secret), 303)


@bp.get("/<secret>/rematch")
def show(secret: str):
    from service.application.moves import resolve_seat

    svc = services()
    with svc.db.reading() as session:
        game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
        standing = rematches.standing(session, svc.settings, game_id, seat, svc.clock())
    if standing is None:
        return redirect(url_for("play.page", secret=secret), 303)
    if standing.my_new_seat:  # it has started: this player's seat in it
        return redirect(url_for("play.page", secret=standing.my_new_seat), 303)
    return render_template("pages/rematch.html", secret=secret, standing=standing,
                           summary=mailer.game_summary(standing.pending))


@bp.post("/<secret>/rematch/cancel")
def call_off(secret: str):
    """The one who asked calls the rematch off; anyone may ask again afterwards."""
    from service.application.moves import resolve_seat

    svc = services()
    try:
        with svc.db.unit_of_work() as session:
            game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
            rematches.call_off(session, game_id, seat, svc.clock())
    except REFUSED as error:
        flash(gettext("Not done: %(error)s", error=told(error)), "error")
        return redirect(url_for("rematch.show", secret=secret), 303)
    flash(gettext("The rematch was called off; open invitation links no longer work."), "ok")
    return redirect(url_for("play.page", secret=secret), 303)


@bp.post("/<secret>/rematch/start")
def start(secret: str):
    """The one who asked starts the rematch with the players who have accepted."""
    from service.application.moves import resolve_seat

    svc = services()
    try:
        with svc.db.unit_of_work() as session:
            game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
            outcome = rematches.start_now(session, svc.settings, game_id, seat, svc.clock())
    except REFUSED as error:
        flash(gettext("Not done: %(error)s", error=told(error)), "error")
        return redirect(url_for("rematch.show", secret=secret), 303)
    svc.dispatch_owed(outcome.owed)
    flash(gettext("The rematch has started with the players who accepted."), "ok")
    return redirect(url_for("rematch.show", secret=secret), 303)
