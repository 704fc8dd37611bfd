"""Issue 5 on PostgreSQL: several sweepers at once never fire a deadline twice
(SELECT … FOR UPDATE SKIP LOCKED), not even a decision's row that a reminder moved on to the
next alarm, and a timeout racing another is retried, not lost."""
from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta

import pytest
from sqlalchemy import select

from service import deadlines
from service.games import create_game
from service.models import DeadlineRow, EventRow, OutboxRow

pytestmark = pytest.mark.integration


def test_concurrent_sweepers_fire_each_deadline_exactly_once(app):
    svc = app.extensions["chasqui"]
    now = svc.clock()
    game_ids = []
    with svc.db.unit_of_work() as session:
        for g in range(6):
            players = [{"name": f"P{i}", "email": f"g{g}p{i}@example.org"} for i in range(5)]
            game_id, _ = create_game(session, "incan_gold", players, g, {}, "admin", now,
                                     "chasqui.it", clock={"vacation_days": 0})
            game_ids.append(game_id)
    barrier = threading.Barrier(4)
    errors = []

    def sweeper(at):
        barrier.wait()
        try:
            with app.app_context():
                deadlines.sweep(svc.db, at, "chasqui.it", batch=7)
        except Exception as error:  # noqa: BLE001
            errors.append(error)

    # the 24 h reminders, the 2 h reminders (the same rows, moved on), then the timeouts
    for hours in (25, 47, 49):
        threads = [threading.Thread(target=sweeper, args=(now + timedelta(hours=hours),))
                   for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
    later = now + timedelta(hours=49)
    with app.app_context():
        deadlines.sweep(svc.db, later, "chasqui.it")  # picks up any timeout that lost a seq race
    with svc.db.reading() as session:
        reminders = Counter(session.scalars(select(OutboxRow.message_id).where(
            OutboxRow.kind.like("reminder%"))).all())
        pending = session.scalars(select(DeadlineRow).where(
            DeadlineRow.status == "pending", DeadlineRow.due_at <= later)).all()
        timeouts = session.scalars(select(EventRow).where(EventRow.kind == "TurnTimedOut")).all()
    assert len(reminders) == 6 * 5 * 2 and set(reminders.values()) == {1}
    assert pending == []
    per_seat = Counter((e.game_id, e.payload["seat"]) for e in timeouts)
    assert set(per_seat.values()) == {1}, "one timeout per seat and decision"
    assert len(per_seat) == 30
