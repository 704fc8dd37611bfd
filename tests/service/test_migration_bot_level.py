"""Migration 0017_bot_level: a seat row holds the level its bot plays at (``bot_level``,
empty on rows from before, which play as the easy bot), on SQLite and PostgreSQL; a
downgrade drops it."""
from __future__ import annotations

from sqlalchemy import inspect

from tests.service.test_migration_one_deadline import engine, migrate  # noqa: F401  (fixture)


def seat_columns(engine) -> dict[str, bool]:
    """Each column of ``seats`` and whether it may be empty."""
    return {c["name"]: c["nullable"] for c in inspect(engine).get_columns("seats")}


def test_a_seat_row_may_hold_its_bots_level_and_old_rows_hold_none(engine):
    from alembic import command

    migrate(engine, command.upgrade, "0016_consent")
    assert "bot_level" not in seat_columns(engine)
    migrate(engine, command.upgrade, "heads")
    assert seat_columns(engine)["bot_level"] is True
    migrate(engine, command.downgrade, "0017_bot_level-1")
    assert "bot_level" not in seat_columns(engine)
