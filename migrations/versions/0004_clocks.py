"""Seat clocks (time banks, vacations) and deadlines (reminders, timeouts) by due time.

Revision ID: 0004
Revises: 0001
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0001"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "seat_clocks",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("bank_seconds", sa.Integer, nullable=False),
        sa.Column("decision_key", sa.String(200), nullable=True),
        sa.Column("started_at", TZ, nullable=True),
        sa.Column("due_at", TZ, nullable=True),
        sa.Column("vacation_since", TZ, nullable=True),
        sa.Column("vacation_used_seconds", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "deadlines",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("decision_key", sa.String(200), nullable=False),
        sa.Column("due_at", TZ, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
    )
    op.create_index("ix_deadlines_due", "deadlines", ["status", "due_at"])
    op.create_index("ix_deadlines_game_seat", "deadlines", ["game_id", "seat", "status"])


def downgrade() -> None:
    op.drop_table("deadlines")
    op.drop_table("seat_clocks")
