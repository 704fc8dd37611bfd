"""Join the private notes and pace revision with the private feeds revision: two schema
changes made side by side, each with its own tables, so the join changes nothing.

Revision ID: 0012_joined
Revises: 0011_notes, 0011_feeds
"""
revision = "0012_joined"
down_revision = ("0011_notes", "0011_feeds")
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
