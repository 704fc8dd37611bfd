"""Statements run on the driver's own cursor: the move's two, the mail worker's fixed ones
(issue 9).

A move on PostgreSQL is one read (``move_reads``) and one write (``move_writes``); a mail
batch locks its rows and reads its deadlines and languages (``mail_sql``).  Sent with
SQLAlchemy's ``exec_driver_sql`` (or ``Connection.execute``) their text went to psycopg
unchanged, yet SQLAlchemy's execution context and result object around each cost more client
CPU than psycopg's own work: ~80 us of the move's read's ~220 us.  Here the text goes to a
psycopg cursor of the same pooled connection, in the same transaction (or autocommit) as the
rest of the unit of work: one cursor kept per connection (making one per statement cost
~12 us), whose results each caller reads at once.

What SQLAlchemy did around the statement is kept:

* ``before_cursor_execute`` / ``after_cursor_execute`` listeners are called (without an
  execution context), so statement counters (the tests', ``bench.http --in-process``) see
  these statements as before;
* a driver error is raised as SQLAlchemy's exception of the same kind
  (``DBAPIError.instance``: ``IntegrityError``, ``OperationalError``…), chained to the
  driver's, and a lost connection invalidates the pooled connection, as SQLAlchemy does, so
  the next checkout reconnects."""
from __future__ import annotations

from sqlalchemy import exc
from sqlalchemy.engine import Connection

_CURSOR = "chasqui.driver_sql.cursor"


def fetch_all(connection: Connection, sql: str, params) -> list[tuple]:
    """The rows of ``sql`` (psycopg placeholders), as tuples."""
    return run(connection, sql, params).fetchall()


def execute(connection: Connection, sql: str, params, returning: bool = False) -> list[tuple]:
    """Run ``sql``; the rows of its RETURNING clause when ``returning``, else []."""
    cursor = run(connection, sql, params)
    return cursor.fetchall() if returning else []


def run(connection: Connection, sql: str, params):
    """Run ``sql`` on the connection's cursor; that cursor, with the results (``fetchall``,
    ``rowcount``) to be read before the next statement."""
    cursor = _cursor(connection)
    dispatch = connection.dispatch
    try:
        dispatch.before_cursor_execute(connection, cursor, sql, params, None, False)
        cursor.execute(sql, params)
        dispatch.after_cursor_execute(connection, cursor, sql, params, None, False)
    except connection.dialect.loaded_dbapi.Error as error:
        raise _translated(connection, error, sql, params, cursor) from error
    return cursor


def _cursor(connection: Connection):
    """The driver connection's cursor, kept in the pool's record of it (made again when the
    pool has reconnected: the record outlives the connection)."""
    pooled = connection.connection
    driver = pooled.driver_connection
    kept = pooled.info.get(_CURSOR)
    if kept is None or kept[0] is not driver or kept[1].closed:
        kept = pooled.info[_CURSOR] = (driver, driver.cursor())
    return kept[1]


def _translated(connection: Connection, error, sql: str, params, cursor) -> exc.DBAPIError:
    dialect = connection.dialect
    lost = dialect.is_disconnect(error, connection.connection.dbapi_connection, cursor)
    if lost:
        connection.invalidate(error)
    return exc.DBAPIError.instance(sql, params, error, dialect.loaded_dbapi.Error,
                                   connection_invalidated=lost, dialect=dialect)
