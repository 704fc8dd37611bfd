"""A player's private feeds: their calendar of deadlines and their games' news, by secret link.

A player is their mail address across games (as "my games" finds them: ``preferences.seats_of``).
A link is ``tokens.feed_token``: the seat it was made from and the address's nonce for that
kind of feed, signed.  The nonce is derived from the address (a signature of it) until the
player asks for a new link, which stores a random one (``renew``): every link made with the
old nonce is then refused.  Deriving the first nonce means a page can show a link without
writing anything (a GET never writes); deriving it from the address, not just the seat, means
a link made from a seat that later changes hands is refused rather than showing the seat's
new player's games.

Reading a link answers with the address it belongs to, or None; the calendar's rows are read
here too (``open_decisions``), straight from the deadline rows, so the calendar says what the
reminders and timeouts will do."""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from itsdangerous import Signer
from sqlalchemy import select, tuple_
from sqlalchemy.orm import Session

from service.core.tokens import (CALENDAR_SALT, PLAYER_FEED_SALT, feed_token, nonce_matches,
                                 read_feed_token)
from service.store.events import utc
from service.store.models import (DeadlineRow, EventRow, GameRow, PrivateFeedRow, SeatClockRow,
                                  SeatRow)
from service.store.preferences import normal_address, seats_of
from service.store.timekeeping import clock_of, timeout_of

KINDS = {"calendar": CALENDAR_SALT, "feed": PLAYER_FEED_SALT}
DERIVED_NONCE_SALT = "chasqui-private-feed-nonce-v1"


def derived_nonce(secret_key: str, address: str, kind: str) -> str:
    """The nonce of an address that never asked for a new link: a pure function of the key,
    the address and the kind, unguessable without the key."""
    return Signer(secret_key, salt=f"{DERIVED_NONCE_SALT}:{kind}").get_signature(
        normal_address(address)).decode()


def nonce_of(session: Session, secret_key: str, address: str, kind: str) -> str:
    row = session.get(PrivateFeedRow, (normal_address(address), kind))
    return row.nonce if row is not None else derived_nonce(secret_key, address, kind)


def link_token(session: Session, secret_key: str, seat: SeatRow, kind: str) -> str:
    """The seat's player's current link of ``kind`` (reads, never writes)."""
    nonce = nonce_of(session, secret_key, seat.email, kind)
    return feed_token(secret_key, KINDS[kind], seat.game_id, seat.seat, nonce)


def owner_of(session: Session, secret_key: str, kind: str, token: str) -> str | None:
    """The address whose ``kind`` link this is, while it is that address's current link."""
    found = read_feed_token(secret_key, KINDS[kind], token)
    if found is None:
        return None
    game_id, seat_number, nonce = found
    seat = session.get(SeatRow, (game_id, seat_number))
    if seat is None or not nonce_matches(nonce_of(session, secret_key, seat.email, kind), nonce):
        return None
    return normal_address(seat.email)


def renew(session: Session, address: str, kind: str, now: datetime) -> None:
    """A new random nonce for the address's ``kind`` links: every older link stops working."""
    key = (normal_address(address), kind)
    row = session.get(PrivateFeedRow, key)
    if row is None:
        row = PrivateFeedRow(email=key[0], kind=kind)
        session.add(row)
    row.nonce, row.updated_at = secrets.token_urlsafe(16), now


def feed_id(secret_key: str, address: str) -> str:
    """A stable, opaque name for the address's games feed (its Atom id), which a new link
    does not change: a feed reader that is given the new link keeps the feed it had."""
    return hashlib.sha256(derived_nonce(secret_key, address, "feed-id").encode()).hexdigest()[:24]


@dataclass(frozen=True)
class OpenDecision:
    """One open decision of the player's, as the calendar shows it."""
    game_id: str
    game: str                   # the registry name
    seat: int
    players: tuple[str, ...]
    decision_key: str
    started_at: datetime
    due_at: datetime            # the timeout
    reminder_hours: tuple[float, ...]


def open_decisions(session: Session, address: str) -> list[OpenDecision]:
    """The address's open decisions with a running clock, soonest first: each seat's pending
    deadline row (a reminder's row tells its timeout: ``timekeeping.timeout_of``).  A seat on
    vacation has no such row (its clock is stopped), so it has no deadline to show."""
    seats = {(s.game_id, s.seat): s for s in seats_of(session, address)}
    if not seats:
        return []
    rows = session.execute(
        select(DeadlineRow, SeatClockRow.started_at, GameRow.game)
        .join(SeatClockRow, (SeatClockRow.game_id == DeadlineRow.game_id)
              & (SeatClockRow.seat == DeadlineRow.seat)
              & (SeatClockRow.decision_key == DeadlineRow.decision_key))
        .join(GameRow, GameRow.id == DeadlineRow.game_id)
        .where(DeadlineRow.status == "pending", DeadlineRow.kind != "vacation_end",
               GameRow.status == "active",
               tuple_(DeadlineRow.game_id, DeadlineRow.seat).in_(sorted(seats)))).all()
    games = sorted({row.game_id for row, _, _ in rows})
    created = {e.game_id: e.payload for e in session.scalars(
        select(EventRow).where(EventRow.game_id.in_(games), EventRow.seq == 1))} if games else {}
    names: dict[str, list[str]] = {}
    for seat in session.scalars(select(SeatRow).where(SeatRow.game_id.in_(games))
                                .order_by(SeatRow.game_id, SeatRow.seat)) if games else ():
        names.setdefault(seat.game_id, []).append(seat.name)
    found = [OpenDecision(row.game_id, game, row.seat, tuple(names.get(row.game_id, ())),
                          row.decision_key, utc(started or row.due_at),
                          utc(timeout_of(row.kind, row.due_at)),
                          clock_of(created.get(row.game_id, {})).reminder_hours)
             for row, started, game in rows]
    return sorted(found, key=lambda d: (d.due_at, d.game_id, d.seat))
