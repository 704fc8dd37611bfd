"""What one event changes besides itself, written in one PostgreSQL statement (issue 9).

After its event is appended, every command writes the same kinds of projection rows: the
deadlines of the seats whose decision ended are cancelled, the seat clocks that changed are
updated (new ones inserted), the new decisions' deadlines inserted, the seats newly notified
marked, the game row's status and head seq set, and the owed mail put in the outbox.  Issued
one by one that is four to six statements, each a round trip and ~0.15 ms of client CPU
through SQLAlchemy; here they are the data-modifying CTEs of one statement (the outbox insert,
whose ids the caller dispatches, is the main statement).

Why this is the same as the statements one after the other: they all run in the caller's
transaction, and each row is changed by at most one part (one clock UPDATE and one seat
UPDATE, each matching a seat at most once; INSERTs only of new rows).  PostgreSQL runs all
parts against the same snapshot, so the deadline cancel cannot see the deadlines inserted
next to it: exactly the effect of cancelling first and inserting after, as the separate
statements did.  A failing part (a constraint) fails the whole statement, and the caller's
unit of work rolls back as before.

The SQL text is built here, with psycopg placeholders, and sent with ``exec_driver_sql``.
The rows of each kind travel as one JSON parameter (``_rows_of``), so the text depends only
on which kinds a command writes (and how many seats' deadlines it cancels), not on the number
of rows: a handful of texts, each under psycopg's 50-parameter limit for caching its parsed
form, and each prepared on the server once it has run five times.  Listing every value as
its own parameter instead (``VALUES (%s, …), (%s, …)``) gave a move that owes four mails
over a hundred parameters, whose text psycopg parsed anew on every execution.  SQLite
(the embedded default and most tests) keeps the statements one by one."""
from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import Table
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from service.models import DeadlineRow, OutboxRow, SeatClockRow, SeatRow
from service.timekeeping import CLOCK_FIELDS, _sync_objects, sync_cancelled

_RECORD_TYPES = {int: "integer", str: "text", datetime: "timestamptz", bool: "boolean"}


def _rows_of(table: Table, columns: tuple[str, ...]) -> str:
    """``jsonb_to_recordset`` of one parameter, typed like ``columns`` of ``table``: all the rows
    of one kind travel as one JSON text, so the statement's parameters stay few whatever the
    row count (psycopg re-parses a text of more than 50 parameters on every execution, and
    each row count was another text for PostgreSQL to plan).  The record types are the columns' base types
    (``text``, not ``varchar(n)``): the assignment to the column checks lengths, as a plain
    parameter's did."""
    types = ", ".join(f"{name} {_RECORD_TYPES[table.c[name].type.python_type]}"
                      for name in columns)
    return f"jsonb_to_recordset(%s::jsonb) AS r({types})"


def _insert(table: Table, columns: tuple[str, ...]) -> str:
    names = ", ".join(columns)
    return (f"INSERT INTO {table.name} ({names}) SELECT {names} FROM "
            + _rows_of(table, columns))


def _update(table: Table, key: str, columns: tuple[str, ...]) -> str:
    """Rows of ``table`` in game %s (first parameter: the rows; second: the game) by ``key``."""
    assignments = ", ".join(f"{name} = r.{name}" for name in columns)
    return (f"UPDATE {table.name} AS t SET {assignments} FROM "
            + _rows_of(table, (key, *columns)) + f" WHERE t.game_id = %s AND t.{key} = r.{key}")


def _json(rows: list[dict]) -> str:
    """The rows as JSON; times in ISO 8601 with their offset and microseconds, which
    ``timestamptz`` reads back exactly (any other object is refused by ``isoformat``)."""
    return json.dumps(rows, default=datetime.isoformat, separators=(",", ":"))


_CLOCKS, _DEADLINES = SeatClockRow.__table__, DeadlineRow.__table__
_CLOCK_UPDATE = _update(_CLOCKS, "seat", CLOCK_FIELDS)
_CLOCK_INSERT = _insert(_CLOCKS, ("game_id", "seat", *CLOCK_FIELDS))
_DEADLINE_COLUMNS = ("game_id", "seat", "kind", "decision_key", "due_at", "status")
_DEADLINE_INSERT = _insert(_DEADLINES, _DEADLINE_COLUMNS)
_NOTIFY = _update(SeatRow.__table__, "seat", ("notified_key", "decision_seq"))
_OUTBOX_COLUMNS = ("game_id", "seat", "kind", "seq", "to_addr", "status", "attempts",
                   "next_attempt_at", "created_at", "message_id")
_OUTBOX_INSERT = _insert(OutboxRow.__table__, _OUTBOX_COLUMNS) + " RETURNING id, seat"


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
        a caller holds) take the written values as their loaded state.

        Each kind of row is one JSON parameter (``_rows_of``), so the text depends only on
        which kinds there are: a handful of texts, each prepared once per connection."""
        parts, params = [], []
        game = self.game_id
        if self.cancel_seats:
            parts.append(
                "UPDATE deadlines SET status = 'cancelled' WHERE game_id = %s AND seat IN ("
                + ", ".join(["%s"] * len(self.cancel_seats))
                + ") AND status = 'pending' AND kind <> 'vacation_end'")
            params += [game, *self.cancel_seats]
        if self.changed:
            parts.append(_CLOCK_UPDATE)
            params += [_json([{"seat": c.seat, **dict(zip(CLOCK_FIELDS, c.values()))}
                              for c in self.changed]), game]
        if self.added:
            parts.append(_CLOCK_INSERT)
            params.append(_json([{"game_id": c.game_id, "seat": c.seat,
                                  **dict(zip(CLOCK_FIELDS, c.values()))} for c in self.added]))
        if self.deadlines:
            parts.append(_DEADLINE_INSERT)
            params.append(_json([{name: row[name] for name in _DEADLINE_COLUMNS}
                                 for row in self.deadlines]))
        if self.notified:
            parts.append(_NOTIFY)
            params += [_json([{"seat": seat_row.seat, "notified_key": key,
                               "decision_seq": decision_seq}
                              for seat_row, key, decision_seq in self.notified]), game]
        if self.game is not None:
            _row, status, head_seq, updated_at = self.game
            parts.append("UPDATE games SET status = %s, head_seq = %s, updated_at = %s "
                         "WHERE id = %s")
            params += [status, head_seq, updated_at, game]
        main = None
        if self.outbox:
            main = _OUTBOX_INSERT
            params.append(_json([{name: row[name] for name in _OUTBOX_COLUMNS}
                                 for row in self.outbox]))
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
