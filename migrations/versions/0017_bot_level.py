"""Bot levels: a seat handed to a bot remembers the level it plays at (``seats.bot_level``,
"easy" or "strong").  Rows from before have none, which means "easy", the one bot there was,
so nothing is back-filled.

Revision ID: 0017_bot_level
Revises: 0016_consent
Create Date: 2026-12-05
"""
import sqlalchemy as sa
from alembic import op

revision = "0017_bot_level"
down_revision = "0016_consent"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(10), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot_level")
