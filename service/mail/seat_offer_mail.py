"""The mail of a seat offer: the invitation to the newcomer, and the two plain notices to the
player in the seat (when the seat is offered, when it is taken).  The notices carry no private
view: the game, the seat, who offered it, to whom."""
from __future__ import annotations

from engine import GAMES
from service.core import row_links
from engine.text import render
from service.store.db import Session
from service.store.events import utc
from service.store.models import GameRow, SeatOfferRow
from service.store.organisers import organiser_of
from service.store.seats import game_seats
from service.view.actors import actor_name, opening

INVITE, OFFERED, TAKEN = "seat_invite", "seat_offered", "seat_taken"
MAIL_KINDS = (INVITE, OFFERED, TAKEN)


def mail_parts(session: Session, settings, kind: str, offer_id: int) -> dict | None:
    """Subject, template, recipient's name and the template's context of a seat-offer mail;
    None when the invitation's offer ended before its mail went out (it is not sent).  The
    notices carry no private view: the game, the seat, who offered it, to whom."""
    offer = session.get(SeatOfferRow, offer_id)
    if offer is None or (kind == INVITE and offer.status != "pending"):
        return None
    game = session.get(GameRow, offer.game_id)
    title = GAMES[game.game].title if game.game in GAMES else game.game
    players = [s.name for s in game_seats(session, offer.game_id)]
    by = actor_name(offer.offered_by, players, organiser_of(session, offer.game_id))
    context = {"offer": offer, "game_id": offer.game_id, "title": title, "players": players,
               "by": opening(by), "by_inline": by, "kind": kind,
               "expires": utc(offer.expires_at).strftime("%a %d %b %Y %H:%M UTC")}
    if kind == INVITE:
        link = row_links.token(settings.secret_key, row_links.SEAT_OFFER_SALT, offer)
        context["link"] = f"{settings.base_url}/seat-offer/{link}"
        return {"subject": f"[Chasqui] {render(context['by'])} offers you a seat in {title}",
                "template": "seat_invite", "name": offer.name, "context": context}
    subject = (f"[Chasqui] Your seat in {title} was offered to {offer.name}" if kind == OFFERED
               else f"[Chasqui] {offer.name} took over your seat in {title}")
    return {"subject": subject, "template": "seat_notice", "name": offer.previous_name,
            "context": context}
