"""Offers of a running game's seat to a new person: replacing a player by invitation.

Why an offer and not a replacement at once: the seat's mail carries its private view (hidden
hands, tents) and its links.  Sent to an address the moment an admin types it, that view
reaches whoever the admin names -- their own second address included -- and the player in the
seat learns nothing.  So an admin's replacement only makes an offer: the newcomer is mailed a
signed, single-use, expiring link whose page shows the game and one button (a GET never
accepts: mail scanners follow links), and the player in the seat is told.  The game changes
only when the newcomer accepts (``commands.accept_seat_offer``): then ``SeatReplaced`` is
recorded, the seat's links and view are mailed to the newcomer, and the replaced player is
told that their links no longer work.  Until then the old player keeps the seat.

The link is the itsdangerous-signed pair (offer id, nonce), like sign-in links and
invitations: the database alone cannot forge one.  Accepting is a conditional ``UPDATE …
WHERE status = 'pending'`` (of two clicks one wins); expiry is computed against the service
clock, so nothing has to run when an offer expires.  A newer offer for the same seat, or the
seat changing hands, withdraws the older offers."""
from __future__ import annotations

import secrets
from datetime import datetime

from engine.text import phrase
from service.core import row_links
from service.core.addresses import same_person
from service.view.i18n import N_
from service.store.db import Session
from service.store.models import SeatOfferRow, SeatRow
from service.store.seat_offers import answer_pending, pending_offers, withdraw_pending
from service.core.refusals import Refusal
from service.store.events import utc

class OfferRefused(Refusal):
    """An offer link that cannot be used (or no longer can); ``status`` is the HTTP answer."""

    def __init__(self, status: int, message):
        super().__init__(message)
        self.status = status


def same_address(a: str, b: str) -> bool:
    """Whether two addresses reach one person (case and a ``+tag`` fold away)."""
    return same_person(a, b)


def seat_holding(seats: list[SeatRow], address: str, besides: int) -> SeatRow | None:
    """The seat other than ``besides`` that ``address`` holds, if any: no one may take a second
    seat of a game (they would see two private views)."""
    return next((s for s in seats if s.seat != besides and same_address(s.email, address)), None)


# --- the link ---------------------------------------------------------------------------------

def read_link(session: Session, secret_key: str, token: str) -> SeatOfferRow:
    """The offer a link names; forged, mistyped or unknown → 403."""
    return row_links.read(session, SeatOfferRow, secret_key, row_links.SEAT_OFFER_SALT, token,
                          _refused_link)


def _refused_link(forged: bool) -> OfferRefused:
    return OfferRefused(403, N_("This link is not valid (forged or mistyped).") if forged
                        else N_("This link is not valid."))


def state_of(offer: SeatOfferRow, now: datetime) -> str:
    """pending, accepted, declined, withdrawn -- or expired (pending and past its time)."""
    if offer.status == "pending" and utc(offer.expires_at) <= now:
        return "expired"
    return offer.status


def usable(offer: SeatOfferRow, now: datetime) -> None:
    """Refuses (410) an offer that can no longer be answered, saying why."""
    state = state_of(offer, now)
    if state == "expired":
        raise OfferRefused(410, phrase("This offer expired (offers last {days} days); ask the "
                                       "game's admin for a new one.", days=row_links.SEAT_OFFER_LIFETIME.days))
    if state != "pending":
        raise OfferRefused(410, {"accepted": N_("This offer was accepted already."),
                                 "declined": N_("This offer was declined."),
                                 "withdrawn": N_("This offer was withdrawn: the seat was offered "
                                                 "again or changed hands.")}.get(
                                     state, N_("This offer can no longer be answered.")))


def answer(session: Session, offer: SeatOfferRow, status: str, now: datetime) -> None:
    """Mark a pending offer answered; of two answers at once only one changes the row, and the
    other is refused as already answered (410)."""
    if not answer_pending(session, offer.id, status, now):
        raise OfferRefused(410, N_("This offer was answered already."))
    offer.status, offer.responded_at = status, now


# --- making and ending offers ----------------------------------------------------------------

def offer(session: Session, seat_row: SeatRow, name: str, email: str, offered_by: str,
          now: datetime) -> SeatOfferRow:
    """A new pending offer of ``seat_row``'s seat; older pending offers of the seat end."""
    withdraw(session, seat_row.game_id, seat_row.seat, now)
    row = SeatOfferRow(game_id=seat_row.game_id, seat=seat_row.seat, name=name, email=email,
                       previous_name=seat_row.name, previous_email=seat_row.email,
                       offered_by=offered_by, nonce=secrets.token_urlsafe(16), status="pending",
                       created_at=now, expires_at=now + row_links.SEAT_OFFER_LIFETIME)
    session.add(row)
    session.flush()
    return row


def withdraw(session: Session, game_id: str, seat: int, now: datetime,
             keep: int | None = None) -> None:
    """End every pending offer of the seat (but ``keep``): a newer offer, or the seat was
    taken.  Their links answer 410 from now on; an invitation not yet sent is not sent."""
    withdraw_pending(session, game_id, seat, now, keep)


def open_offers(session: Session, game_id: str, now: datetime) -> dict[int, SeatOfferRow]:
    """Per seat, its pending, unexpired offer (for the admin's game page)."""
    return {row.seat: row for row in pending_offers(session, game_id)
            if state_of(row, now) == "pending"}

