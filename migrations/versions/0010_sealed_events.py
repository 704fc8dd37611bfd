"""Fair play: each event keeps its secrets in a ``sealed`` column, outside its payload.

From this revision on, an event's hash covers a random per-event nonce, and a new game's seed
and salt are kept out of its GameCreated payload (which publishes a commitment instead); both
live in ``events.sealed`` (JSON, NULL for the events written before, schema version 1, whose
hashes and seeds keep working as they were).  Adding a nullable column changes no existing
row, so the events' immutability triggers stay as they are.

Downgrade: the code before this revision reads a game's seed from its GameCreated payload, so
a game started after the upgrade could not be replayed by it.  The downgrade therefore refuses
while any event has sealed data; drop those games first (or export them) if you must go back.

Revision ID: 0010_sealed
Revises: 0009_seat_offers
Create Date: 2026-12-02
"""
import sqlalchemy as sa
from alembic import op

revision = "0010_sealed"
down_revision = "0009_seat_offers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("events", sa.Column("sealed", sa.JSON(), nullable=True))


def downgrade() -> None:
    sealed = op.get_bind().execute(
        sa.text("SELECT count(*) FROM events WHERE sealed IS NOT NULL")).scalar()
    if sealed:
        raise RuntimeError(f"{sealed} events keep sealed data (games started after fair play); "
                           "the older code cannot replay them, so the downgrade stops here")
    op.drop_column("events", "sealed")
