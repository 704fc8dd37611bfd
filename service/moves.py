"""Seat-authorised commands: resolve a secret, run the command in one unit of work, dispatch."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.app import Services
from service.games import Loaded, Outcome, load, submit_move
from service.models import GameRow, SeatRow
from service.tokens import BadSecret, nonce_matches, read_secret


def resolve_seat(session: Session, secret_key: str, secret: str) -> tuple[str, int]:
    """Check signature and nonce; a revoked or forged secret is refused the same way."""
    game_id, seat, _seats, _game_row = _resolve(session, secret_key, secret)
    return game_id, seat


def _resolve(session: Session, secret_key: str,
             secret: str) -> tuple[str, int, list[SeatRow], GameRow | None]:
    """``resolve_seat`` that also reads, in the same query, all the game's seats and its row,
    which the load needs: two round trips fewer per request.  The caller keeps the game row
    referenced until it loads (the session's identity map holds rows only weakly), so that
    ``load``'s ``session.get`` finds it without a query."""
    game_id, seat, nonce = read_secret(secret_key, secret)
    rows = session.execute(
        select(SeatRow, GameRow).join(GameRow, GameRow.id == SeatRow.game_id)
        .where(SeatRow.game_id == game_id).order_by(SeatRow.seat)).all()
    seats = [seat_row for seat_row, _game_row in rows]
    row = seats[seat] if 0 <= seat < len(seats) and seats[seat].seat == seat else None
    if row is None or not nonce_matches(row.nonce, nonce):
        raise BadSecret("this link is no longer valid (the seat was reassigned or revoked)")
    return game_id, seat, seats, rows[0][1]


def load_for_secret(session: Session, svc: Services, secret: str) -> tuple[Loaded, int]:
    game_id, seat, seats, game_row = _resolve(session, svc.settings.secret_key, secret)
    loaded = load(session, game_id, seats=seats)  # game_row, still referenced: no query
    return loaded, seat


def make_move(svc: Services, secret: str, action, seq) -> Outcome:
    with svc.db.unit_of_work() as session:
        game_id, seat, seats, game_row = _resolve(session, svc.settings.secret_key, secret)
        outcome = submit_move(session, game_id, seat, action, seq, f"seat:{seat}",
                              svc.clock(), svc.settings.mail_domain, seats=seats)
        del game_row  # referenced until submit_move's load found it in the session
    svc.dispatch(outcome.outbox_ids)
    return outcome
