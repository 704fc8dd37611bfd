"""The public spectator link (no secrets, no actions), and no rematch before the end
(the rematch by consent itself: ``test_rematch_by_consent``)."""
from __future__ import annotations

import re

from tests.conftest import secret_from_url
from tests.service.mail_kit import app, newest, smtp, text_of  # noqa: F401


def csrf(page_html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page_html).group(1)


def finish(client, secrets):
    for _ in range(500):
        state = client.get(f"/api/play/{secrets[0]}").get_json()
        if state["outcome"] is not None:
            return state
        for seat in state["to_act"]:
            mine = client.get(f"/api/play/{secrets[seat]}").get_json()
            client.post(f"/api/play/{secrets[seat]}",
                        json={"action": mine["legal_actions"][-1], "seq": mine["seq"]})
    raise AssertionError("the game did not end")


def test_the_spectator_link_shows_the_public_view_only(app, client, new_game, smtp):
    data, secrets = new_game(players=3)
    url = re.search(r"http://chasqui\.test/watch/\S+", text_of(newest(smtp, "p0@example.com"))).group(0)
    page = client.get(url.replace("http://chasqui.test", ""))
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Incan Gold" in html and "P0, P1, P2" in html
    assert "<form" not in html and "/play/" not in html
    assert not any(secret in html for secret in secrets)
    assert client.get("/watch/forged.token").status_code == 404


def test_no_rematch_before_the_end(app, client, new_game):
    _, secrets = new_game(players=3)
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    client.post(f"/play/{secrets[0]}/rematch", data={"csrf_token": csrf(page)})
    assert "only be asked for when the game is over" in client.get(f"/play/{secrets[0]}").get_data(as_text=True)


def test_every_game_can_be_watched(app, client, admin_headers):
    from engine import GAMES
    from service.core.tokens import spectate_token

    for name, game in GAMES.items():
        players = [{"name": f"N{i}", "email": f"n{i}@example.com"} for i in range(game.min_players)]
        created = client.post("/api/games", json={"game": name, "seed": 3, "players": players},
                              headers=admin_headers)
        assert created.status_code == 201, created.get_json()
        token = spectate_token("test-secret-key", created.get_json()["id"])
        page = client.get(f"/watch/{token}")
        assert page.status_code == 200, (name, page.get_data(as_text=True)[:500])
        assert "/play/" not in page.get_data(as_text=True)
