"""The session of a command made only of driver statements: a player's move on PostgreSQL.

A move there is one read and one write on psycopg's cursor (``move_reads``, ``move_writes``,
``driver_sql``), in autocommit.  Of an ORM ``Session`` it asks only for its connection, its
dialect, an empty identity map and a flush with nothing to flush, yet opening a ``Session``,
beginning its bookkeeping transaction and closing it was ~6 % of a move's client
instructions (issue 9).  ``StatementSession`` answers those from one autocommit connection.

Anything else a rarer path asks of it (a query through the ORM, a snapshot read the ORM way,
events a page fetches after the move) goes to a real ``Session``, made on first need and
bound to the same autocommit engine: every statement commits by itself either way, so which
pooled connection runs it changes nothing."""
from __future__ import annotations

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

_NOTHING: dict = {}


class StatementSession:
    def __init__(self, connection: Connection, engine: Engine):
        self._connection = connection
        self._engine = engine
        self._session: Session | None = None

    def connection(self) -> Connection:
        if self._connection.closed:  # asked after the command (a late fetch of events)
            return self._orm().connection()
        return self._connection

    def get_bind(self, *_args, **_kwargs) -> Engine:
        return self._engine

    def flush(self) -> None:
        if self._session is not None:
            self._session.flush()

    @property
    def autoflush(self) -> bool:
        return self._session is not None and self._session.autoflush

    @property
    def identity_map(self):
        return self._session.identity_map if self._session is not None else _NOTHING

    @property
    def new(self):
        return self._session.new if self._session is not None else ()

    @property
    def dirty(self):
        return self._session.dirty if self._session is not None else ()

    @property
    def deleted(self):
        return self._session.deleted if self._session is not None else ()

    def close(self) -> None:
        if self._session is not None:
            self._session.close()

    def __getattr__(self, name: str):
        return getattr(self._orm(), name)

    def _orm(self) -> Session:
        if self._session is None:
            self._session = Session(self._engine, expire_on_commit=False)
        return self._session
