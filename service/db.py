"""Database engine, sessions and the unit of work.

One request (or one task) = one transaction: the event, the outbox rows and any projection
change commit together or not at all (cosmicpython's unit of work, without the ceremony)."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine, event
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
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


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
