"""A player's private feed links (calendar, games' news): the nonce that revokes them.

A new table only: no existing row changes, and an address without a row keeps its derived
nonce (``service/store/private_feeds.py``), so links shown before the first revocation work.

Revision ID: 0011_feeds
Revises: 0010_sealed
Create Date: 2026-12-03
"""
import sqlalchemy as sa
from alembic import op

revision = "0011_feeds"
down_revision = "0010_sealed"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "private_feeds",
        sa.Column("email", sa.String(254), primary_key=True),
        sa.Column("kind", sa.String(20), primary_key=True),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("private_feeds")
