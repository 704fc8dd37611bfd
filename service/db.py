"""Database engine, sessions and the unit of work.

One request (or one task) = one transaction: the event, the outbox rows and any projection
change commit together or not at all (cosmicpython's unit of work, without the ceremony)."""
from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine, event, exc
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

ROOT = Path(__file__).resolve().parent.parent


class Base(DeclarativeBase):
    pass


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    engine = create_engine(url, pool_size=10, max_overflow=20, pool_use_lifo=True,
                           pool_recycle=RECYCLE_SECONDS)
    ping_if_idle(engine)
    return engine


# Connection-loss safety without a round trip per request (issue 9).  ``pool_pre_ping`` sent a
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


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    """WAL lets the web page read while a delivery writes; foreign keys are off by default."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()
    # pysqlite's own transaction handling never emits BEGIN before a SAVEPOINT, so RELEASE
    # SAVEPOINT would commit: an appended event would survive a failure later in the same
    # unit of work.  Take transactions over: no implicit handling, an explicit BEGIN.
    dbapi_connection.isolation_level = None


def _sqlite_begin(connection) -> None:
    connection.exec_driver_sql("BEGIN")


class Database:
    def __init__(self, url: str):
        self.url = url
        self.engine = make_engine(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def unit_of_work(self) -> Iterator[Session]:
        session = self.sessions()
        try:
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
