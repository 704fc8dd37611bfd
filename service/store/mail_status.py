"""A game's mail as its admin page shows it: per seat, how many outbox rows are in each status
and the latest of them, so an admin sees who is not getting their mail and why."""
from __future__ import annotations

from collections import defaultdict

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.store.models import OutboxRow

LATEST_READ = 200   # the game's newest rows looked at for the per-seat latest
LATEST_PER_SEAT = 5


def mail_status(session: Session, game_id: str) -> dict[int | None, dict]:
    """Per seat: counts by status and the latest rows (sent, bounced, pending with attempts)."""
    summary: dict[int | None, dict] = defaultdict(lambda: {"counts": {}, "latest": []})
    for seat, status, count in session.execute(
            select(OutboxRow.seat, OutboxRow.status, func.count())
            .where(OutboxRow.game_id == game_id).group_by(OutboxRow.seat, OutboxRow.status)):
        summary[seat]["counts"][status] = count
    for row in session.scalars(select(OutboxRow).where(OutboxRow.game_id == game_id)
                               .order_by(OutboxRow.id.desc()).limit(LATEST_READ)):
        if len(summary[row.seat]["latest"]) < LATEST_PER_SEAT:
            summary[row.seat]["latest"].append(row)
    return dict(summary)
