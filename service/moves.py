"""Seat-authorised commands: resolve a secret, run the command in one unit of work, dispatch."""
from __future__ import annotations

from sqlalchemy.orm import Session

from service.app import Services
from service.games import Loaded, Outcome, load, submit_move
from service.models import SeatRow
from service.tokens import BadSecret, nonce_matches, read_secret


def resolve_seat(session: Session, secret_key: str, secret: str) -> tuple[str, int]:
    """Check signature and nonce; a revoked or forged secret is refused the same way."""
    game_id, seat, nonce = read_secret(secret_key, secret)
    row = session.get(SeatRow, (game_id, seat))
    if row is None or not nonce_matches(row.nonce, nonce):
        raise BadSecret("this link is no longer valid (the seat was reassigned or revoked)")
    return game_id, seat


def load_for_secret(session: Session, svc: Services, secret: str) -> tuple[Loaded, int]:
    game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
    return load(session, game_id), seat


def make_move(svc: Services, secret: str, action, seq) -> Outcome:
    with svc.db.unit_of_work() as session:
        game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
        outcome = submit_move(session, game_id, seat, action, seq, f"seat:{seat}",
                              svc.clock(), svc.settings.mail_domain)
    svc.dispatch(outcome.outbox_ids)
    return outcome
