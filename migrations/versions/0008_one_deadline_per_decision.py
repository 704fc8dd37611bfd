"""A seat's open decision keeps one pending deadline row, its next alarm.

Until now each decision had a row for each reminder and one for the timeout.  The sweep now
moves a decision's row on from one alarm to the next, so of the pending rows of a decision
only the earliest is kept; the others are cancelled (the earliest, when it fires, schedules
them again).  Vacation ends are one row each already and are left alone.  Decisions opened
after this revision by processes still running the old code (during a deploy) get the old
rows; the sweep then lets each of those rows fire by itself instead of moving one on
(``deadlines._later_alarms_have_rows``), so each reminder still goes out once.

Downgrade: the code before this revision fires a row once and never moves it on, so every
open decision whose row is a reminder gets its timeout row back (from the seat's clock, the
truth of when the time runs out).  Reminders later than the pending one are not recreated.

Revision ID: 0008
Revises: 0004
Create Date: 2026-11-30
"""
from alembic import op

revision = "0008"
down_revision = "0004"
branch_labels = None
depends_on = None

_PENDING_DECISION = "status = 'pending' AND kind <> 'vacation_end'"


def upgrade() -> None:
    op.execute(f"""
        UPDATE deadlines SET status = 'cancelled'
        WHERE {_PENDING_DECISION} AND EXISTS (
            SELECT 1 FROM deadlines AS earlier
            WHERE earlier.game_id = deadlines.game_id AND earlier.seat = deadlines.seat
              AND earlier.decision_key = deadlines.decision_key
              AND earlier.status = 'pending' AND earlier.kind <> 'vacation_end'
              AND (earlier.due_at < deadlines.due_at
                   OR (earlier.due_at = deadlines.due_at AND earlier.id < deadlines.id)))
    """)


def downgrade() -> None:
    op.execute(f"""
        INSERT INTO deadlines (game_id, seat, kind, decision_key, due_at, status)
        SELECT clocks.game_id, clocks.seat, 'timeout', clocks.decision_key, clocks.due_at, 'pending'
        FROM seat_clocks AS clocks
        WHERE clocks.due_at IS NOT NULL AND clocks.decision_key IS NOT NULL
          AND EXISTS (SELECT 1 FROM deadlines
                      WHERE deadlines.game_id = clocks.game_id AND deadlines.seat = clocks.seat
                        AND deadlines.decision_key = clocks.decision_key AND {_PENDING_DECISION}
                        AND deadlines.kind <> 'timeout')
    """)
