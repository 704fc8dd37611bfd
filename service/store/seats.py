"""A game's seats: who sits where, read in seat order (``Loaded.seats`` is indexed by seat)."""
from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from service.store.models import GameRow, SeatRow


def game_seats(session: Session, game_id: str) -> list[SeatRow]:
    """The game's seat rows in seat order."""
    return list(session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                                .order_by(SeatRow.seat)))


# On the move path: built once, not per move.
_REREAD = (select(SeatRow, GameRow).join(GameRow, GameRow.id == SeatRow.game_id)
           .where(SeatRow.game_id == bindparam("game_id"))
           .execution_options(populate_existing=True))


def reread_seats_and_game(session: Session, game_id: str) -> None:
    """Refresh the game's loaded seat rows and game row in place (one query), for a move
    whose seats were read before a command committed in between: the objects the caller
    holds take the stored values."""
    session.execute(_REREAD, {"game_id": game_id}).all()
