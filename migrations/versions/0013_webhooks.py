"""A game's chat channel: its webhooks, the posts owed to them, who may add them.

``games.webhooks`` counts a game's hooks that are on, so a move of a game without any reads
and writes nothing more than before; every existing game starts at 0 (none).

Revision ID: 0013_webhooks
Revises: 0012_joined
Create Date: 2026-12-03
"""
import sqlalchemy as sa
from alembic import op

revision = "0013_webhooks"
down_revision = "0012_joined"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("webhooks", sa.Integer(), nullable=False,
                                     server_default="0"))
    op.create_table(
        "webhooks",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("style", sa.String(10), nullable=False),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("secret", sa.String(64), nullable=True),
        sa.Column("talk", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("language", sa.String(10), nullable=False),
        sa.Column("added_by", sa.String(80), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("switched_off_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_webhooks_game", "webhooks", ["game_id", "status"])
    op.create_table(
        "webhook_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("hook_id", sa.Integer(), sa.ForeignKey("webhooks.id"), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("first_seq", sa.Integer(), nullable=False),
        sa.Column("topic", sa.String(20), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("hook_id", "seq", name="uq_webhook_outbox_hook_seq"),
    )
    op.create_index("ix_webhook_outbox_due", "webhook_outbox", ["status", "next_attempt_at"])
    op.create_table(
        "webhook_policies",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("players_may_add", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("webhook_policies")
    op.drop_index("ix_webhook_outbox_due", "webhook_outbox")
    op.drop_table("webhook_outbox")
    op.drop_index("ix_webhooks_game", "webhooks")
    op.drop_table("webhooks")
    op.drop_column("games", "webhooks")
