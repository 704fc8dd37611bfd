"""Chance nobody chooses: a pending game keeps the service's secret, committed on its pages
before any player takes a seat, and each invitation keeps the contribution its player gave
on accepting.

``pending_games.secret``: 64 hex digits, sealed like GameCreated's (no page, mail or API reads
it out; only its commitment is shown).  A pending game from before has none and draws one when
it starts, as a game whose seats were all taken at once does.
``invitations.contribution``: ``{"text", "by"}`` as GameCreated lists it, set on acceptance.

Revision ID: 0015_chance
Revises: 0014_privileged_reads
Create Date: 2026-12-05
"""
import sqlalchemy as sa
from alembic import op

revision = "0015_chance"
down_revision = "0014_privileged_reads"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("pending_games", sa.Column("secret", sa.String(64), nullable=True))
    op.add_column("invitations", sa.Column("contribution", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("invitations") as batch:
        batch.drop_column("contribution")
    with op.batch_alter_table("pending_games") as batch:
        batch.drop_column("secret")
