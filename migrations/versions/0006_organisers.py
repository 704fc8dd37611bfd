"""Organisers and invitations: accounts signed in by mail, magic links, pending
games, invitations, blocks, and the outbox for mail that belongs to no game yet.

Revision ID: 0006
Revises: 0001
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0001"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("name", sa.String(80), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("last_sign_in_at", TZ, nullable=True),
        sa.UniqueConstraint("email", name="uq_accounts_email"),
    )
    op.create_table(
        "sign_in_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("next_path", sa.String(300), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("expires_at", TZ, nullable=False),
        sa.Column("used_at", TZ, nullable=True),
    )
    op.create_index("ix_sign_in_tokens_email", "sign_in_tokens", ["email", "created_at"])
    op.create_table(
        "pending_games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("organiser_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("organiser_name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("clock", sa.JSON, nullable=False),
        sa.Column("language", sa.String(10), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seat_order", sa.String(12), nullable=False),
        sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
    )
    op.create_index("ix_pending_games_organiser", "pending_games", ["organiser_id", "created_at"])
    op.create_index("ix_pending_games_lobby", "pending_games", ["open", "status"])
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("pending_id", sa.String(32), sa.ForeignKey("pending_games.id"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("via", sa.String(12), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("expires_at", TZ, nullable=False),
        sa.Column("responded_at", TZ, nullable=True),
    )
    op.create_index("ix_invitations_pending", "invitations", ["pending_id"])
    op.create_index("ix_invitations_email", "invitations", ["email"])
    op.create_table(
        "invitation_blocks",
        sa.Column("organiser_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("email", sa.String(254), primary_key=True),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "account_outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("ref_id", sa.Integer, nullable=False),
        sa.Column("to_addr", sa.String(254), nullable=False),
        sa.Column("message_id", sa.String(200), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", TZ, nullable=False),
        sa.Column("last_error", sa.Text, nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("sent_at", TZ, nullable=True),
        sa.UniqueConstraint("message_id", name="uq_account_outbox_message_id"),
    )
    op.create_index("ix_account_outbox_due", "account_outbox", ["status", "next_attempt_at"])
    op.create_index("ix_account_outbox_to", "account_outbox", ["to_addr", "kind", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_account_outbox_to", table_name="account_outbox")
    op.drop_index("ix_account_outbox_due", table_name="account_outbox")
    op.drop_table("account_outbox")
    op.drop_table("invitation_blocks")
    op.drop_index("ix_invitations_email", table_name="invitations")
    op.drop_index("ix_invitations_pending", table_name="invitations")
    op.drop_table("invitations")
    op.drop_index("ix_pending_games_lobby", table_name="pending_games")
    op.drop_index("ix_pending_games_organiser", table_name="pending_games")
    op.drop_table("pending_games")
    op.drop_index("ix_sign_in_tokens_email", table_name="sign_in_tokens")
    op.drop_table("sign_in_tokens")
    op.drop_table("accounts")
