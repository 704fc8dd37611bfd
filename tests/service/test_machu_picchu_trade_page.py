"""The Princes of Machu Picchu's plaza on the play page: common trades are buttons, and a form
composes any whole exchange (a GET that only shows the trade) whose button makes it."""
from __future__ import annotations

import html
import json
import re

from engine.games.machu_picchu.plaza import trade


def events(client, admin_headers, game_id):
    return client.get(f"/api/games/{game_id}", headers=admin_headers).get_json()["events"]


def play(client, secret: str, **action):
    seq = client.get(f"/api/play/{secret}").get_json()["seq"]
    return client.post(f"/api/play/{secret}", json={"action": action, "seq": seq})


def at_the_plaza(client, new_game):
    """Two seats placed their free Incas; seat 0's Prince starts on the Central Plaza."""
    data, secrets = new_game(game="machu_picchu", players=2, seed=7)
    for secret in secrets:
        assert play(client, secret, type="place_free", district="corn_terraces").status_code == 200
    assert play(client, secrets[0], type="move", to="central_plaza").status_code == 200
    return data, secrets


def composed_form(page: str) -> dict:
    """The fields of the form whose button makes the composed trade."""
    form = re.search(r'(?s)<form method="post"[^>]*>(?:(?!</form>).)*Make this trade', page)
    assert form, "no button makes the composed trade"
    return {k: html.unescape(v) for k, v in
            re.findall(r'name="(csrf_token|seq|action)" value="([^"]*)"', form.group(0))}


def test_the_page_offers_the_trade_form_and_common_trades(client, new_game):
    _, secrets = at_the_plaza(client, new_game)
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    assert "Compose a trade" in page and 'name="sell_cloth"' in page
    assert "Sell 1 cloth for 4 corn" in page and "Leave the market without trading" in page
    assert "Make this trade" not in page            # nothing composed yet


def test_a_composed_trade_is_shown_then_made_by_its_button(client, admin_headers, new_game):
    data, secrets = at_the_plaza(client, new_game)
    before = events(client, admin_headers, data["id"])
    shown = client.get(f"/play/{secrets[0]}?adjust=remove:coca&sell_cloth=1&sell_pottery=1"
                       f"&buy_llama=1").get_data(as_text=True)
    assert events(client, admin_headers, data["id"]) == before      # composing changes nothing
    assert "Remove 1 coca from the market to the bank, Sell 1 pottery, Sell 1 cloth, Buy 1 llama" \
        in shown
    fields = composed_form(shown)
    wanted = trade(sell={"cloth": 1, "pottery": 1}, buy={"llama": 1}, remove="coca")
    assert json.loads(fields["action"]) == wanted
    response = client.post(f"/play/{secrets[0]}/move", data=fields)
    assert response.status_code == 303
    last = events(client, admin_headers, data["id"])[-1]
    assert last["kind"] == "MoveMade" and last["payload"]["action"] == wanted


def test_a_trade_the_seat_cannot_pay_is_refused_with_words_and_changes_nothing(
        client, admin_headers, new_game):
    data, secrets = at_the_plaza(client, new_game)
    before = events(client, admin_headers, data["id"])
    refused = play(client, secrets[0], **trade(buy={"llama": 4}))
    assert refused.status_code in (400, 409, 422)
    assert "too little corn" in json.dumps(refused.get_json())
    assert events(client, admin_headers, data["id"]) == before


def test_garbage_in_the_trade_form_composes_nothing_and_the_page_still_shows(client, new_game):
    _, secrets = at_the_plaza(client, new_game)
    page = client.get(f"/play/{secrets[0]}?adjust=steal:gold&sell_cloth=-1&buy_llama=abc"
                      f"&buy_coca=100000&sell_corn=3")
    assert page.status_code == 200
    assert "Make this trade" not in page.get_data(as_text=True)
