"""Migration 0016_consent: a rematch row names the pending game its players are invited to
(``pending_id``) and has no new game until it starts (``new_game_id`` nullable), on SQLite
and PostgreSQL; a downgrade restores the old table."""
from __future__ import annotations

from sqlalchemy import inspect

from tests.service.test_migration_one_deadline import engine, migrate  # noqa: F401  (fixture)


def rematch_columns(engine) -> dict[str, bool]:
    """Each column of ``rematches`` and whether it may be empty."""
    return {c["name"]: c["nullable"] for c in inspect(engine).get_columns("rematches")}


def test_a_rematch_row_can_name_a_pending_game_and_no_new_game_yet(engine):
    from alembic import command

    migrate(engine, command.upgrade, "heads")
    assert rematch_columns(engine)["pending_id"] is True
    assert rematch_columns(engine)["new_game_id"] is True
    migrate(engine, command.downgrade, "0016_consent-1")
    assert "pending_id" not in rematch_columns(engine)
    assert rematch_columns(engine)["new_game_id"] is False
