"""Admins: accounts, per-game admins, and bot seats.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "admins",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("is_site_admin", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", TZ, nullable=False),
        sa.UniqueConstraint("email", name="uq_admins_email"),
    )
    op.create_table(
        "game_admins",
        sa.Column("admin_id", sa.Integer, sa.ForeignKey("admins.id"), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_game_admins_game", "game_admins", ["game_id"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot")
    op.drop_index("ix_game_admins_game", table_name="game_admins")
    op.drop_table("game_admins")
    op.drop_table("admins")
