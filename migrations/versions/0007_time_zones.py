"""A player's time zone, per game seat, for deadlines shown in mail and on pages.

Revision ID: 0007
Revises: 0005
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("mail_preferences") as batch:
        batch.add_column(sa.Column("timezone", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("mail_preferences") as batch:
        batch.drop_column("timezone")
