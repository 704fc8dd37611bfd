"""The consent page of a rollback that waits for every seated player: the seat's own link
(``/play/<secret>/rollback/<proposal>``) shows who proposes going back where and why, and its
form records the seat's answer (the rules: ``service.application.rollback_consent``).  A GET
shows and changes nothing."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext

from engine import IllegalAction
from service.application import rollback_consent
from service.application.moves import resolve_seat
from service.store.loading import load
from service.view.notices import notice_for
from service.store.events import Conflict
from service.view.i18n import N_
from service.web.errors import told
from service.web.extensions import services

bp = Blueprint("rollback_consent", __name__, url_prefix="/play")


@bp.errorhandler(IllegalAction)
def _no_such_proposal(error):
    return render_template("pages/error.html", title=N_("Not accepted"), message=told(error)), 400


@bp.errorhandler(Conflict)
def _closed(error):
    """A proposal closed by what happened since (or already answered): nothing was changed."""
    return render_template("pages/error.html", title=N_("The game moved on"),
                           message=told(error)), 409


@bp.get("/<secret>/rollback/<int:proposal>")
def page(secret: str, proposal: int):
    svc = services()
    with svc.db.reading() as session:
        game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
        loaded = load(session, game_id)
        _proposed, consents = rollback_consent.open_proposal(loaded, proposal)
        notice = notice_for(loaded, "rollback_proposed", seat)
    return render_template("pages/rollback_consent.html", secret=secret, proposal=proposal,
                           notice=notice, agreed=seat in consents, seat_name=loaded.seats[seat].name)


@bp.post("/<secret>/rollback/<int:proposal>")
def answer(secret: str, proposal: int):
    """The seat's answer (a CSRF-protected POST): ``agree`` is "1" or "0"."""
    svc = services()
    agree = request.form.get("agree") == "1"
    with svc.db.unit_of_work() as session:
        game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
        outcome = rollback_consent.answer(session, game_id, proposal, seat, agree, svc.clock(),
                                          svc.settings.mail_domain)
    svc.dispatch_owed(outcome.owed)
    flash(gettext("You agreed to the rollback.") if agree
          else gettext("You declined the rollback: the game goes on as it is."), "ok")
    return redirect(url_for("play.page", secret=secret), 303)
