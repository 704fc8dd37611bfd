"""Seat-authorised commands: resolve a secret, run the command in one unit of work, dispatch."""
from __future__ import annotations

from datetime import timedelta
from typing import NamedTuple

from engine.text import phrase
from service.application.services import Services
from service.store.loading import Loaded, load
from service.application.games import Outcome, StaleMove, submit_move
from service.store.db import Session
from service.store.events import Conflict
from service.store.move_reads import seats_read
from service.store.timekeeping import Clock
from service.core.tokens import BadSecret, nonce_matches, read_secret


def resolve_seat(session: Session, secret_key: str, secret: str) -> tuple[str, int]:
    """Check signature and nonce; a revoked or forged secret is refused the same way."""
    found = _resolve(session, secret_key, secret)
    return found.game_id, found.seat


class Resolved(NamedTuple):
    """A secret's seat and what a command on its game reads first, in one query."""
    game_id: str
    seat: int
    seats: list
    game_row: object
    clocks: dict[int, Clock]     # timekeeping.read_clocks
    modes: dict[int, str]        # seat -> turn-mail mode, for the seats that chose one


def _resolve(session: Session, secret_key: str, secret: str) -> Resolved:
    """``resolve_seat`` that also reads, in the same query (``move_reads.seats_read``), all
    the game's seats, its row, the seat clocks and the turn-mail modes, which the command
    needs: four round trips fewer per move.  The caller keeps the game row referenced until it loads (the session's identity map
    holds rows only weakly), so that ``load``'s ``session.get`` finds it without a query."""
    game_id, seat, nonce = read_secret(secret_key, secret)
    read = seats_read(session, game_id)
    seats = read.seats
    row = seats[seat] if 0 <= seat < len(seats) and seats[seat].seat == seat else None
    if row is None or not nonce_matches(row.nonce, nonce):
        raise BadSecret(phrase("this link is no longer valid (the seat was reassigned or revoked)"))
    return Resolved(game_id, seat, seats, read.game_row, read.clocks, read.modes)


def load_for_secret(session: Session, svc: Services, secret: str) -> tuple[Loaded, int]:
    found = _resolve(session, svc.settings.secret_key, secret)
    loaded = load(session, found.game_id, seats=found.seats)
    return loaded, found.seat


def make_move(svc: Services, secret: str, action, seq, on_page: bool = False) -> Outcome:
    """A seat's move, in one unit of work: the query that checks the secret (``_resolve``),
    the load's one read of the events, and the command's one write (``move_writes``).
    ``on_page``: made on the play page, which shows the seat what its move opens next, so the
    seat's mail about that waits (``page_wait``).

    A move that loses the race for the next seq to another command (``store.Conflict``, not a
    ``StaleMove``) is judged again on the new head: in a simultaneous decision, players who
    press at the same instant each answered what is still true, and ``is_fresh`` takes a choice
    on a state only others changed since.  A double click or a move overtaken by a new
    decision is then refused as stale, as it would have been had it come second."""
    for attempt in range(RACES_RETRIED + 1):
        try:
            outcome = _attempt(svc, secret, action, seq, page_wait(svc) if on_page else None)
            break
        except StaleMove:
            raise
        except Conflict:
            if attempt == RACES_RETRIED:
                raise
    svc.dispatch_owed(outcome.owed)
    return outcome


# Each retry follows a command that did commit, so this bounds only a pathological pile-up:
# Incan Gold's eight players all choosing at one instant lose at most seven races.
RACES_RETRIED = 8


def page_wait(svc: Services) -> timedelta:
    """How long a seat's mail about a decision its own move on the page opened waits
    (``CHASQUI_TURN_MAIL_WAIT``): long enough to answer on the page, short enough that a
    player who left is still told soon."""
    return timedelta(seconds=svc.settings.turn_mail_wait)


def _attempt(svc: Services, secret: str, action, seq, on_page: timedelta | None) -> Outcome:
    """``found`` stays referenced until ``submit_move``'s load has found its game row in the
    session (the identity map holds rows only weakly)."""
    with svc.db.unit_of_work() as session:
        found = _resolve(session, svc.settings.secret_key, secret)
        return submit_move(session, found.game_id, found.seat, action, seq, f"seat:{found.seat}",
                           svc.clock(), svc.settings.mail_domain, seats=found.seats,
                           clocks=found.clocks, modes=found.modes, on_page=on_page)
