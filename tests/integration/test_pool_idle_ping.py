"""The connection pool without ``pool_pre_ping``: a connection that sat in the pool
is pinged before use and replaced when the server dropped it, while a connection in steady
use costs no ping (one round trip less per move)."""
from __future__ import annotations

import psycopg
import pytest
from sqlalchemy import text

from service.store import db as db_module
from service.store.db import Database
from tests.services_available import PG_HOST, PG_PORT


@pytest.fixture
def database(postgres_url):
    database = Database(postgres_url)
    yield database
    database.dispose()


def backend_pid(database: Database) -> int:
    with database.unit_of_work() as session:
        return session.execute(text("SELECT pg_backend_pid()")).scalar_one()


def terminate(pid: int) -> None:
    admin = f"host={PG_HOST} port={PG_PORT} user=postgres dbname=test"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(%s)", [pid])


def count_pings(database: Database, monkeypatch) -> list[int]:
    pings: list[int] = []
    real = database.engine.dialect.do_ping

    def counting(dbapi_connection):
        pings.append(1)
        return real(dbapi_connection)
    monkeypatch.setattr(database.engine.dialect, "do_ping", counting)
    return pings


def test_a_connection_the_server_dropped_while_idle_is_replaced_before_a_command_uses_it(
        database, monkeypatch):
    first = backend_pid(database)
    terminate(first)  # e.g. a server restart or an idle timeout while it sat in the pool
    monkeypatch.setattr(db_module, "IDLE_PING_SECONDS", 0.0)  # it has been idle "long enough"
    pings = count_pings(database, monkeypatch)

    second = backend_pid(database)  # no error reaches the caller

    assert pings, "the idle connection was pinged"
    assert second != first, "the dropped connection was replaced by a new one"
    with database.unit_of_work() as session:
        assert session.execute(text("SELECT 1")).scalar_one() == 1


def test_a_connection_in_steady_use_is_not_pinged(database, monkeypatch):
    pings = count_pings(database, monkeypatch)
    pids = {backend_pid(database) for _ in range(20)}

    assert pings == [], "no round trip before each unit of work"
    assert len(pids) == 1, "the pool hands back the connection it just had (LIFO)"
