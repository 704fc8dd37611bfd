"""Everything a command on one seat's link reads first, in one PostgreSQL statement (issue 9).

A move needs the game row, all its seats (with their clocks and turn-mail modes), the newest
snapshot and the events from it on.  Read as an ORM query of the seats and the game, then
``snapshots.events_from_newest``, that was two round trips, and the ORM's building of five
identity-mapped objects cost more client CPU than PostgreSQL took to answer both.  Here it is
one statement whose rows are ``events_from_newest``'s (the events from the snapshot on, with
the snapshot's seq, digest and state on the first row), and whose first row also carries the
game and its seats as JSON; they come back as plain records (``GameRecord``, ``SeatRecord``)
with the attributes of ``GameRow`` and ``SeatRow`` that a command reads and that
``move_writes`` updates.

Why this is the same as reading them one after the other: one statement reads one snapshot of
the database, so the seats and the game row are exactly what the events' head left (every
command updates them in its event's transaction).  The read still checks it: when the game
row's ``head_seq`` is not the last event's seq, ``read`` answers None and the caller takes
the ORM path, as before.

The snapshot is the game's newest of *any* rules version, since the game's engine (whose
version a snapshot must match) is known only from the answer; a snapshot of another version
(a rules change since it was written, and before the next snapshot prunes it) makes ``read``
answer None too.  SQLite (the embedded default) keeps the ORM path, as for the writes
(``move_writes.supported``)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from service.store import driver_sql

from service.store import snapshots

from service.store import events as store
from service.store.events import Event
from service.store.timekeeping import CLOCK_FIELDS, Clock

_GAME_FIELDS = ("game", "status", "created_at", "updated_at", "head_seq")
_SEAT_FIELDS = ("seat", "name", "email", "nonce", "notified_key", "decision_seq", "bot")
_TIMES = frozenset({"created_at", "updated_at", "started_at", "due_at", "vacation_since"})


class GameRecord:
    """A ``games`` row as plain data (the attributes of ``GameRow``)."""
    __slots__ = ("id",) + _GAME_FIELDS

    def __init__(self, id: str, **values):  # noqa: A002  (the column's name)
        self.id = id
        for name in _GAME_FIELDS:
            setattr(self, name, values[name])


class SeatRecord:
    """A ``seats`` row as plain data (the attributes of ``SeatRow``), made from its values in
    ``COLUMNS`` order: the seats the move's read and a mail batch's lock (``mail_reads``)
    bring as JSON."""
    COLUMNS = ("game_id",) + _SEAT_FIELDS
    __slots__ = COLUMNS

    def __init__(self, values):
        for name, value in zip(self.COLUMNS, values):
            setattr(self, name, value)


@dataclass
class MoveRead:
    game: GameRecord
    seats: list[SeatRecord]
    clocks: dict[int, Clock]     # as timekeeping.read_clocks
    modes: dict[int, str]        # seat -> turn-mail mode, for the seats that chose one
    events: list[Event]          # GameCreated, then the events from the snapshot on
    base: int | None             # the snapshot's seq (None: there is none, all events read)
    state: dict | None           # the snapshot's state, a fresh object


def _json_columns(prefix: str, names) -> str:
    return ", ".join(f"{prefix}.{name}" for name in names)


# Parameters: game_id, and the snapshot state this process holds decoded (known_seq and
# known_digest, NULL when none): its state is then left out, as in events_from_newest.
_SQL = f"""
WITH snap AS (
    SELECT seq, rules_version FROM snapshots WHERE game_id = %(game_id)s
    ORDER BY seq DESC, rules_version LIMIT 1),
snap_row AS (
    SELECT s.state, md5(s.state::text) AS digest FROM snapshots s JOIN snap
    ON s.game_id = %(game_id)s AND s.seq = snap.seq AND s.rules_version = snap.rules_version)
SELECT e.seq, e.kind, e.payload, e.actor, e.recorded_at, e.prev_hash, e.hash, e.sealed,
    (SELECT seq FROM snap),
    CASE WHEN e.seq = 1 THEN (SELECT digest FROM snap_row) END,
    CASE WHEN e.seq = 1 THEN (
        SELECT state FROM snap_row WHERE %(known_seq)s::integer IS NULL
            OR (SELECT seq FROM snap) <> %(known_seq)s::integer
            OR digest <> %(known_digest)s::text) END,
    CASE WHEN e.seq = 1 THEN (SELECT rules_version FROM snap) END,
    CASE WHEN e.seq = 1 THEN (
        SELECT json_build_array({_json_columns("g", _GAME_FIELDS)})
        FROM games g WHERE g.id = %(game_id)s) END,
    CASE WHEN e.seq = 1 THEN (
        SELECT json_agg(json_build_array({_json_columns("s", _SEAT_FIELDS)}, c.seat,
                                         {_json_columns("c", CLOCK_FIELDS)}, p.mode)
                        ORDER BY s.seat)
        FROM seats s
        LEFT JOIN seat_clocks c ON c.game_id = s.game_id AND c.seat = s.seat
        LEFT JOIN mail_preferences p ON p.game_id = s.game_id AND p.seat = s.seat
        WHERE s.game_id = %(game_id)s) END
FROM events e
WHERE e.game_id = %(game_id)s AND (e.seq = 1 OR e.seq >= coalesce((SELECT seq FROM snap), 1))
ORDER BY e.seq"""


# Positions in a row of ``_SQL``: the event's columns (``store.EVENT_COLUMNS``), then the
# snapshot's seq, digest and state (``snapshots.from_rows``), then these.
_SNAP_SEQ = len(store.EVENT_COLUMNS)
_SNAP_VERSION, _GAME, _SEATS = _SNAP_SEQ + 3, _SNAP_SEQ + 4, _SNAP_SEQ + 5


def read(session: Session, game_id: str, rules_version_of) -> MoveRead | None:
    """The game ``game_id`` as a command starts it, or None when this read cannot serve
    (no such game, a projection not at the events' head, a snapshot of another rules
    version): the caller then reads the ORM way.  ``rules_version_of(name)``: the rules
    version the game's engine has now (``engine.get_game(name).rules_version``)."""
    newest = snapshots.CACHE.newest(game_id)  # the same stored text decodes the same,
    cached = newest[1] if newest is not None else None  # whatever version it was put for
    rows = driver_sql.fetch_all(session.connection(), _SQL, {
        "game_id": game_id, "known_seq": cached[0] if cached else None,
        "known_digest": cached[1] if cached else None})
    if not rows or rows[0][_GAME] is None:
        return None
    first = rows[0]
    game = GameRecord(game_id, **_values(_GAME_FIELDS, first[_GAME]))
    version = rules_version_of(game.game)
    if version is None or (first[_SNAP_SEQ] is not None and first[_SNAP_VERSION] != version):
        return None  # an unknown game, or a snapshot of other rules: the ORM path decides
    events, base, state = snapshots.from_rows(rows, game_id, first[_SNAP_VERSION], cached,
                                              keep=True)
    if game.head_seq != events[-1].seq:
        return None
    seats, clocks, modes = _seats(game_id, first[_SEATS] or [])
    return MoveRead(game, seats, clocks, modes, events, base, state)


def _seats(game_id: str, rows: list[list]) -> tuple[list[SeatRecord], dict, dict]:
    seats, clocks, modes = [], {}, {}
    width = len(_SEAT_FIELDS)
    for row in rows:
        seat = SeatRecord((game_id, *_values(_SEAT_FIELDS, row[:width]).values()))
        seats.append(seat)
        if row[width] is not None:
            clocks[seat.seat] = Clock(game_id, seat.seat,
                                      **_values(CLOCK_FIELDS, row[width + 1:width + 1 + len(CLOCK_FIELDS)]))
        if row[-1] is not None:
            modes[seat.seat] = row[-1]
    return seats, clocks, modes


def _values(names: tuple[str, ...], values: list) -> dict:
    """JSON values by column name; times (ISO 8601 text in JSON) as aware datetimes."""
    return {name: datetime.fromisoformat(value) if name in _TIMES and value is not None
            else value for name, value in zip(names, values)}
