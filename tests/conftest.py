"""Shared fixtures: an app on a fresh SQLite database (built by the Alembic migrations)."""
from __future__ import annotations

import atexit
import re
import shutil
import tempfile
from datetime import datetime, timezone
from functools import cache
from pathlib import Path

import pytest
from hypothesis import settings
from jinja2.bccache import Bucket, BytecodeCache

from service.web.app import create_app
from service.core.config import Settings, from_env
from service.store.db import Database
from service.web.extensions import services

ADMIN_TOKEN = "test-admin-token"

# Property tests are part of the test command, so they must give the same answer every run:
# examples derived from each test's own source (derandomize) rather than a fresh seed, and no
# example database, so nothing a previous run found (and left in .hypothesis/) changes the
# next.  A failure prints the blob that replays it (@reproduce_failure).  Deadlines measure
# the machine's load, not the code.  Hunting for new examples is a choice made by hand:
# ``./chasqui test --hypothesis-profile=explore``.
settings.register_profile("chasqui", derandomize=True, database=None, deadline=None,
                          print_blob=True)
settings.register_profile("explore", parent=settings.get_profile("chasqui"),
                          derandomize=False)
settings.load_profile("chasqui")


class FrozenClock:
    """The service's clock, under the test's control."""

    def __init__(self, start=datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)):
        self.now = start

    def __call__(self):
        return self.now

    def advance(self, delta):
        self.now += delta


@pytest.fixture
def clock():
    return FrozenClock()


def make_settings(tmp_path, **overrides):
    env = {
        "CHASQUI_DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite3'}",
        "CHASQUI_BASE_URL": "http://chasqui.test",
        "CHASQUI_SECRET_KEY": "test-secret-key",
        "CHASQUI_ADMIN_TOKEN": ADMIN_TOKEN,
        "CHASQUI_LOCAL_MAILBOX": "on",  # the tests read mail at /mailbox/ on a made-up host
    }
    env.update(overrides)
    return from_env(env)


class SharedTemplateCode(BytecodeCache):
    """Jinja's bytecode cache (``Environment.bytecode_cache``), in memory, for every app the
    tests make.  Each test makes its own app, and each app's page and mail environments would
    parse and compile every template they render again: about a third of a typical test's
    time.  With this cache a template is compiled once per session and its code object reused,
    but only by an environment that would compile it the same way (``configuration``), for the
    same name, file and source text; the app, its templates' globals and everything they render
    stay the test's own."""

    def __init__(self):
        self.code: dict[tuple, object] = {}

    @staticmethod
    def configuration(environment) -> tuple:
        """What Jinja's lexer, parser, extensions and compiler read from an environment.
        Functions are named by their underlying function (Flask's are per app bound methods
        of the same one); filters and tests by name and by what they are passed."""
        def same(value):
            return getattr(value, "__func__", value)

        def named(functions):
            return tuple(sorted((name, getattr(same(f), "jinja_pass_arg", None))
                                for name, f in functions.items()))

        return (type(environment), environment.block_start_string,
                environment.block_end_string, environment.variable_start_string,
                environment.variable_end_string, environment.comment_start_string,
                environment.comment_end_string, environment.line_statement_prefix,
                environment.line_comment_prefix, environment.trim_blocks,
                environment.lstrip_blocks, environment.newline_sequence,
                environment.keep_trailing_newline, tuple(sorted(environment.extensions)),
                environment.optimized, same(environment.finalize), same(environment.autoescape),
                environment.is_async, getattr(environment, "newstyle_gettext", None),
                environment.code_generator_class, environment.undefined,
                tuple(sorted((k, repr(same(v))) for k, v in environment.policies.items())),
                named(environment.filters), named(environment.tests))

    def get_bucket(self, environment, name, filename, source) -> Bucket:
        key = (self.configuration(environment), name, filename,
               self.get_source_checksum(source))
        bucket = Bucket(environment, repr(key), key[-1])
        bucket.code = self.code.get(key)
        bucket.shared_key = key
        return bucket

    def set_bucket(self, bucket: Bucket) -> None:
        self.code[bucket.shared_key] = bucket.code

    def load_bytecode(self, bucket: Bucket) -> None:  # get_bucket does it
        raise NotImplementedError

    def dump_bytecode(self, bucket: Bucket) -> None:  # set_bucket does it
        raise NotImplementedError


TEMPLATE_CODE = SharedTemplateCode()


def sharing_template_code(app):
    """``app``, its templates compiled at most once per session (``SharedTemplateCode``):
    set before it renders anything."""
    app.jinja_env.bytecode_cache = TEMPLATE_CODE
    return app


@cache
def _migrated_template() -> Path:
    """A SQLite database that ``Database.upgrade`` (every Alembic migration, from nothing)
    brought to the newest revision, once per test session, closed (its WAL checkpointed into
    the file) and never opened again."""
    folder = Path(tempfile.mkdtemp(prefix="chasqui-migrated-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "migrated.sqlite3"
    database = Database(f"sqlite:///{path}")
    database.upgrade()
    database.dispose()
    assert not path.with_name(path.name + "-wal").exists(), "the template's WAL was left open"
    return path


def migrated_sqlite(path: Path) -> str:
    """The URL of a new SQLite database at ``path``, already at the newest Alembic revision:
    a copy of the session's migrated template, so a test does not run every migration again
    for itself (about half a second each).  ``path`` must not exist yet."""
    path = Path(path)
    assert not path.exists(), f"{path} exists: a migrated copy would overwrite it"
    shutil.copyfile(_migrated_template(), path)
    return f"sqlite:///{path}"


def migrated_app(settings: Settings, **options):
    """``create_app(settings, upgrade=True, **options)``, sharing compiled templates
    (``sharing_template_code``).  A SQLite database that does not
    exist yet starts as a copy of the migrated template (``migrated_sqlite``) instead of being
    migrated again; any other database (PostgreSQL, an existing file) is upgraded as before."""
    url = settings.database_url
    if url.startswith("sqlite:///") and not Path(url[len("sqlite:///"):]).exists():
        migrated_sqlite(Path(url[len("sqlite:///"):]))
        return sharing_template_code(create_app(settings, **options))
    return sharing_template_code(create_app(settings, upgrade=True, **options))


@pytest.fixture
def app(tmp_path, clock):
    app = migrated_app(make_settings(tmp_path), clock=clock)
    app.config["TESTING"] = True
    yield app
    services(app).db.dispose()


@pytest.fixture(scope="session")
def postgres_url():
    """A fresh PostgreSQL database for this test session, dropped afterwards."""
    from tests.services_available import fresh_postgres_database

    url, drop = fresh_postgres_database()
    yield url
    drop()


@pytest.fixture
def pg_settings() -> dict:
    """Settings ``pg_app`` takes beside (or instead of) ``make_settings``' defaults; a module
    that needs others (a rate limit off, say) overrides this fixture."""
    return {}


@pytest.fixture
def pg_app(tmp_path, clock, postgres_url, pg_settings):
    """This file's ``app`` on PostgreSQL, every table emptied afterwards: a module whose tests
    must also hold on the real database overrides ``app`` with it (and ``clock`` or
    ``pg_settings`` for another start or other settings)."""
    from service.store import snapshots
    from tests.services_available import truncate_all

    snapshots.CACHE.clear()
    app = migrated_app(make_settings(tmp_path, **pg_settings, CHASQUI_DATABASE_URL=postgres_url),
                       clock=clock)
    app.config["TESTING"] = True
    yield app
    db = services(app).db
    with db.engine.begin() as conn:
        truncate_all(conn)
    db.dispose()
    snapshots.CACHE.clear()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def admin_headers():
    return {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def secret_from_url(url: str) -> str:
    return re.search(r"/play/([^/\s]+)", url).group(1)


@pytest.fixture
def new_game(client, admin_headers):
    """Create a game through the API; returns (response json, secrets by seat)."""
    def make(game="incan_gold", players=4, seed=42, options=None, clock=None):
        body = {"game": game, "seed": seed, "options": options or {},
                "players": [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(players)]}
        if clock is not None:
            body["clock"] = clock
        response = client.post("/api/games", json=body, headers=admin_headers)
        assert response.status_code == 201, response.get_json()
        data = response.get_json()
        return data, [secret_from_url(s["play_url"]) for s in data["seats"]]
    return make
