"""Migration 0010_sealed (fair play): ``events.sealed`` is added on SQLite and PostgreSQL,
existing events keep their rows (and the immutability triggers keep working), and a downgrade
refuses while a game keeps sealed data the older code could not replay without."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from sqlalchemy import inspect, text

from tests.service.test_migration_one_deadline import engine, migrate  # noqa: F401  (fixture)

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=timezone.utc)


def columns(engine) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns("events")}


def add_event(connection, seq: int, sealed: str | None) -> None:
    connection.execute(text(
        "INSERT INTO events (game_id, seq, kind, payload, actor, recorded_at, prev_hash, hash, "
        "sealed) VALUES ('g1', :seq, 'GameCreated', '{}', 'admin', :t, :p, :h, :s)"),
        {"seq": seq, "t": NOW, "p": "0" * 64, "h": f"{seq:064d}", "s": sealed})


def test_sealed_is_added_kept_immutable_and_dropped_only_while_nothing_is_sealed(engine):
    from alembic import command

    migrate(engine, command.upgrade, "heads")
    assert "sealed" in columns(engine)
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO games (id, game, status, head_seq, created_at, updated_at) "
            "VALUES ('g1', 'incan_gold', 'active', 1, :t, :t)"), {"t": NOW})
        add_event(connection, 1, None)
    migrate(engine, command.downgrade, "0010_sealed-1")  # nothing sealed: the column goes
    assert "sealed" not in columns(engine)
    migrate(engine, command.upgrade, "heads")
    with engine.begin() as connection:
        add_event(connection, 2, '{"nonce": "00"}')
    with pytest.raises(Exception, match="immutable"):
        with engine.begin() as connection:
            connection.execute(text("UPDATE events SET sealed = NULL WHERE seq = 2"))
    with pytest.raises(RuntimeError, match="sealed data"):
        migrate(engine, command.downgrade, "0010_sealed-1")
    assert "sealed" in columns(engine)
