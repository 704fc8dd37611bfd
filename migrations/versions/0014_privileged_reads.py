"""Privileged reads: a site admin's view of a seat, of every move's content, or export of a
running game, kept for its players to see once the game is over.

Append-only, as the events are: on PostgreSQL a trigger function refuses UPDATE and DELETE,
on SQLite two triggers do.  Games that ran before this revision have no rows: reads made
then left no trace.

Revision ID: 0014_privileged_reads
Revises: 0013_webhooks
Create Date: 2026-12-05
"""
import sqlalchemy as sa
from alembic import op

revision = "0014_privileged_reads"
down_revision = "0013_webhooks"
branch_labels = None
depends_on = None

POSTGRES_APPEND_ONLY = """
CREATE OR REPLACE FUNCTION chasqui_privileged_reads_are_kept() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'privileged reads are append-only: % refused on privileged_reads', TG_OP;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER privileged_reads_kept BEFORE UPDATE OR DELETE ON privileged_reads
    FOR EACH ROW EXECUTE FUNCTION chasqui_privileged_reads_are_kept();
"""

SQLITE_APPEND_ONLY = [
    "CREATE TRIGGER privileged_reads_no_update BEFORE UPDATE ON privileged_reads "
    "BEGIN SELECT RAISE(ABORT, 'privileged reads are append-only: UPDATE refused'); END",
    "CREATE TRIGGER privileged_reads_no_delete BEFORE DELETE ON privileged_reads "
    "BEGIN SELECT RAISE(ABORT, 'privileged reads are append-only: DELETE refused'); END",
]


def upgrade() -> None:
    op.create_table(
        "privileged_reads",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("actor", sa.String(80), nullable=False),
        sa.Column("what", sa.String(10), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_privileged_reads_game", "privileged_reads", ["game_id", "id"])
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        op.execute(POSTGRES_APPEND_ONLY)
    elif dialect == "sqlite":
        for statement in SQLITE_APPEND_ONLY:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS privileged_reads_kept ON privileged_reads")
        op.execute("DROP FUNCTION IF EXISTS chasqui_privileged_reads_are_kept()")
    op.drop_index("ix_privileged_reads_game", "privileged_reads")
    op.drop_table("privileged_reads")
