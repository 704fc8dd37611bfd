"""Private notes per seat holder, and a game's pace.

``seat_notes`` keeps what a seat's player writes for themself on the play page.  It is not an
event: it is outside the hash chain and the game's record, and nothing but that seat's own
page and JSON answer ever reads it.  A row is keyed by the game, the seat *and* the address
that held the seat when it was written, so a newcomer who takes the seat over never reads the
notes of the player before them.

``pace`` is the organiser's promise of how often the table moves (``service.core.pace``): a
column of the pending game and of the game, NULL for games set up before it existed.

Revision ID: 0011_notes
Revises: 0010_sealed
Create Date: 2026-12-03
"""
import sqlalchemy as sa
from alembic import op

revision = "0011_notes"
down_revision = "0010_sealed"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seat_notes",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("holder", sa.String(254), primary_key=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.add_column("pending_games", sa.Column("pace", sa.String(10), nullable=True))
    op.add_column("games", sa.Column("pace", sa.String(10), nullable=True))


def downgrade() -> None:
    op.drop_column("games", "pace")
    op.drop_column("pending_games", "pace")
    op.drop_table("seat_notes")
