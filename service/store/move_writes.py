"""What one command writes, in one PostgreSQL statement (issue 9).

With its event (a player's move hands its events over: ``Writes.events``; other commands
append theirs first, ``store.append``), every command writes the same kinds of projection rows: the
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

That is also why a player's move needs no transaction around it (``moves.make_move`` runs
in autocommit on PostgreSQL: no BEGIN and COMMIT round trips): its one read statement
(``move_reads``) sees one snapshot, and its one write statement is atomic by itself, events
and projections together or nothing.  Under READ COMMITTED a transaction gave the two
statements no more than that (each statement of it saw its own snapshot); what keeps two
writers from both extending the same head is the events' primary key, as before.

The SQL text is built here, with psycopg placeholders, and sent on the driver's cursor
(``driver_sql``).  The rows of each kind travel as one JSON parameter (``_rows_of``), so the text depends only
on which kinds a command writes (and how many seats' deadlines it cancels), not on the number
of rows: a handful of texts, each under psycopg's 50-parameter limit for caching its parsed
form, and each prepared on the server once it has run five times.  Listing every value as
its own parameter instead (``VALUES (%s, …), (%s, …)``) gave a move that owes four mails
over a hundred parameters, whose text psycopg parsed anew on every execution.  The two
single rows most moves write, their one event and the mover's one clock, go as plain
parameters instead (round 7): for one row, PostgreSQL's parse of the JSON and its join with
the record set cost more than the row's own insert or update.  SQLite (the embedded default
and most tests) keeps the statements one by one."""
from __future__ import annotations

import json
from datetime import datetime

import orjson
from sqlalchemy import Table
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from service.store import driver_sql
from service.store.models import DeadlineRow, EventRow, OutboxRow, SeatClockRow, SeatRow
from service.store.db import lost_races_refused
from service.store.snapshots import KEEP
from service.store.events import Conflict
from service.store.timekeeping import CLOCK_FIELDS, sync_objects, sync_cancelled

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
    """The rows as JSON (by orjson: a fifth of ``json.dumps``' time; ``jsonb`` reads both
    alike); times in ISO 8601 with their offset and microseconds, as ``isoformat`` writes them,
    which ``timestamptz`` reads back exactly.  Any other object is refused."""
    return orjson.dumps(rows).decode()


_CLOCKS, _DEADLINES = SeatClockRow.__table__, DeadlineRow.__table__
_CLOCK_UPDATE = _update(_CLOCKS, "seat", CLOCK_FIELDS)
# One clock (the mover's: three moves in four) as plain parameters: no JSON for PostgreSQL to
# parse and no join with a record set (~40-60 us of PostgreSQL's CPU less per move, issue 9
# round 7); eight parameters, one text.
_CLOCK_UPDATE_ONE = (f"UPDATE {_CLOCKS.name} SET "
                     + ", ".join(f"{name} = %s" for name in CLOCK_FIELDS)
                     + " WHERE game_id = %s AND seat = %s")
_CLOCK_INSERT = _insert(_CLOCKS, ("game_id", "seat", *CLOCK_FIELDS))
_DEADLINE_COLUMNS = ("game_id", "seat", "kind", "decision_key", "due_at", "status")
_DEADLINE_INSERT = _insert(_DEADLINES, _DEADLINE_COLUMNS)
_NOTIFY = _update(SeatRow.__table__, "seat", ("notified_key", "decision_seq"))
_OUTBOX_COLUMNS = ("game_id", "seat", "kind", "seq", "to_addr", "status", "attempts",
                   "next_attempt_at", "created_at", "message_id")
_OUTBOX_INSERT = _insert(OutboxRow.__table__, _OUTBOX_COLUMNS) + " RETURNING id, seat"
# ``snapshots.save`` and ``prune`` as parts of the statement: a snapshot another writer made
# first is kept; the prune cannot see the snapshot inserted beside it (one statement, one
# snapshot of the database), so it keeps the ``KEEP - 1`` newest it sees, and with the new one
# the game has ``KEEP`` again, as after the two statements.
_SNAPSHOT_INSERT = ("INSERT INTO snapshots (game_id, seq, rules_version, state, created_at) "
                    "VALUES (%s, %s, %s, %s::json, %s) ON CONFLICT DO NOTHING")
_SNAPSHOT_PRUNE = (
    "DELETE FROM snapshots WHERE game_id = %s AND (rules_version <> %s OR seq < ("
    "SELECT seq FROM snapshots WHERE game_id = %s AND rules_version = %s "
    f"ORDER BY seq DESC OFFSET {KEEP - 2} LIMIT 1))")
_EVENT_COLUMNS = ("game_id", "seq", "kind", "payload", "actor", "recorded_at", "prev_hash", "hash",
                  "sealed")
_EVENT_JSON = frozenset({"payload", "sealed"})
# ``json_to_recordset`` (not jsonb): a ``json`` field keeps its text as sent, so a payload is
# stored as the very text the one-row insert stored (``json.dumps``' default separators).
# No ON CONFLICT: a taken seq must fail the whole statement (see ``execute``).
_EVENTS_INSERT = (
    f"INSERT INTO events ({', '.join(_EVENT_COLUMNS)}) SELECT {', '.join(_EVENT_COLUMNS)} FROM "
    "json_to_recordset(%s::json) AS r(game_id text, seq integer, kind text, payload json, "
    "actor text, recorded_at timestamptz, prev_hash text, hash text, sealed json)")
# A move's one event (nearly always) as plain parameters, for the same reason as one clock
# (~35 us less): its payload is the text ``json.dumps`` writes of it, the very text it has
# inside the record set's JSON, which a ``json`` field keeps as sent.
_EVENT_INSERT_ONE = (f"INSERT INTO events ({', '.join(_EVENT_COLUMNS)}) "
                     "VALUES (%s, %s, %s, %s::json, %s, %s, %s, %s, %s::json)")
assert tuple(EventRow.__table__.c.keys()) == _EVENT_COLUMNS  # every column, in this order


def supported(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


class Writes:
    """The rows collected for one event of one game; ``execute`` writes them."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.cancel_seats: list[int] = []     # pending deadlines (but vacation_end) cancelled
        self.vacations_ended: list[int] = []  # pending vacation_end deadlines cancelled
        self.changed: list = []               # timekeeping.Clock, existing rows
        self.added: list = []                 # timekeeping.Clock, new rows
        self.deadlines: list[dict] = []
        self.notified: list[tuple] = []       # (SeatRow, notified_key, decision_seq)
        self.game: tuple | None = None        # (GameRow, status, head_seq, updated_at)
        self.outbox: list[dict] = []
        self.events: list[dict] = []          # store.new_event's values, in seq order
        self.snapshot: dict | None = None     # snapshots.save's: seq, rules_version, state…

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
        which kinds there are: a handful of texts, each prepared once per connection.

        With ``events`` (a player's move) the events are inserted by the same statement, a
        plain INSERT: a seq another command took first fails the whole statement, which then
        writes nothing at all (no event of several, no projection), and raises ``Conflict``
        as ``store.append`` does."""
        parts = self._parts()
        if not parts:
            self._sync(session)
            return []
        *ctes, (main, main_params) = parts
        sql = main if not ctes else (
            "WITH " + ", ".join(f"w{i} AS ({part})" for i, (part, _) in enumerate(ctes))
            + " " + main)
        params = [p for _, part_params in ctes for p in part_params] + main_params
        with lost_races_refused():  # e.g. a deadlock with the sweep's timeout of this seat
            try:
                returned = driver_sql.execute(session.connection(), sql, tuple(params),
                                              returning=bool(self.outbox))
            except IntegrityError as error:
                if not self.events:
                    raise
                raise Conflict.moved_on() from error
        ids: list[int] = []
        if self.outbox:  # in the order of ``outbox`` (one row per seat; else by id)
            by_seat = {seat: outbox_id for outbox_id, seat in returned}
            ids = ([by_seat[row["seat"]] for row in self.outbox]
                   if len(by_seat) == len(self.outbox) else sorted(i for i, _ in returned))
        self._sync(session)
        return ids

    def _parts(self) -> list[tuple[str, list]]:
        """(data-modifying statement, its parameters) for each kind of row: the events' first,
        the outbox insert (whose ids the caller dispatches) last."""
        parts: list[tuple[str, list]] = []
        game = self.game_id
        if len(self.events) == 1:
            parts.append((_EVENT_INSERT_ONE, _event_values(self.events[0])))
        elif self.events:
            parts.append((_EVENTS_INSERT, [json.dumps(self.events, default=datetime.isoformat)]))
        if self.snapshot is not None:
            snapshot = self.snapshot
            parts.append((_SNAPSHOT_INSERT, [game, snapshot["seq"], snapshot["rules_version"],
                                             snapshot["state"], snapshot["created_at"]]))
            parts.append((_SNAPSHOT_PRUNE, [game, snapshot["rules_version"], game,
                                            snapshot["rules_version"]]))
        if self.cancel_seats:  # the decisions' deadlines
            parts.append(_cancel(game, self.cancel_seats, "kind <> 'vacation_end'"))
        if self.vacations_ended:
            parts.append(_cancel(game, self.vacations_ended, "kind = 'vacation_end'"))
        if len(self.changed) == 1:
            clock = self.changed[0]
            parts.append((_CLOCK_UPDATE_ONE, [*clock.values(), game, clock.seat]))
        elif self.changed:
            parts.append((_CLOCK_UPDATE, [
                _json([{"seat": c.seat, **dict(zip(CLOCK_FIELDS, c.values()))}
                       for c in self.changed]), game]))
        if self.added:
            parts.append((_CLOCK_INSERT, [
                _json([{"game_id": c.game_id, "seat": c.seat, **dict(zip(CLOCK_FIELDS, c.values()))}
                       for c in self.added])]))
        if self.deadlines:
            parts.append((_DEADLINE_INSERT, [
                _json([{name: row[name] for name in _DEADLINE_COLUMNS} for row in self.deadlines])]))
        if self.notified:
            parts.append((_NOTIFY, [
                _json([{"seat": seat_row.seat, "notified_key": key, "decision_seq": decision_seq}
                       for seat_row, key, decision_seq in self.notified]), game]))
        if self.game is not None:
            _row, status, head_seq, updated_at = self.game
            parts.append(("UPDATE games SET status = %s, head_seq = %s, updated_at = %s "
                          "WHERE id = %s", [status, head_seq, updated_at, game]))
        if self.outbox:
            parts.append((_OUTBOX_INSERT, [
                _json([{name: row[name] for name in _OUTBOX_COLUMNS} for row in self.outbox])]))
        return parts

    def _sync(self, session: Session) -> None:
        if self.cancel_seats:
            sync_cancelled(session, self.game_id, self.cancel_seats, None)
        if self.vacations_ended:
            sync_cancelled(session, self.game_id, self.vacations_ended, {"vacation_end"})
        if self.changed or self.added:
            sync_objects(session, SeatClockRow, [
                ((self.game_id, c.seat), dict(zip(CLOCK_FIELDS, c.values())))
                for c in self.changed + self.added])
        for seat_row, key, decision_seq in self.notified:
            _written(seat_row, "notified_key", key)
            _written(seat_row, "decision_seq", decision_seq)
        if self.game is not None:
            row, status, head_seq, updated_at = self.game
            _written(row, "status", status)
            _written(row, "head_seq", head_seq)
            _written(row, "updated_at", updated_at)


def _event_values(event: dict) -> list:
    """``_EVENT_INSERT_ONE``'s parameters: the payload and the sealed data as ``json.dumps``
    writes them (their text in ``_EVENTS_INSERT``'s JSON too, and ``store.append``'s)."""
    return [json.dumps(event[name], default=datetime.isoformat)
            if name in _EVENT_JSON and event[name] is not None
            else event[name] for name in _EVENT_COLUMNS]


def _cancel(game_id: str, seats: list[int], kinds: str) -> tuple[str, list]:
    """The seats' pending deadlines of ``kinds`` (an SQL condition) cancelled."""
    return ("UPDATE deadlines SET status = 'cancelled' WHERE game_id = %s AND seat IN ("
            + ", ".join(["%s"] * len(seats)) + f") AND status = 'pending' AND {kinds}",
            [game_id, *seats])


def _written(obj, name: str, value) -> None:
    """``obj`` (an ORM object, or a ``move_reads`` record) now holds what was written."""
    if hasattr(obj, "_sa_instance_state"):
        set_committed_value(obj, name, value)  # loaded state: no change for a flush to send
    else:
        setattr(obj, name, value)
