"""Reaching the real PostgreSQL and Redis: under CI=true a missing service fails the test,
elsewhere (a new user's laptop) it skips with the reason."""
from __future__ import annotations

import os
import secrets
import socket

import pytest

PG_HOST = os.environ.get("CHASQUI_TEST_PG_HOST", "127.0.0.1")
PG_PORT = int(os.environ.get("CHASQUI_TEST_PG_PORT", "5432"))
REDIS_URL = os.environ.get("CHASQUI_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def require(reason: str) -> None:
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{reason} (CI=true: integration tests must run, not skip)")
    pytest.skip(reason)


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


ADMIN_DSN = f"host={PG_HOST} port={PG_PORT} user=postgres dbname=test"


def fresh_postgres_database(template: str | None = None):
    """Create a database for one test session, empty, or a copy of the database of the URL
    ``template`` (``CREATE DATABASE … TEMPLATE``: nobody may be connected to it); returns
    (url, drop)."""
    if not _port_open(PG_HOST, PG_PORT):
        require(f"PostgreSQL is not reachable at {PG_HOST}:{PG_PORT}")
    import psycopg

    name = f"chasqui_test_{secrets.token_hex(4)}"
    copy = f' TEMPLATE "{template.rsplit("/", 1)[1]}"' if template else ""
    try:
        with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"{copy}')
    except psycopg.Error as error:
        require(f"cannot create a PostgreSQL test database: {error}")

    def drop():
        with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return f"postgresql+psycopg://postgres@{PG_HOST}:{PG_PORT}/{name}", drop


def redis_url() -> str:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as error:  # noqa: BLE001
        require(f"Redis is not reachable at {REDIS_URL}: {error}")
    return REDIS_URL


def truncate_all(conn) -> None:
    """Empty every table between PostgreSQL tests.  TRUNCATE fires no row triggers, so the
    events immutability trigger (which refuses DELETE) stays in place and untouched."""
    from sqlalchemy import inspect, text

    tables = [t for t in inspect(conn).get_table_names() if t != "alembic_version"]
    if tables:
        conn.execute(text("TRUNCATE " + ", ".join(f'"{t}"' for t in tables) + " CASCADE"))
