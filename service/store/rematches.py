"""Which finished game a rematch came from, and the rematch a finished game has: the
``rematches`` rows, one per finished game whose players were asked to play again."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.store.models import RematchRow


def rematch_of(session: Session, game_id: str) -> RematchRow | None:
    """The rematch a finished game's players were asked to (None: nobody asked yet)."""
    return session.get(RematchRow, game_id)


def rematched_game(session: Session, pending_id: str) -> str | None:
    """The finished game a pending game is the rematch of (None: an organiser's own game)."""
    return session.scalars(select(RematchRow.game_id)
                           .where(RematchRow.pending_id == pending_id)).first()
