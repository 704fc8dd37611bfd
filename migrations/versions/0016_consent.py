"""Rematch by consent: a finished game's rematch is a pending game whose players are invited
and accept, so the ``rematches`` row names that pending game (``pending_id``) and holds no
new game id until it starts.  Rows from before keep the new game they name.

Revision ID: 0016_consent
Revises: 0015_chance
Create Date: 2026-12-05
"""
import sqlalchemy as sa
from alembic import op

revision = "0016_consent"
down_revision = "0015_chance"
branch_labels = None
depends_on = "0005"  # the rematches table; that branch is not an ancestor of this one


def upgrade() -> None:
    with op.batch_alter_table("rematches") as batch:
        batch.add_column(sa.Column("pending_id", sa.String(32), nullable=True))
        batch.alter_column("new_game_id", existing_type=sa.String(32), nullable=True)


def downgrade() -> None:
    op.execute("DELETE FROM rematches WHERE new_game_id IS NULL")
    with op.batch_alter_table("rematches") as batch:
        batch.alter_column("new_game_id", existing_type=sa.String(32), nullable=False)
        batch.drop_column("pending_id")
