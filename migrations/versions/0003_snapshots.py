"""Snapshots: a cache of replayed states keyed by (game, seq, rules version).

Revision ID: 0003
Revises: 0001
Create Date: 2026-11-29

A cache, not a truth: no foreign key (a snapshot never keeps a game alive, and deleting a
game's rows never has to think of it); a rules-version change simply misses it.
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("rules_version", sa.String(40), primary_key=True),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
