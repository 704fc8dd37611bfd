"""Games imported from an export: marked in their own chain by ``GameImported``, the event an
import appends after the copied ones, naming the source record's last hash.  Whoever exported
a game held its seed, so its pages say it was imported (``docs/fairness.md``)."""
from __future__ import annotations

from sqlalchemy import select

from service.store.db import Session
from service.store.models import EventRow

IMPORT_EVENT = "GameImported"


def was_imported(session: Session, game_id: str) -> bool:
    """Whether the game's chain holds its import's mark (a look through the game's own
    events by their key, reading no payload)."""
    return session.scalar(select(EventRow.seq).where(
        EventRow.game_id == game_id, EventRow.kind == IMPORT_EVENT).limit(1)) is not None
