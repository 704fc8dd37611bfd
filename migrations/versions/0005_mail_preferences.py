"""Mail preferences, inbound mail, daily digests and rematches.

Revision ID: 0005
Revises: 0001
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0001"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "mail_preferences",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("mode", sa.String(10), nullable=False, server_default="every"),
        sa.Column("language", sa.String(10), nullable=True),
        sa.Column("updated_at", TZ, nullable=False),
    )
    op.create_table(
        "inbound_mail",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.String(300), nullable=False, unique=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("from_addr", sa.String(254), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("detail", sa.Text, nullable=False, server_default=""),
        sa.Column("reply_outbox_id", sa.Integer, nullable=True),
        sa.Column("received_at", TZ, nullable=False),
    )
    op.create_index("ix_inbound_mail_reply_outbox_id", "inbound_mail", ["reply_outbox_id"])
    op.create_table(
        "mail_digests",
        sa.Column("address", sa.String(254), primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("games", sa.JSON, nullable=False),
        sa.Column("outbox_id", sa.Integer, nullable=True),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "rematches",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("new_game_id", sa.String(32), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rematches")
    op.drop_table("mail_digests")
    op.drop_index("ix_inbound_mail_reply_outbox_id", table_name="inbound_mail")
    op.drop_table("inbound_mail")
    op.drop_table("mail_preferences")
