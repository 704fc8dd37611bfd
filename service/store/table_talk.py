"""What table talk reads back (``service.application.talk``): a game's newest
``MessagePosted`` events."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.store.models import EventRow


def newest_messages(session: Session, game_id: str, upto: int | None,
                    limit: int) -> list[EventRow]:
    """The game's ``limit`` newest messages (up to seq ``upto`` when given), newest first."""
    query = (select(EventRow).where(EventRow.game_id == game_id, EventRow.kind == "MessagePosted")
             .order_by(EventRow.seq.desc()).limit(limit))
    if upto is not None:
        query = query.where(EventRow.seq <= upto)
    return list(session.scalars(query))
