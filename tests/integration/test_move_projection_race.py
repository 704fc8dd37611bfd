"""A move reads the seats, clocks and mail modes in the query that checks its secret, before
it reads the events (fewer round trips).  On PostgreSQL (READ COMMITTED) another
move can commit between those two reads; the move must then not act on the older clocks."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select

from service.core.config import from_env
from service.application.games import submit_move
from service.store.models import SeatClockRow
from service.application.moves import _resolve
from tests.conftest import ADMIN_TOKEN, FrozenClock, migrated_app, secret_from_url
from tests.services_available import truncate_all
from service.web.extensions import services


@pytest.fixture
def clock():
    return FrozenClock(datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc))


@pytest.fixture
def app(postgres_url, clock):
    app = migrated_app(from_env({
        "CHASQUI_DATABASE_URL": postgres_url, "CHASQUI_BASE_URL": "http://chasqui.test",
        "CHASQUI_SECRET_KEY": "race-secret", "CHASQUI_ADMIN_TOKEN": ADMIN_TOKEN,
        "CHASQUI_LOCAL_MAILBOX": "on"}),
        clock=clock)
    yield app
    db = services(app).db
    with db.engine.begin() as conn:
        truncate_all(conn)
    db.dispose()


def clocks(db, game_id) -> dict[int, tuple]:
    with db.reading() as session:
        return {c.seat: (c.decision_key, c.bank_seconds, c.due_at) for c in session.scalars(
            select(SeatClockRow).where(SeatClockRow.game_id == game_id))}


def test_a_move_that_read_its_seats_before_another_move_committed_keeps_that_moves_clock(
        app, clock):
    client = app.test_client()
    response = client.post("/api/games", json={
        "game": "incan_gold", "seed": 3,
        "players": [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(4)]},
        headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert response.status_code == 201
    game_id = response.get_json()["id"]
    secrets = [secret_from_url(s["play_url"]) for s in response.get_json()["seats"]]
    svc = services(app)

    with svc.db.unit_of_work() as session:
        found = _resolve(session, svc.settings.secret_key, secrets[0])  # seats and clocks at seq 1
        # meanwhile seat 1 moves and commits: its clock closes with the bank it had left
        clock.advance(timedelta(hours=1))
        other = client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "stay"}, "seq": 1})
        assert other.status_code == 200
        after_other = clocks(svc.db, game_id)
        assert after_other[1][0] is None, "seat 1's decision ended"
        clock.advance(timedelta(hours=5))
        outcome = submit_move(session, found.game_id, found.seat, {"type": "stay"}, 1, "seat:0",
                              clock(), svc.settings.mail_domain, seats=found.seats,
                              clocks=found.clocks, modes=found.modes)
    assert outcome.seq == 3, "seat 0's choice in the same decision still counts"

    final = clocks(svc.db, game_id)
    assert final[1] == after_other[1], "seat 1's clock is as its own move left it (not re-closed)"
    assert final[0][0] is None and final[0][1] == after_other[0][1] - 6 * 3600
