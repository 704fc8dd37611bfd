"""Seat offers (a replacement waits for the newcomer to accept) and session generations
(signing out or a new password ends every session of the account on the server).

``seat_offers``: one row per offer of a running game's seat to a new person; nothing of the
game changes until the newcomer accepts.  ``accounts.session_generation`` and
``admins.session_generation``: every session cookie carries the generation it was made in and
is refused once the row's generation counted up.  Cookies made before this revision carry
none, so everyone signs in once more after the upgrade.

Downgrade drops the table and the columns (open offers are lost; the seats were never changed
by them).

Revision ID: 0009_seat_offers
Revises: 0008
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0009_seat_offers"
down_revision = "0008"
branch_labels = None
depends_on = ("0002", "0006")  # admins and accounts get a column

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "seat_offers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("previous_name", sa.String(80), nullable=False),
        sa.Column("previous_email", sa.String(254), nullable=False),
        sa.Column("offered_by", sa.String(80), nullable=False),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("expires_at", TZ, nullable=False),
        sa.Column("responded_at", TZ, nullable=True),
    )
    op.create_index("ix_seat_offers_game_seat", "seat_offers", ["game_id", "seat", "status"])
    for table in ("accounts", "admins"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("session_generation", sa.Integer, nullable=False,
                                       server_default="0"))


def downgrade() -> None:
    for table in ("admins", "accounts"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("session_generation")
    op.drop_index("ix_seat_offers_game_seat", table_name="seat_offers")
    op.drop_table("seat_offers")
