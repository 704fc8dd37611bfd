"""Offers of a running game's seat (``service.application.seat_offers``): answering one,
withdrawing a seat's, and reading a game's.

An offer's state changes only by a conditional ``UPDATE … WHERE status = 'pending'``, so
of two answers given at once exactly one changes the row."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from service.store.models import SeatOfferRow


def answer_pending(session: Session, offer_id: int, status: str, now: datetime) -> bool:
    """Record the answer of a pending offer; False when it was not pending any more (another
    answer, or a withdrawal, came first), and nothing changed."""
    done = session.execute(update(SeatOfferRow).where(
        SeatOfferRow.id == offer_id, SeatOfferRow.status == "pending")
        .values(status=status, responded_at=now))
    return done.rowcount == 1


def withdraw_pending(session: Session, game_id: str, seat: int, now: datetime,
                     keep: int | None = None) -> None:
    """Mark every pending offer of the seat (but ``keep``) withdrawn."""
    query = update(SeatOfferRow).where(SeatOfferRow.game_id == game_id,
                                       SeatOfferRow.seat == seat,
                                       SeatOfferRow.status == "pending")
    if keep is not None:
        query = query.where(SeatOfferRow.id != keep)
    session.execute(query.values(status="withdrawn", responded_at=now))


def pending_offers(session: Session, game_id: str) -> list[SeatOfferRow]:
    """The game's offers still pending (expired ones included: expiry is computed by the
    caller against the service clock), oldest first."""
    return list(session.scalars(select(SeatOfferRow).where(
        SeatOfferRow.game_id == game_id, SeatOfferRow.status == "pending")
        .order_by(SeatOfferRow.id)))
