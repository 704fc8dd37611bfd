"""Migration 0015_chance: a pending game's sealed secret and an invitation's contribution are
added on SQLite and PostgreSQL, rows from before keep theirs (none), and a downgrade drops
both columns again."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import inspect, text

from tests.service.test_migration_one_deadline import engine, migrate  # noqa: F401  (fixture)

NOW = datetime(2026, 12, 5, 12, 0, tzinfo=timezone.utc)


def columns(engine, table: str) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns(table)}


def test_the_secret_and_the_contribution_columns_come_and_go(engine):
    from alembic import command

    migrate(engine, command.upgrade, "0015_chance-1")
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO accounts (id, email, created_at) VALUES (1, 'o@example.org', :t)"),
            {"t": NOW})
        connection.execute(text(
            "INSERT INTO pending_games (id, organiser_id, organiser_name, game, options, clock, "
            "language, players, seat_order, open, status, created_at, updated_at) VALUES "
            "('p1', 1, 'O', 'incan_gold', '{}', '{}', 'en', 3, 'random', false, 'inviting', "
            ":t, :t)"), {"t": NOW})
    migrate(engine, command.upgrade, "heads")
    assert "secret" in columns(engine, "pending_games")
    assert "contribution" in columns(engine, "invitations")
    with engine.begin() as connection:
        assert connection.execute(text("SELECT secret FROM pending_games")).scalar() is None
    migrate(engine, command.downgrade, "0015_chance-1")
    assert "secret" not in columns(engine, "pending_games")
    assert "contribution" not in columns(engine, "invitations")
    with engine.begin() as connection:
        assert connection.execute(text("SELECT id FROM pending_games")).scalar() == "p1"
