"""Database engine, sessions and the unit of work.

One request (or one task) = one transaction: the event, the outbox rows and any projection
change commit together or not at all (cosmicpython's unit of work, without the ceremony)."""
from __future__ import annotations

import json
import re
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import orjson
from sqlalchemy import create_engine, event, exc
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Session, object_session, sessionmaker

from service.core.refusals import Conflict

ROOT = Path(__file__).resolve().parents[2]


class Base(DeclarativeBase):
    pass


# The rooms above the store never import SQLAlchemy: they hold a ``Session`` (the unit of
# work: ``add``, ``add_all``, ``flush``, ``get`` and the models' attributes) and catch the
# database's refusals under these names.  Every query is a function of a store module.
Duplicate = exc.IntegrityError          # a unique key another writer (or an earlier try) holds
DatabaseFailure = exc.OperationalError  # the database failed (a lost connection, a lock wait)


def session_of(row) -> Session | None:
    """The session a loaded row belongs to, so a function given only the row can read more in
    the same transaction."""
    return object_session(row)


def make_engine(url: str, **options) -> Engine:
    """``options``: more ``create_engine`` options for PostgreSQL (an isolation level)."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    engine = create_engine(url, pool_size=10, max_overflow=20, pool_use_lifo=True,
                           pool_recycle=RECYCLE_SECONDS, json_deserializer=json_loads, **options)
    ping_if_idle(engine)
    return engine


def json_loads(text):
    """PostgreSQL's JSON columns (events' payloads, snapshots, the move's one read) decoded by
    orjson: the same values as ``json.loads``, in a third of the time.  orjson turns
    integers beyond 64 bits into floats (a game's 256-bit seed in a snapshot's state would
    lose its digits), so a text with a run of 20 digits or more, which any such integer has,
    goes to ``json.loads``.  Writing keeps ``json.dumps``, whose text a stored payload is."""
    if (_LONG_DIGITS_BYTES if isinstance(text, (bytes, bytearray)) else _LONG_DIGITS).search(text):
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


_LONG_DIGITS, _LONG_DIGITS_BYTES = re.compile(r"[0-9]{20}"), re.compile(rb"[0-9]{20}")


# Connection-loss safety without a round trip per request.  ``pool_pre_ping`` sent a
# ``SELECT 1`` before *every* checkout: one round trip more per move, paid for the rare case of
# a server restart or an idle connection dropped by the server or a proxy.  Now a connection
# is pinged only when it comes back to use after ``IDLE_PING_SECONDS`` or more in the pool (a
# failed ping makes the pool replace it, as pre-ping did), and recycled after an hour.  The
# pool is LIFO, so under load the same few connections stay busy and are never pinged, while
# the rest age in the pool and are pinged (or recycled) before their next use.
# What is left: a connection used less than IDLE_PING_SECONDS ago whose server went away
# fails its next statement.  That transaction never committed (nothing is written, the request
# answers 500, the player simply retries), and SQLAlchemy then invalidates every pooled
# connection older than the failure, so the requests after it reconnect.
IDLE_PING_SECONDS = 2.0
RECYCLE_SECONDS = 3600
_USED = "chasqui_last_used"


def ping_if_idle(engine: Engine) -> None:
    dialect = engine.dialect

    def checkout(dbapi_connection, record, _proxy) -> None:
        used = record.info.get(_USED)
        if used is None or time.monotonic() - used < IDLE_PING_SECONDS:
            return  # a new connection, or one that worked a moment ago
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as error:
            if dialect.is_disconnect(error, dbapi_connection, None):
                raise exc.DisconnectionError(str(error)) from error  # the pool reconnects
            raise

    def checkin(_dbapi_connection, record) -> None:
        record.info[_USED] = time.monotonic()

    event.listen(engine, "checkout", checkout)
    event.listen(engine, "checkin", checkin)


# How long a SQLite writer waits for another's lock before it is refused (``lost_a_race``).
BUSY_TIMEOUT_MS = 30_000
# The execution option a unit of work sets on its SQLite connection: begin by taking the lock.
_WRITES = "chasqui_writes"


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    """WAL lets pages read while a command writes; the busy timeout makes a writer wait its
    turn instead of failing at once; foreign keys are off by default."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()
    # pysqlite's own transaction handling never emits BEGIN before a SAVEPOINT, so RELEASE
    # SAVEPOINT would commit: an appended event would survive a failure later in the same
    # unit of work.  Take transactions over: no implicit handling, an explicit BEGIN.
    dbapi_connection.isolation_level = None


def _sqlite_begin(connection) -> None:
    """A unit of work begins IMMEDIATE: it takes SQLite's one write lock before it reads, so
    concurrent commands queue on the busy timeout.  A deferred transaction that read first
    could not be let write once another command had committed since its read (SQLite answers
    "database is locked" at once then, without waiting): that was a 500 under load.  Reads
    stay deferred and never wait (WAL)."""
    writes = connection.get_execution_options().get(_WRITES, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")


def execute_core(session: Session, statement, params: dict | None = None):
    """A Core statement that loads no ORM objects (tables, or plain columns: its rows are
    tuples), run on the session's connection, in its transaction (``Connection.execute``),
    after the session's pending changes are flushed as an autoflush would.

    ``Session.execute`` would run it too, with the same result; it also sends every statement
    through the ORM's execution layer (and one that names mapped attributes through the ORM's
    compile and result set-up), which on the move path's hottest statements (the events'
    read, the command's write) cost more client CPU than the driver's own work.  This is the
    one shortcut the move path keeps, and it is SQLAlchemy's documented Core API."""
    if session.autoflush:
        session.flush()
    return session.connection().execute(statement, params)


# PostgreSQL's "deadlock detected" and "could not serialize": two writers of one game each
# waited for the other (a move and the sweep's timeout of the same seat, each holding a row
# the other writes), and the database aborted one.  Its transaction wrote nothing.
_LOST_RACES = frozenset({"40P01", "40001"})
# SQLite's SQLITE_BUSY (and its extended codes, e.g. BUSY_SNAPSHOT): another writer held the
# lock for longer than the busy timeout.  Nothing of the refused transaction was written.
_SQLITE_BUSY = 5


def lost_a_race(error: exc.DBAPIError) -> bool:
    """Whether ``error`` aborted a writer for a race with another (see ``_LOST_RACES`` and
    ``_SQLITE_BUSY``), which is the same news as a taken seq, not a fault."""
    if getattr(error.orig, "sqlstate", None) in _LOST_RACES:
        return True
    code = getattr(error.orig, "sqlite_errorcode", None)
    return code is not None and code & 0xFF == _SQLITE_BUSY


@contextmanager
def lost_races_refused() -> Iterator[None]:
    """Around a write: a race the database aborted it for (``lost_a_race``) is refused as a
    ``Conflict``, which every command already answers ("the game moved on"), not raised as a
    server error.  Any other database error goes on as it is."""
    try:
        yield
    except exc.OperationalError as error:
        if not lost_a_race(error):
            raise
        raise Conflict.moved_on() from error


WRITES = "chasqui.writes"  # Session.info: this session belongs to a command (a unit of work)


def in_unit_of_work(session) -> bool:
    """Whether ``session`` is a unit of work's, which commits what it writes; a read's (a
    page, an API GET: ``Database.reading``) never writes anything."""
    return bool(session.info.get(WRITES))


class Database:
    def __init__(self, url: str):
        self.url = url
        self.engine = make_engine(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.postgres = self.engine.dialect.name == "postgresql"

    def dispose(self) -> None:
        self.engine.dispose()

    @contextmanager
    def unit_of_work(self) -> Iterator[Session]:
        """A command's transaction.  One that PostgreSQL aborted for waiting on another writer
        that waited on it, or that SQLite's lock stayed busy for too long, wrote nothing and
        is refused (``lost_races_refused``).  On SQLite it takes the write lock as it begins
        (``_sqlite_begin``).  Its session says so (``in_unit_of_work``): only
        such a session stores a snapshot of a game it loads."""
        session = self.sessions(info={WRITES: True})
        try:
            with lost_races_refused():
                try:
                    if not self.postgres:
                        session.connection(execution_options={_WRITES: True})
                    yield session
                    session.commit()
                except BaseException:
                    session.rollback()
                    raise
        finally:
            session.close()

    @contextmanager
    def reading(self) -> Iterator[Session]:
        session = self.sessions()
        try:
            yield session
        finally:
            session.close()  # closing ends the transaction; loaded objects stay readable

    def upgrade(self) -> None:
        """Bring the schema to the newest Alembic revision (the only way tables are made)."""
        from alembic import command
        from alembic.config import Config

        config = Config(str(ROOT / "alembic.ini"))
        config.set_main_option("script_location", str(ROOT / "migrations"))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "heads")
