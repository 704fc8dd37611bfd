"""The move path's one read before the load: a game's seats (whose nonces check a move's
secret), its row, its seat clocks and its turn-mail modes, in one query.

The statement is built once, at import, as ``mail_reads`` and ``move_writes`` build theirs:
a move is the service's hottest command, and reading these four things one at a time cost
four round trips more per move."""
from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import and_, bindparam, select
from sqlalchemy.orm import Session

from service.store.models import GameRow, MailPreferenceRow, SeatClockRow, SeatRow
from service.store.timekeeping import CLOCK_FIELDS, Clock


class SeatsRead(NamedTuple):
    """What a command on a game reads first: empty lists and no row for an unknown game."""
    seats: list[SeatRow]          # in seat order
    game_row: GameRow | None
    clocks: dict[int, Clock]      # as ``timekeeping.read_clocks`` answers
    modes: dict[int, str]         # seat -> turn-mail mode, for the seats that chose one


_CLOCKS, _PREFS = SeatClockRow.__table__, MailPreferenceRow.__table__
_RESOLVE = (
    select(SeatRow, GameRow, _CLOCKS.c.seat.label("clock_seat"),
           *(_CLOCKS.c[name] for name in CLOCK_FIELDS), _PREFS.c.mode)
    .join(GameRow, GameRow.id == SeatRow.game_id)
    .outerjoin(_CLOCKS, and_(_CLOCKS.c.game_id == SeatRow.game_id, _CLOCKS.c.seat == SeatRow.seat))
    .outerjoin(_PREFS, and_(_PREFS.c.game_id == SeatRow.game_id, _PREFS.c.seat == SeatRow.seat))
    .where(SeatRow.game_id == bindparam("game_id")).order_by(SeatRow.seat))


def seats_read(session: Session, game_id: str) -> SeatsRead:
    """The game's seats, row, clocks and modes (see the module's docstring).  The game row is
    loaded into the session: a caller that keeps it referenced until ``load`` lets the load's
    ``session.get`` find it without a query (the identity map holds rows only weakly)."""
    rows = session.execute(_RESOLVE, {"game_id": game_id}).all()
    clocks = {r[2]: Clock(game_id, r[2], *r[3:3 + len(CLOCK_FIELDS)]) for r in rows
              if r[2] is not None}
    modes = {r[0].seat: r[-1] for r in rows if r[-1] is not None}
    return SeatsRead([r[0] for r in rows], rows[0][1] if rows else None, clocks, modes)
