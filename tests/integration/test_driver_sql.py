"""The move's statements on the driver's cursor (``service.store.driver_sql``, issue 9) behave as
they did through SQLAlchemy's ``exec_driver_sql``: the same rows, SQLAlchemy's exceptions, a
lost connection invalidated so the next command reconnects, and listeners that see them."""
from __future__ import annotations

import pytest
from sqlalchemy import event, exc, text

from service.store import driver_sql
from service.store.db import Database
from tests.integration.test_pool_idle_ping import backend_pid, terminate


@pytest.fixture
def database(postgres_url):
    database = Database(postgres_url)
    with database.unit_of_work() as session:
        session.execute(text("CREATE TABLE IF NOT EXISTS driver_rows "
                             "(id integer PRIMARY KEY, doc json)"))
    yield database
    with database.unit_of_work() as session:
        session.execute(text("DROP TABLE driver_rows"))
    database.dispose()


def test_rows_are_those_of_exec_driver_sql(database):
    sql = "SELECT %(n)s::integer + 1, %(doc)s::json, now() IS NOT NULL"
    params = {"n": 41, "doc": '{"a": [1, 2]}'}
    with database.reading() as session:
        expected = [tuple(r) for r in session.connection().exec_driver_sql(sql, params).all()]
        assert driver_sql.fetch_all(session.connection(), sql, params) == expected
    assert expected == [(42, {"a": [1, 2]}, True)]


def test_returning_rows_and_nothing_without_returning(database):
    with database.unit_of_work() as session:
        connection = session.connection()
        assert driver_sql.execute(connection, "INSERT INTO driver_rows VALUES (%s, %s)",
                                  (1, "{}")) == []
        assert driver_sql.execute(connection, "INSERT INTO driver_rows VALUES (%s, %s) "
                                  "RETURNING id", (2, "{}"), returning=True) == [(2,)]


def test_a_constraint_violation_is_sqlalchemys_integrity_error_and_writes_nothing(database):
    with database.unit_of_work() as session:
        driver_sql.execute(session.connection(), "INSERT INTO driver_rows VALUES (1, NULL)", ())
    with pytest.raises(exc.IntegrityError):
        with database.unit_of_work() as session:
            driver_sql.execute(session.connection(),
                               "INSERT INTO driver_rows VALUES (2, NULL), (1, NULL)", ())
    with database.reading() as session:
        assert session.execute(text("SELECT count(*) FROM driver_rows")).scalar_one() == 1


def test_a_lost_connection_is_invalidated_and_the_next_command_reconnects(database):
    with database.reading() as session:
        connection = session.connection()
        terminate(driver_sql.fetch_all(connection, "SELECT pg_backend_pid()", ())[0][0])
        with pytest.raises(exc.OperationalError) as raised:
            driver_sql.fetch_all(connection, "SELECT 1", ())
        assert raised.value.connection_invalidated
    assert backend_pid(database)  # a new connection, without an error


def test_statement_listeners_see_the_statement(database):
    seen: list[str] = []

    def record(_conn, _cursor, statement, *_args):
        seen.append(statement)
    event.listen(database.engine, "before_cursor_execute", record)
    try:
        with database.reading() as session:
            driver_sql.fetch_all(session.connection(), "SELECT 2", ())
    finally:
        event.remove(database.engine, "before_cursor_execute", record)
    assert seen == ["SELECT 2"]
