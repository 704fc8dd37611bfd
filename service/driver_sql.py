"""A statement run on the driver's own cursor, for the move's two statements (issue 9).

A move on PostgreSQL is one read (``move_reads``) and one write (``move_writes``).  Sent with
SQLAlchemy's ``exec_driver_sql`` their text went to psycopg unchanged, yet SQLAlchemy's
execution context and result object around each cost more client CPU than psycopg's own
work: ~80 us of the read's ~220 us.  Here the text goes to a psycopg cursor of the same
pooled connection, in the same transaction (or autocommit) as the rest of the unit of work.

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


def fetch_all(connection: Connection, sql: str, params) -> list[tuple]:
    """The rows of ``sql`` (psycopg placeholders), as tuples."""
    return _run(connection, sql, params, fetch=True)


def execute(connection: Connection, sql: str, params, returning: bool = False) -> list[tuple]:
    """Run ``sql``; the rows of its RETURNING clause when ``returning``, else []."""
    return _run(connection, sql, params, fetch=returning)


def _run(connection: Connection, sql: str, params, fetch: bool) -> list[tuple]:
    dbapi_connection = connection.connection.driver_connection
    dispatch = connection.dispatch
    cursor = dbapi_connection.cursor()
    try:
        dispatch.before_cursor_execute(connection, cursor, sql, params, None, False)
        cursor.execute(sql, params)
        rows = cursor.fetchall() if fetch else []
        dispatch.after_cursor_execute(connection, cursor, sql, params, None, False)
        return rows
    except connection.dialect.loaded_dbapi.Error as error:
        raise _translated(connection, error, sql, params, cursor) from error
    finally:
        cursor.close()


def _translated(connection: Connection, error, sql: str, params, cursor) -> exc.DBAPIError:
    dialect = connection.dialect
    lost = dialect.is_disconnect(error, connection.connection.dbapi_connection, cursor)
    if lost:
        connection.invalidate(error)
    return exc.DBAPIError.instance(sql, params, error, dialect.loaded_dbapi.Error,
                                   connection_invalidated=lost, dialect=dialect)
