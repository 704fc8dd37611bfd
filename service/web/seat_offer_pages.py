"""The newcomer's side of a seat offer: ``/seat-offer/<token>`` shows the game, the seat, who
offered it and two buttons; accepting and declining are CSRF-protected POSTs, so a mail
scanner that follows the link decides nothing (``seat_offers`` says why offers exist)."""
from __future__ import annotations

from flask import Blueprint, render_template, request

from engine import GAMES
from service.mail import mailer
from service.application import admin_commands as commands
from service.application import seat_offers
from service.store.organisers import organiser_of
from service.view.actors import actor_name, opening
from service.web.extensions import own_limit, services
from service.web.errors import told
from service.store.seats import game_seats
from service.store.models import GameRow

bp = Blueprint("seat_offer", __name__, url_prefix="/seat-offer")

ANSWER_LIMIT = "30 per minute"


@bp.errorhandler(seat_offers.OfferRefused)
def _refused(error: seat_offers.OfferRefused):
    return render_template("pages/error.html", title="Seat offer", message=told(error)), error.status


def _summary(session, offer) -> dict:
    """What the page says about the offer: public facts of the game only."""
    game = session.get(GameRow, offer.game_id)
    players = [s.name for s in game_seats(session, offer.game_id)]
    return {"offer": offer, "title": GAMES[game.game].title if game.game in GAMES else game.game,
            "status": game.status, "players": players,
            "by": opening(actor_name(offer.offered_by, players, organiser_of(session, offer.game_id)))}


@bp.get("/<token>")
def landing(token: str):
    """Shows the offer with its buttons; a GET answers nothing."""
    svc = services()
    with svc.db.reading() as session:
        offer = seat_offers.read_link(session, svc.settings.secret_key, token)
        context = _summary(session, offer)
        state = seat_offers.state_of(offer, svc.clock())
    return render_template("admin/seat_offer.html", token=token, state=state, **context)


@bp.post("/<token>/accept")
@own_limit(ANSWER_LIMIT)
def accept(token: str):
    svc = services()
    with svc.db.unit_of_work() as session:
        offer, outcome, notices = commands.accept_seat_offer(
            session, svc.settings.secret_key, token, svc.clock(), svc.settings.mail_domain,
            share=request.form.get("contribution"))
        context = _summary(session, offer)
    svc.dispatch_owed(outcome.owed)  # the seat's view and links, to the newcomer only
    mailer.dispatch(svc, notices)     # the replaced player is told
    return render_template("admin/seat_offer_answered.html", accepted=True, **context)


@bp.post("/<token>/decline")
@own_limit(ANSWER_LIMIT)
def decline(token: str):
    svc = services()
    now = svc.clock()
    with svc.db.unit_of_work() as session:
        offer = seat_offers.read_link(session, svc.settings.secret_key, token)
        seat_offers.usable(offer, now)
        seat_offers.answer(session, offer, "declined", now)
        context = _summary(session, offer)
    return render_template("admin/seat_offer_answered.html", accepted=False, **context)
