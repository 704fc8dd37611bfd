"""Lists of games: the admin pages' list, every game's id (the chain check) and whether any
game was made yet (the demo's ``--if-empty``)."""
from __future__ import annotations

from typing import Collection

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.store.models import GameRow, PendingGameRow


def admin_games(session: Session, visible: Collection[str] | None, limit: int, status: str = "",
                game: str = "", id_prefix: str = "") -> list[GameRow]:
    """The games an admin's list shows, the most recently changed first.  ``visible``: the
    ids this admin may see, None for a site admin (every game); ``status``, ``game`` and
    ``id_prefix`` narrow the list when given."""
    query = select(GameRow)
    if visible is not None:
        query = query.where(GameRow.id.in_(visible or {""}))  # an empty IN would match nothing too
    if status:
        query = query.where(GameRow.status == status)
    if game:
        query = query.where(GameRow.game == game)
    if id_prefix:
        query = query.where(GameRow.id.startswith(id_prefix, autoescape=True))
    return list(session.scalars(query.order_by(GameRow.updated_at.desc()).limit(limit)))


def all_game_ids(session: Session) -> list[str]:
    """Every started game's id, in id order."""
    return list(session.scalars(select(GameRow.id).order_by(GameRow.id)))


def any_game_made(session: Session) -> bool:
    """Whether a game exists, started or still waiting for its invitations."""
    first = (session.scalars(select(GameRow.id).limit(1)).first()
             or session.scalars(select(PendingGameRow.id).limit(1)).first())
    return first is not None
