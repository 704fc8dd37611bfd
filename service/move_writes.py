"""What one event changes besides itself, written in one PostgreSQL statement (issue 9).

After its event is appended, every command writes the same kinds of projection rows: the
deadlines of the seats whose decision ended are cancelled, the seat clocks that changed are
updated (new ones inserted), the new decisions' deadlines inserted, the seats newly notified
marked, the game row's status and head seq set, and the owed mail put in the outbox.  Issued
one by one that is four to six statements, each a round trip and ~0.15 ms of client CPU
through SQLAlchemy; here they are the data-modifying CTEs of one statement (the outbox insert,
whose ids the caller dispatches, is the main statement).

Why this is the same as the statements one after the other: they all run in the caller's
transaction, and each row is changed by at most one part (one UPDATE per clock and per seat,
INSERTs only of new rows).  PostgreSQL runs all parts against the same snapshot, so the
deadline cancel cannot see the deadlines inserted next to it: exactly the effect of
cancelling first and inserting after, as the separate statements did.  A failing part (a
constraint) fails the whole statement, and the caller's unit of work rolls back as before.

The SQL text is built here, with psycopg placeholders, and sent with ``exec_driver_sql``: the
shape varies with the number of rows of each kind, and building it as a string costs a few
microseconds where SQLAlchemy would compile each shape anew.  psycopg prepares a text on the
server once it has been run five times, and a few shapes cover nearly every move.  SQLite
(the embedded default and most tests) keeps the statements one by one."""
from __future__ import annotations

from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from service.models import SeatClockRow
from service.timekeeping import CLOCK_FIELDS, _sync_objects, sync_cancelled

_CLOCK_SET = ", ".join(f"{name} = %s" for name in CLOCK_FIELDS)
_CLOCK_COLUMNS = "game_id, seat, " + ", ".join(CLOCK_FIELDS)
_CLOCK_ROW = "(" + ", ".join(["%s"] * (2 + len(CLOCK_FIELDS))) + ")"
_DEADLINE_COLUMNS = ("game_id", "seat", "kind", "decision_key", "due_at", "status")
_DEADLINE_ROW = "(" + ", ".join(["%s"] * len(_DEADLINE_COLUMNS)) + ")"
_OUTBOX_COLUMNS = ("game_id", "seat", "kind", "seq", "to_addr", "status", "attempts",
                   "next_attempt_at", "created_at", "message_id")
_OUTBOX_ROW = "(" + ", ".join(["%s"] * len(_OUTBOX_COLUMNS)) + ")"


def supported(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


class Writes:
    """The rows collected for one event of one game; ``execute`` writes them."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.cancel_seats: list[int] = []     # pending deadlines (but vacation_end) cancelled
        self.changed: list = []               # timekeeping.Clock, existing rows
        self.added: list = []                 # timekeeping.Clock, new rows
        self.deadlines: list[dict] = []
        self.notified: list[tuple] = []       # (SeatRow, notified_key, decision_seq)
        self.game: tuple | None = None        # (GameRow, status, head_seq, updated_at)
        self.outbox: list[dict] = []

    def clocks(self, clocks: dict, before: dict, deadlines: list[dict]) -> None:
        """``timekeeping.update_clocks``' rows: the clocks whose values changed, the new ones."""
        self.changed = [c for seat, c in clocks.items()
                        if seat in before and c.values() != before[seat]]
        self.added = [c for seat, c in clocks.items() if seat not in before]
        self.deadlines = deadlines

    def execute(self, session: Session) -> list[int]:
        """One statement; returns the new outbox ids in the order of ``outbox``.  Then the
        session's objects of these rows (the seats, the game row, clock and deadline objects
        a caller holds) take the written values as their loaded state."""
        parts, params = [], []
        game = self.game_id
        if self.cancel_seats:
            parts.append(
                "UPDATE deadlines SET status = 'cancelled' WHERE game_id = %s AND seat IN ("
                + ", ".join(["%s"] * len(self.cancel_seats))
                + ") AND status = 'pending' AND kind <> 'vacation_end'")
            params += [game, *self.cancel_seats]
        for clock in self.changed:
            parts.append(f"UPDATE seat_clocks SET {_CLOCK_SET} WHERE game_id = %s AND seat = %s")
            params += [*clock.values(), game, clock.seat]
        if self.added:
            parts.append(f"INSERT INTO seat_clocks ({_CLOCK_COLUMNS}) VALUES "
                         + ", ".join([_CLOCK_ROW] * len(self.added)))
            for clock in self.added:
                params += [clock.game_id, clock.seat, *clock.values()]
        if self.deadlines:
            parts.append(f"INSERT INTO deadlines ({', '.join(_DEADLINE_COLUMNS)}) VALUES "
                         + ", ".join([_DEADLINE_ROW] * len(self.deadlines)))
            for row in self.deadlines:
                params += [row[name] for name in _DEADLINE_COLUMNS]
        for seat_row, key, decision_seq in self.notified:
            parts.append("UPDATE seats SET notified_key = %s, decision_seq = %s "
                         "WHERE game_id = %s AND seat = %s")
            params += [key, decision_seq, game, seat_row.seat]
        if self.game is not None:
            _row, status, head_seq, updated_at = self.game
            parts.append("UPDATE games SET status = %s, head_seq = %s, updated_at = %s "
                         "WHERE id = %s")
            params += [status, head_seq, updated_at, game]
        main = None
        if self.outbox:
            main = (f"INSERT INTO outbox ({', '.join(_OUTBOX_COLUMNS)}) VALUES "
                    + ", ".join([_OUTBOX_ROW] * len(self.outbox)) + " RETURNING id, seat")
            for row in self.outbox:
                params += [row[name] for name in _OUTBOX_COLUMNS]
        elif parts:
            main = parts.pop()
        ids: list[int] = []
        if main is not None:
            sql = main if not parts else (
                "WITH " + ", ".join(f"w{i} AS ({part})" for i, part in enumerate(parts)) + " " + main)
            result = session.connection().exec_driver_sql(sql, tuple(params))
            if self.outbox:  # in the order of ``outbox`` (one row per seat; else by id)
                returned = list(result)
                by_seat = {seat: outbox_id for outbox_id, seat in returned}
                ids = ([by_seat[row["seat"]] for row in self.outbox]
                       if len(by_seat) == len(self.outbox) else sorted(i for i, _ in returned))
        self._sync(session)
        return ids

    def _sync(self, session: Session) -> None:
        if self.cancel_seats:
            sync_cancelled(session, self.game_id, self.cancel_seats, None)
        if self.changed or self.added:
            _sync_objects(session, SeatClockRow, [
                ((self.game_id, c.seat), dict(zip(CLOCK_FIELDS, c.values())))
                for c in self.changed + self.added])
        for seat_row, key, decision_seq in self.notified:
            set_committed_value(seat_row, "notified_key", key)
            set_committed_value(seat_row, "decision_seq", decision_seq)
        if self.game is not None:
            row, status, head_seq, updated_at = self.game
            set_committed_value(row, "status", status)
            set_committed_value(row, "head_seq", head_seq)
            set_committed_value(row, "updated_at", updated_at)
