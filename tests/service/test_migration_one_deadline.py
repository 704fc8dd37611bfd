"""Migration 0008: a decision's three pending deadline rows become one, its earliest
alarm, which the sweep moves on; a downgrade gives the older code its timeout rows back.
Run on SQLite and on PostgreSQL, the two databases the service runs on."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

from service.store.db import ROOT
from tests.services_available import fresh_postgres_database

START = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
HOUR = timedelta(hours=1)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.integration)])
def engine(request, tmp_path):
    if request.param == "sqlite":
        yield create_engine(f"sqlite:///{tmp_path / 'migrate.db'}")
        return
    url, drop = fresh_postgres_database()
    engine = create_engine(url)
    yield engine
    engine.dispose()
    drop()


def migrate(engine, step, target: str) -> None:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        step(config, target)


def pending(engine) -> list[tuple]:
    with engine.connect() as connection:
        return sorted(tuple(row) for row in connection.execute(text(
            "SELECT seat, kind, decision_key FROM deadlines WHERE status = 'pending'")))


def test_each_open_decision_keeps_its_earliest_alarm_and_a_vacation_end_stays(engine):
    migrate(engine, command.upgrade, "heads")
    migrate(engine, command.downgrade, "0008-1")
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO games (id, game, status, head_seq, created_at, updated_at) "
            "VALUES ('g1', 'incan_gold', 'active', 1, :t, :t)"), {"t": START})
        rows = [(0, "timeout", "k0", START + 48 * HOUR), (0, "reminder:24", "k0", START + 24 * HOUR),
                (0, "reminder:2", "k0", START + 46 * HOUR), (1, "timeout", "k1", START + HOUR),
                (2, "vacation_end", "vacation", START + 5 * HOUR)]
        for seat, kind, key, due in rows:
            connection.execute(text(
                "INSERT INTO deadlines (game_id, seat, kind, decision_key, due_at, status) "
                "VALUES ('g1', :seat, :kind, :key, :due, 'pending')"),
                {"seat": seat, "kind": kind, "key": key, "due": due})
        connection.execute(text(
            "INSERT INTO seat_clocks (game_id, seat, bank_seconds, decision_key, started_at, due_at, "
            "vacation_used_seconds) VALUES ('g1', 0, 0, 'k0', :t, :due, 0)"),
            {"t": START, "due": START + 48 * HOUR})
    migrate(engine, command.upgrade, "heads")
    assert pending(engine) == [(0, "reminder:24", "k0"), (1, "timeout", "k1"),
                               (2, "vacation_end", "vacation")]
    migrate(engine, command.downgrade, "0008-1")
    assert pending(engine) == [(0, "reminder:24", "k0"), (0, "timeout", "k0"), (1, "timeout", "k1"),
                               (2, "vacation_end", "vacation")]
