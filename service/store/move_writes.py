"""What a command writes after its engine work: its new events and the projection rows they
change, in one write.

Every command that records a move (a player's, a bot's, a timeout's) ends in
``games.queue_mail``, which hands this module one ``Write``: the events ``record_move``
appended (``Loaded.unstored``), the deadlines cancelled for the decisions that ended, the
seat clocks changed and added (``timekeeping.ClockChanges``), the new decisions' deadlines,
the seats newly notified, the game row's status and head, and the owed mail.  ``execute``
runs the same SQLAlchemy Core statements on every database, in this order; on PostgreSQL
they are the data-modifying CTEs of one statement (``HasCTE.add_cte``), the outbox insert
(whose ids the caller dispatches) the main one: one round trip instead of one per kind of
row.

Why one statement is the same as the statements one after the other: they run in the
caller's transaction, and each row is changed by at most one part (one UPDATE per clock, per
notified seat and of the game row; INSERTs only of new rows).  PostgreSQL runs all parts
against one snapshot, so the deadline cancel cannot see the deadlines inserted beside it:
exactly the effect of cancelling first and inserting after.  A failing part (a taken seq, a
constraint) fails the whole statement, and the unit of work rolls back.

Each statement is built once per shape (how many rows of each kind: ``_statement``) with
named parameters, so a move's write compiles nothing after the first of its shape, and
PostgreSQL sees a handful of texts, which psycopg prepares once it has run them a few
times."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

from sqlalchemy import bindparam, insert, select, union_all, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from service.core.refusals import Conflict
from service.store.db import execute_core, lost_races_refused
from service.store.models import DeadlineRow, EventRow, GameRow, OutboxRow, SeatClockRow, SeatRow
from service.store.timekeeping import CLOCK_FIELDS, ClockChanges, sync_cancelled, sync_objects

_EVENTS, _CLOCKS, _DEADLINES = EventRow.__table__, SeatClockRow.__table__, DeadlineRow.__table__
_SEATS, _GAMES, _OUTBOX = SeatRow.__table__, GameRow.__table__, OutboxRow.__table__
EVENT_COLUMNS = ("game_id", "seq", "kind", "payload", "actor", "recorded_at", "prev_hash", "hash",
                 "sealed")
DEADLINE_COLUMNS = ("game_id", "seat", "kind", "decision_key", "due_at", "status")
OUTBOX_COLUMNS = ("game_id", "seat", "kind", "seq", "to_addr", "status", "attempts",
                  "next_attempt_at", "created_at", "message_id")


@dataclass
class Write:
    """One command's rows.  ``notified``: (seat row, notified key, decision seq); ``game``:
    (game row, status, head seq, updated at); ``events``: ``store.new_event``'s values, in seq
    order; ``outbox``: the rows' values, whose new ids ``execute`` returns in this order."""
    game_id: str
    game: tuple
    events: list[dict] = field(default_factory=list)
    clocks: ClockChanges = field(default_factory=ClockChanges)
    notified: list[tuple] = field(default_factory=list)
    outbox: list[dict] = field(default_factory=list)


def execute(session: Session, write: Write) -> list[int]:
    """Write it all, then give the session's objects of these rows (seats, game row, clock
    and deadline objects a caller holds) the written values as their loaded state.

    A seq another command took first fails the write, which then writes nothing at all (no
    event of several, no projection), and is refused as ``Conflict``, as ``store.append``
    refuses it; a deadlock with another writer (the sweep's timeout of this seat) likewise
    (``lost_races_refused``)."""
    session.flush()  # a caller's pending ORM changes go first, as an autoflush would
    clocks = write.clocks
    shape = (len(write.events), len(clocks.cancel_seats), len(clocks.vacations_ended),
             len(clocks.changed), len(clocks.added), len(clocks.deadlines), len(write.notified),
             len(write.outbox))
    params = _params(write)
    with lost_races_refused():
        try:
            if session.get_bind().dialect.name == "postgresql":
                result = execute_core(session, _statement(*shape, combined=True)[0], params)
                returned = result.all() if write.outbox else []
            else:
                for part in _statement(*shape, combined=False):
                    result = execute_core(session, part, params)
                returned = result.all() if write.outbox else []
        except IntegrityError as error:
            if not write.events:
                raise
            raise Conflict.moved_on() from error
    _sync(session, write)
    if not write.outbox:
        return []
    by_seat = {seat: outbox_id for outbox_id, seat in returned}  # one row per seat; else by id
    return ([by_seat[row["seat"]] for row in write.outbox]
            if len(by_seat) == len(write.outbox) else sorted(i for i, _ in returned))


@functools.lru_cache(maxsize=512)
def _statement(events: int, cancels: int, vacations: int, changed: int, added: int,
               deadlines: int, notified: int, outbox: int, combined: bool) -> tuple:
    """The write's statements for this shape, in the order they must run: the events first,
    the game row and the outbox (``RETURNING id, seat``) last.  ``combined``: as one statement
    whose parts before the last are its CTEs."""
    parts = []
    if events:
        parts.append(_rows_insert(_EVENTS, "e", EVENT_COLUMNS, events))
    if cancels:
        parts.append(_cancel("c", cancels, _DEADLINES.c.kind != "vacation_end"))
    if vacations:
        parts.append(_cancel("v", vacations, _DEADLINES.c.kind == "vacation_end"))
    parts += [_by_seat(_CLOCKS, f"k{i}_", CLOCK_FIELDS) for i in range(changed)]
    if added:
        parts.append(_rows_insert(_CLOCKS, "a", ("game_id", "seat", *CLOCK_FIELDS), added))
    if deadlines:
        parts.append(_rows_insert(_DEADLINES, "d", DEADLINE_COLUMNS, deadlines))
    parts += [_by_seat(_SEATS, f"n{i}_", ("notified_key", "decision_seq"))
              for i in range(notified)]
    parts.append(update(_GAMES).where(_GAMES.c.id == bindparam("key_game"))
                 .values(status=bindparam("g_status"), head_seq=bindparam("g_head_seq"),
                         updated_at=bindparam("g_updated_at")))
    if outbox:
        parts.append(_rows_insert(_OUTBOX, "o", OUTBOX_COLUMNS, outbox)
                     .returning(_OUTBOX.c.id, _OUTBOX.c.seat))
    if not combined:
        return tuple(parts)
    *ctes, main = parts
    return (main.add_cte(*(part.cte(f"w{i}") for i, part in enumerate(ctes))),)


def _rows_insert(table, prefix: str, columns: tuple[str, ...], count: int):
    """``count`` rows in one INSERT, as ``INSERT … SELECT … UNION ALL SELECT …`` of typed
    parameters: SQLAlchemy caches the compiled form of this, not of a multi-row ``VALUES``
    (which it compiles anew on every execution)."""
    rows = [select(*(bindparam(f"{prefix}{i}_{name}", type_=table.c[name].type)
                     for name in columns)) for i in range(count)]
    return insert(table).from_select(columns, rows[0] if count == 1 else union_all(*rows))


def _cancel(prefix: str, count: int, kinds):
    """The pending deadlines of ``count`` seats of the game, of ``kinds``, cancelled."""
    return (update(_DEADLINES)
            .where(_DEADLINES.c.game_id == bindparam("key_game"),
                   _DEADLINES.c.seat.in_([bindparam(f"{prefix}{i}") for i in range(count)]),
                   _DEADLINES.c.status == "pending", kinds)
            .values(status="cancelled"))


def _by_seat(table, prefix: str, columns: tuple[str, ...]):
    """One seat's row of the game (``{prefix}seat``) set to ``{prefix}{column}``."""
    return (update(table)
            .where(table.c.game_id == bindparam("key_game"),
                   table.c.seat == bindparam(f"{prefix}seat"))
            .values({name: bindparam(f"{prefix}{name}") for name in columns}))


def _params(write: Write) -> dict:
    """The parameters of ``_statement``'s statements for ``write``."""
    clocks = write.clocks
    _row, status, head_seq, updated_at = write.game
    params = {"key_game": write.game_id, "g_status": status, "g_head_seq": head_seq,
              "g_updated_at": updated_at}
    _flat(params, "e", EVENT_COLUMNS, write.events)
    _flat(params, "c", None, clocks.cancel_seats)
    _flat(params, "v", None, clocks.vacations_ended)
    for i, clock in enumerate(clocks.changed):
        params[f"k{i}_seat"] = clock.seat
        params.update(zip((f"k{i}_{name}" for name in CLOCK_FIELDS), clock.values()))
    _flat(params, "a", ("game_id", "seat", *CLOCK_FIELDS),
          [{"game_id": c.game_id, "seat": c.seat, **dict(zip(CLOCK_FIELDS, c.values()))}
           for c in clocks.added])
    _flat(params, "d", DEADLINE_COLUMNS, clocks.deadlines)
    for i, (seat_row, key, decision_seq) in enumerate(write.notified):
        params.update({f"n{i}_seat": seat_row.seat, f"n{i}_notified_key": key,
                       f"n{i}_decision_seq": decision_seq})
    _flat(params, "o", OUTBOX_COLUMNS, write.outbox)
    return params


def _flat(params: dict, prefix: str, columns, rows: list) -> None:
    for i, row in enumerate(rows):
        if columns is None:
            params[f"{prefix}{i}"] = row
        else:
            params.update((f"{prefix}{i}_{name}", row[name]) for name in columns)


def _sync(session: Session, write: Write) -> None:
    clocks, game_id = write.clocks, write.game_id
    if clocks.cancel_seats:
        sync_cancelled(session, game_id, clocks.cancel_seats, None)
    if clocks.vacations_ended:
        sync_cancelled(session, game_id, clocks.vacations_ended, {"vacation_end"})
    if clocks.changed or clocks.added:
        sync_objects(session, SeatClockRow, [
            ((game_id, c.seat), dict(zip(CLOCK_FIELDS, c.values())))
            for c in clocks.changed + clocks.added])
    for seat_row, key, decision_seq in write.notified:
        set_committed_value(seat_row, "notified_key", key)  # loaded state: nothing to flush
        set_committed_value(seat_row, "decision_seq", decision_seq)
    row, status, head_seq, updated_at = write.game
    set_committed_value(row, "status", status)
    set_committed_value(row, "head_seq", head_seq)
    set_committed_value(row, "updated_at", updated_at)
