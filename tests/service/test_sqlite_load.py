"""The embedded default (SQLite, mail delivered in-process) on a busy evening, served by a
real threaded HTTP server as ``./chasqui run`` serves it: no 5xx, one event per decision,
every refusal a 409 (or a 400 for a move that is not the seat's to make)."""
from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

import pytest
from sqlalchemy import func, select

from service.store import db as db_module
from service.store.models import GameRow
from service.core.refusals import Conflict
from tests.conftest import ADMIN_TOKEN, migrated_sqlite, secret_from_url
from tests.load import (ServedApp, assert_no_fault, busy_evening, identical_posts,
                        one_event_per_decision,
                        players_moves)
from service.web.extensions import services

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)


def _create(client, seed: int) -> tuple[str, list[str]]:
    body = {"game": "incan_gold", "seed": seed,
            "players": [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(4)]}
    response = client.post("/api/games", json=body,
                           headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert response.status_code == 201, response.get_json()
    data = response.get_json()
    return data["id"], [secret_from_url(s["play_url"]) for s in data["seats"]]


def test_fifty_identical_concurrent_posts_make_one_event_and_forty_nine_409s(app):
    game_id, secrets = _create(app.test_client(), seed=7)
    with ServedApp(app) as served:
        statuses = identical_posts(served, secrets[0], 50)
    assert statuses == {200: 1, 409: 49}, statuses
    with services(app).db.reading() as session:
        assert players_moves(session, game_id) == {0: 1}


def test_twenty_players_in_five_games_pressing_at_once_get_no_server_error(app):
    client = app.test_client()
    games = [_create(client, seed) for seed in range(5)]
    with ServedApp(app) as served:
        evening = busy_evening(served, games)
    assert_no_fault(evening, games)
    one_event_per_decision(services(app).db, evening, games)


def test_a_writer_kept_waiting_past_the_busy_timeout_is_told_the_game_moved_on(tmp_path,
                                                                            monkeypatch):
    """SQLite's "database is locked" after the busy timeout is the same news as PostgreSQL's
    aborted race: a ``Conflict`` (a 409), never a server error.  Reads go on meanwhile."""
    monkeypatch.setattr(db_module, "BUSY_TIMEOUT_MS", 0)  # no wait: the lock is held throughout
    path = tmp_path / "busy.sqlite3"
    database = db_module.Database(migrated_sqlite(path))
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another command holds the write lock
        with pytest.raises(Conflict, match="moved on"):
            with database.unit_of_work() as session:
                session.add(_game("late"))
        with database.reading() as session:
            assert session.scalar(select(func.count()).select_from(GameRow)) == 0
        holder.rollback()
        with database.unit_of_work() as session:  # the lock is free: the write goes through
            session.add(_game("late"))
        with database.reading() as session:
            assert session.get(GameRow, "late") is not None
    finally:
        holder.close()
        database.dispose()


def _game(game_id: str) -> GameRow:
    return GameRow(id=game_id, game="incan_gold", status="active", head_seq=0, created_at=NOW,
                   updated_at=NOW)
