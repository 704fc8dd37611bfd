"""Event store, seats, outbox and the local mailbox.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)

POSTGRES_IMMUTABLE = """
CREATE OR REPLACE FUNCTION chasqui_events_are_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'events are immutable: % refused on events', TG_OP;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER events_immutable BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION chasqui_events_are_immutable();
"""

SQLITE_IMMUTABLE = [
    "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are immutable: UPDATE refused on events'); END",
    "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are immutable: DELETE refused on events'); END",
]


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
        sa.Column("head_seq", sa.Integer, nullable=False),
    )
    op.create_index("ix_games_status_updated", "games", ["status", "updated_at"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("notified_key", sa.String(200), nullable=True),
        sa.Column("decision_seq", sa.Integer, nullable=True),
    )
    op.create_index("ix_seats_email", "seats", ["email"])
    op.create_table(
        "events",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("payload", sa.JSON, nullable=False),
        sa.Column("actor", sa.String(80), nullable=False),
        sa.Column("recorded_at", TZ, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("to_addr", sa.String(254), nullable=False),
        sa.Column("message_id", sa.String(200), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", TZ, nullable=False),
        sa.Column("last_error", sa.Text, nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("sent_at", TZ, nullable=True),
        sa.UniqueConstraint("message_id", name="uq_outbox_message_id"),
    )
    op.create_index("ix_outbox_due", "outbox", ["status", "next_attempt_at"])
    op.create_index("ix_outbox_game_seat", "outbox", ["game_id", "seat"])
    op.create_table(
        "local_mail",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.String(200), nullable=False, unique=True),
        sa.Column("to_addr", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(300), nullable=False),
        sa.Column("raw", sa.Text, nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_local_mail_to_addr", "local_mail", ["to_addr"])
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        op.execute(POSTGRES_IMMUTABLE)
    elif dialect == "sqlite":
        for statement in SQLITE_IMMUTABLE:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS events_immutable ON events")
        op.execute("DROP FUNCTION IF EXISTS chasqui_events_are_immutable()")
    for table in ("local_mail", "outbox", "events", "seats", "games"):
        op.drop_table(table)
