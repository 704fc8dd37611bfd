"""The game's story: a history page that steps through every event with the board as its
reader could see it then, feeds and webhook posts that say what a move did, Atom
autodiscovery, and the finished game's links (record, a check at once, rematch)."""
from __future__ import annotations

import re

import pytest
from flask import render_template

from service.store.history import rebuild
from service.store.loading import load
from service.view import told
from service.web.extensions import services
from tests.service.test_boards import advance

BASE = "http://chasqui.test"


def events_of(app, game_id):
    with app.app_context(), services(app).db.reading() as session:
        loaded = load(session, game_id)
        return loaded, loaded.events.all()


def board_html(app, game_name, view, seat, players):
    """The board as the history page includes it (``pages/_view.html``)."""
    with app.test_request_context():
        return render_template("pages/_view.html", view=view, game_name=game_name, seat=seat,
                               players=players)


def watch_token(client, secret):
    page = client.get(f"/play/{secret}").get_data(as_text=True)
    return re.search(r"/watch/([^/\"]+)/feed\.atom", page).group(1)


@pytest.mark.parametrize("game, players, moves", [
    ("incan_gold", 3, 14), ("machu_picchu", 3, 12), ("inca_empire", 3, 12)])
def test_each_step_shows_the_board_the_seat_and_the_spectator_could_see_then(
        client, app, admin_headers, game, players, moves):
    loaded, secrets = advance(client, app, admin_headers, game, players, moves)
    _, events = events_of(app, loaded.row.id)
    token = watch_token(client, secrets[0])
    names = [s.name for s in loaded.seats]
    for k in range(1, len(events) + 1):
        _, state = rebuild(events[:k])
        for reader, url in ((1, f"/play/{secrets[1]}/history?step={k}"),
                            (None, f"/watch/{token}/history?step={k}")):
            response = client.get(url)
            assert response.status_code == 200, (k, reader)
            page = response.get_data(as_text=True)
            expected = board_html(app, game, loaded.game.view(state, reader), reader, names)
            assert expected in page, (k, reader)
            assert f"Step {k} of {len(events)}" in page

