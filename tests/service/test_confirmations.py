"""A confirmation names the player's own move, never a later event of another seat: in a game
with a bot seat, the bot acts in the same command right after the player, and its choice may
be secret until the reveal."""
from __future__ import annotations

import html
import re

from tests.service.test_admin_support import events, post_form, site_admin

BOT_STAYS = "Stay in the temple"


def confirm_fields(client, secret, seq, index) -> dict:
    page = client.get(f"/play/{secret}/a/{seq}/{index}").get_data(as_text=True)
    return {k: html.unescape(v)
            for k, v in re.findall(r'name="(csrf_token|seq|action)" value="([^"]*)"', page)}


def flashes(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r'<p class="flash [a-z]+" role="status">([^<]*)</p>', page)]


def game_with_a_bot(app, client, admin_headers, new_game):
    """Seats 0 and 1 are people, seat 2 a bot; seat 0 has stayed, seat 1 is last to choose."""
    site_admin(app, client)
    data, secrets = new_game(players=3)
    assert post_form(client, data["id"], "seats/2/bot", seq="1").status_code == 303
    assert client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 3}).status_code == 200
    return data, secrets


def test_the_flash_after_a_move_names_the_players_move_not_the_bots_that_followed(app, client, admin_headers, new_game):
    data, secrets = game_with_a_bot(app, client, admin_headers, new_game)
    response = client.post(f"/play/{secrets[1]}/move", data=confirm_fields(client, secrets[1], 4, 1))
    assert response.status_code == 303
    log = events(client, admin_headers, data["id"])
    assert log[-1]["actor"] == "bot" and log[-1]["payload"]["label"] == BOT_STAYS, \
        "the bot chose after the reveal, in the same command"
    shown = flashes(client.get(response.headers["Location"]).get_data(as_text=True))
    assert shown == ["Done: Leave for camp"]


def test_the_json_answer_to_a_move_names_the_players_own_move(app, client, admin_headers, new_game):
    data, secrets = game_with_a_bot(app, client, admin_headers, new_game)
    answer = client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "leave"}, "seq": 4}).get_json()
    log = events(client, admin_headers, data["id"])
    assert log[-1]["actor"] == "bot"
    assert answer["move"] == {"seq": 5, "label": "Leave for camp"}
    assert log[4]["actor"] == "seat:1" and log[4]["seq"] == 5
