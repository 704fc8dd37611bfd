"""A player's record over their last games, for whoever decides whom to play with: how many
moves they made themselves, how often their time ran out, how many vacations they took, and
how their games ended.

Computed from the events each time it is asked for (a projection of nothing stored: the
events are the truth), keyed by the address that holds the seat (``SeatRow.email``, the
same normalised key as accounts and invitations).  Pages show it beside a player's *name*
only; the address never leaves this module.

What counts, per game, for the seat's present holder only (the events since the seat's last
``SeatReplaced``, so a newcomer neither inherits nor escapes another's record):

- ``in_time``: the seat's own moves (``MoveMade`` with actor ``seat:<n>``: the page, the API, a
  reply by mail).  A decision that is not answered by its deadline times out
  (``TurnTimedOut``), so each move a player made themself was made in time; a step of a
  multi-step turn counts once per step;
- ``timeouts``: the seat's ``TurnTimedOut`` events;
- ``vacations``: the seat's ``VacationStarted`` events (taken by hand or started by itself when
  time ran out);
- ``finished`` / ``abandoned``: the game's status (``GameRow.status``)."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.store.models import EventRow, GameRow, SeatRow

LAST_GAMES = 10
COUNTED_KINDS = ("MoveMade", "TurnTimedOut", "VacationStarted", "SeatReplaced")


@dataclass(frozen=True)
class Record:
    games: int = 0
    in_time: int = 0
    timeouts: int = 0
    vacations: int = 0
    finished: int = 0
    abandoned: int = 0


@dataclass
class _Seat:
    game_id: str
    seat: int
    status: str
    in_time: int = 0
    timeouts: int = 0
    vacations: int = 0


def records(session: Session, addresses: Iterable[str],
            last: int = LAST_GAMES) -> dict[str, Record]:
    """Each address's record over its ``last`` most recent games (an address with no game
    gets an empty ``Record``).  Two queries whatever the number of addresses."""
    wanted = sorted(set(addresses))
    if not wanted:
        return {}
    seats = _recent_seats(session, wanted, last)
    _count_events(session, [s for held in seats.values() for s in held])
    return {address: _total(seats.get(address, [])) for address in wanted}


def _recent_seats(session: Session, addresses: list[str], last: int) -> dict[str, list[_Seat]]:
    rows = session.execute(
        select(SeatRow.email, SeatRow.game_id, SeatRow.seat, GameRow.status)
        .join(GameRow, GameRow.id == SeatRow.game_id)
        .where(SeatRow.email.in_(addresses))
        .order_by(SeatRow.email, GameRow.created_at.desc(), GameRow.id))
    seats: dict[str, list[_Seat]] = defaultdict(list)
    for email, game_id, seat, status in rows:
        if len(seats[email]) < last:
            seats[email].append(_Seat(game_id, seat, status))
    return seats


def _count_events(session: Session, seats: list[_Seat]) -> None:
    """Fill in each seat's counts from its game's events (oldest first), starting over at
    each ``SeatReplaced`` of that seat: only the present holder's part counts."""
    by_game: dict[str, list[_Seat]] = defaultdict(list)
    for seat in seats:
        by_game[seat.game_id].append(seat)
    if not by_game:
        return
    events = session.execute(
        select(EventRow.game_id, EventRow.kind, EventRow.payload, EventRow.actor)
        .where(EventRow.game_id.in_(sorted(by_game)), EventRow.kind.in_(COUNTED_KINDS))
        .order_by(EventRow.game_id, EventRow.seq))
    for game_id, kind, payload, actor in events:
        for seat in by_game[game_id]:
            if payload.get("seat") == seat.seat:
                _count(seat, kind, actor)


def _count(seat: _Seat, kind: str, actor: str) -> None:
    if kind == "SeatReplaced":
        seat.in_time = seat.timeouts = seat.vacations = 0
    elif kind == "MoveMade" and actor == f"seat:{seat.seat}":
        seat.in_time += 1
    elif kind == "TurnTimedOut":
        seat.timeouts += 1
    elif kind == "VacationStarted":
        seat.vacations += 1


def _total(seats: list[_Seat]) -> Record:
    return Record(games=len(seats), in_time=sum(s.in_time for s in seats),
                  timeouts=sum(s.timeouts for s in seats),
                  vacations=sum(s.vacations for s in seats),
                  finished=sum(s.status == "finished" for s in seats),
                  abandoned=sum(s.status == "abandoned" for s in seats))
