"""The busy evening of ``tests/service/test_sqlite_load.py`` on PostgreSQL, served by a real
threaded HTTP server: 50 identical POSTs of one move, and twenty players in five games
pressing at once.  No 5xx, one event per accepted move, every refusal a 409 (or a 400 for a
move that is not the seat's to make)."""
from __future__ import annotations

import pytest

from tests.integration.test_faults import capture_dispatch, create_game, services
from tests.load import (ServedApp, assert_no_fault, busy_evening, identical_posts,
                        one_event_per_decision,
                        players_moves)

pytestmark = pytest.mark.integration


def test_fifty_identical_concurrent_posts_make_one_event_and_forty_nine_409s(app):
    capture_dispatch(app)
    game_id, secrets = create_game(app.test_client())
    with ServedApp(app) as served:
        statuses = identical_posts(served, secrets[0], 50)
    assert statuses == {200: 1, 409: 49}, statuses
    with services(app).db.reading() as session:
        assert players_moves(session, game_id) == {0: 1}


def test_twenty_players_in_five_games_pressing_at_once_get_no_server_error(app):
    capture_dispatch(app)
    client = app.test_client()
    games = [create_game(client, seed=seed) for seed in range(5)]
    with ServedApp(app) as served:
        evening = busy_evening(served, games)
    assert_no_fault(evening, games)
    one_event_per_decision(services(app).db, evening, games)
