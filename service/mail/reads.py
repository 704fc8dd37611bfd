"""What a mail batch reads before it renders, in one statement on PostgreSQL (issue 9, round 6).

``deliver_many`` locked its rows (one statement), made its commit asynchronous (``SET LOCAL``,
a second), and each game's ``load`` then read the game row (the ORM's ``get``) and the game's
seats before its events: five round trips before the first event, each costing the worker
more CPU in SQLAlchemy and psycopg than PostgreSQL spent answering it.  Here the statement
that locks the rows, run as driver text (``mail_sql``) and its rows made into the ORM's
objects by hand (``_persistent``), also brings, on each row:

- the row's game: ``load``'s ``session.get`` finds it in the identity map instead of asking;
- the game's seats in seat order, as JSON, made into plain records (``move_reads.SeatRecord``:
  the attributes of ``SeatRow``) for ``load``'s ``seats`` argument, as the move path hands it its
  seats (``move_reads``);
- ``set_config('synchronous_commit', 'off', true)``, which is ``SET LOCAL``: the commit does
  not wait for its WAL to reach the disk.  A crash of PostgreSQL itself in the next fraction
  of a second may then lose the "sent" marks (never half of them), and those rows are sent
  again, the same bytes under the same Message-ID, as after a worker killed between the
  relay's 250 and the commit (before: a disk sync per batch).  It is evaluated for every row
  the statement returns; when it returns none, the batch writes nothing.

What is read is what the separate statements read: the same rows, locked the same way
(``FOR UPDATE OF outbox SKIP LOCKED``: the joined game row is not locked, as ``get`` did not
lock it), and the game and seats as of the same transaction (``READ COMMITTED``: each
statement sees what was committed when it started, so reading them a moment earlier changes
nothing a mail shows: the events up to the row's seq, read afterwards, are fixed).
SQLite (the embedded default) keeps the ORM's lock statement alone; its ``load`` reads the
rest."""
from __future__ import annotations

import json

from sqlalchemy import Boolean, Integer, String, bindparam, select
from sqlalchemy.orm import make_transient_to_detached

from service.mail import sql as mail_sql
from service.store.models import GameRow, OutboxRow, SeatRow
from service.store.move_reads import SeatRecord

_SEATS = SeatRow.__table__
# The seats' columns as JSON keeps their Python values only for these types (int, str, bool
# and NULL come back as they went in); a column of another type leaves the seats to ``load``.
_PLAIN_TYPES = (Integer, String, Boolean)
SEAT_COLUMNS = SeatRecord.COLUMNS
_SEATS_AS_JSON = all(isinstance(_SEATS.c[name].type, _PLAIN_TYPES) for name in SEAT_COLUMNS)


def _columns(cls) -> tuple[tuple[str, str], ...]:
    """(attribute, column) of each column a mapped class loads, in the table's order."""
    return tuple((prop.key, prop.columns[0].name) for prop in cls.__mapper__.column_attrs)


_OUTBOX_COLUMNS, _GAME_COLUMNS = _columns(OutboxRow), _columns(GameRow)


def _lock_text() -> str:
    """The PostgreSQL statement: the batch's rows by id, ``SKIP LOCKED``, in id order, with
    their game row, their game's seats (a JSON array of arrays in ``SEAT_COLUMNS`` order, by
    seat; as text: the driver would decode every row's, and a batch's rows mostly share one
    game) and the asynchronous commit."""
    outbox = ", ".join(f"outbox.{column}" for _, column in _OUTBOX_COLUMNS)
    games = ", ".join(f"games.{column}" for _, column in _GAME_COLUMNS)
    seats = ", ".join(f"seats.{name}" for name in SEAT_COLUMNS)
    seats = (f"(SELECT json_agg(json_build_array({seats}) ORDER BY seats.seat)::text "
             "FROM seats WHERE seats.game_id = outbox.game_id)" if _SEATS_AS_JSON else "NULL")
    return (f"SELECT {outbox}, {games}, {seats}, set_config('synchronous_commit', 'off', true) "
            "FROM outbox LEFT OUTER JOIN games ON games.id = outbox.game_id "
            "WHERE outbox.id IN {ids:INTEGER} ORDER BY outbox.id FOR UPDATE OF outbox SKIP LOCKED")


# SQLite: the rows alone, through the ORM (built once: an expanding parameter).
_LOCK_ORM = (select(OutboxRow).where(OutboxRow.id.in_(bindparam("ids", expanding=True)))
             .order_by(OutboxRow.id).with_for_update(skip_locked=True))
_LOCK = mail_sql.Statement(None, _lock_text(), lists=("ids",))


def _persistent(session, cls, columns, values):
    """The session's object for a row of ``cls`` read by hand (``values`` in ``columns``'
    order, the primary key first): the one already in the session, as the ORM's own read
    gives it, else a new one made as the ORM's loading makes it (the values in its
    ``__dict__``) and made persistent, unchanged (``make_transient_to_detached``, then
    ``add``): reading, changing and flushing it is as for an object the ORM read.

    The ORM's read of the lock statement cost ~3 times the driver's (its compile-cache look-up,
    the expanding ``IN``, the execution context and the loading of two entities), ~30 µs a
    mail (issue 9, round 6)."""
    key = cls.__mapper__.identity_key_from_primary_key([values[0]])
    known = session.identity_map.get(key)
    if known is not None:
        return known
    obj = cls.__mapper__.class_manager.new_instance()
    obj.__dict__.update(zip([name for name, _ in columns], values))
    make_transient_to_detached(obj)
    session.add(obj)
    return obj


class Batch:
    """What ``lock_batch`` read: ``rows``, the outbox rows this transaction locked (in id
    order); ``seats``, {game_id: the game's seats in seat order} for the games whose seats
    came with them (none on SQLite), for ``load``'s ``seats``; ``games``, {game_id: GameRow}
    read with them, held here because the session keeps only a weak reference to an unchanged
    object: without one, the row would leave the identity map before ``load`` asks for it."""
    __slots__ = ("rows", "seats", "games")

    def __init__(self, rows: list[OutboxRow], seats: dict[str, list], games: dict[str, GameRow]):
        self.rows, self.seats, self.games = rows, seats, games


def lock_batch(session, ids: list[int]) -> Batch:
    """The rows of ``ids`` this transaction could lock, with (on PostgreSQL) their games and
    seats; on PostgreSQL the commit is asynchronous from here on."""
    if session.get_bind().dialect.name != "postgresql":
        return Batch(list(session.scalars(_LOCK_ORM, {"ids": ids})), {}, {})
    batch = Batch([], {}, {})
    outbox, game = len(_OUTBOX_COLUMNS), len(_OUTBOX_COLUMNS) + len(_GAME_COLUMNS)
    for values in mail_sql.rows(session, _LOCK, {"ids": ids}):
        row = _persistent(session, OutboxRow, _OUTBOX_COLUMNS, values[:outbox])
        batch.rows.append(row)
        if values[outbox] is not None and row.game_id not in batch.games:
            batch.games[row.game_id] = _persistent(session, GameRow, _GAME_COLUMNS,
                                                   values[outbox:game])
        game_seats = values[game]
        if game_seats is not None and row.game_id not in batch.seats:
            batch.seats[row.game_id] = [SeatRecord(seat) for seat in json.loads(game_seats)]
    return batch
