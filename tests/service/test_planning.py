"""Multi-step turns as one planned sequence with a preview; standing orders on the
page;: a player's time zone."""
from __future__ import annotations

import json
import re
from html import unescape

from tests.service.test_play_pages import form_fields
from service.web.extensions import services


def events(client, admin_headers, game_id):
    return client.get(f"/api/games/{game_id}", headers=admin_headers).get_json()["events"]


def planned_actions(html: str) -> list:
    return json.loads(unescape(re.search(r'name="actions" value="([^"]*)"', html).group(1)))


def test_a_plan_previews_steps_and_confirms_them_in_one_transaction(client, admin_headers, new_game):
    data, secrets = new_game(game="machu_picchu", players=2, seed=4)
    page = client.get(f"/play/{secrets[0]}/plan?steps=0")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    first = planned_actions(html)
    assert len(first) == 1
    before = len(events(client, admin_headers, data["id"]))
    assert before == 1, "a preview changes nothing"
    second_link = re.findall(r'href="(/play/[^"]+/plan\?steps=0\.\d+)"', html)
    html2 = client.get(unescape(second_link[0])).get_data(as_text=True) if second_link else html
    actions = planned_actions(html2)
    token = form_fields(html2)["csrf_token"]
    response = client.post(f"/play/{secrets[0]}/plan", data={
        "csrf_token": token, "seq": "1", "actions": json.dumps(actions)})
    assert response.status_code == 303
    after = events(client, admin_headers, data["id"])
    assert [e["payload"]["action"] for e in after[1:]] == [
        {k: v for k, v in a.items() if k != "label"} for a in actions]


def test_a_plan_with_an_illegal_step_makes_no_step_at_all(client, admin_headers, new_game):
    data, secrets = new_game(game="machu_picchu", players=2, seed=4)
    html = client.get(f"/play/{secrets[0]}/plan?steps=0").get_data(as_text=True)
    actions = planned_actions(html) + [{"type": "no-such-step"}]
    response = client.post(f"/play/{secrets[0]}/plan", data={
        "csrf_token": form_fields(html)["csrf_token"], "seq": "1", "actions": json.dumps(actions)},
        follow_redirects=True)
    assert "no step was made" in response.get_data(as_text=True)
    assert len(events(client, admin_headers, data["id"])) == 1


def test_a_plan_never_previews_past_a_reveal(client, new_game):
    """Incan Gold: the last seat's choice reveals everyone's; the plan stops before it."""
    data, secrets = new_game(game="incan_gold", players=3, seed=4)
    client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "stay"}, "seq": 1})
    client.post(f"/api/play/{secrets[2]}", json={"action": {"type": "stay"}, "seq": 1})
    path_before = client.get(f"/api/play/{secrets[0]}").get_json()["view"]["path"]
    html = client.get(f"/play/{secrets[0]}/plan?steps=0").get_data(as_text=True)
    assert "result is shown after you confirm" in html
    assert html.count('class="card') >= 0
    after = client.get(f"/api/play/{secrets[0]}").get_json()["view"]["path"]
    assert after == path_before, "the preview drew nothing for real"
    refused = client.get(f"/play/{secrets[0]}/plan?steps=0.0", follow_redirects=True)
    assert "must be the last" in refused.get_data(as_text=True)


def test_a_malformed_plan_link_is_refused_without_change(client, admin_headers, new_game):
    data, secrets = new_game(game="machu_picchu", players=2, seed=4)
    for steps in ("x", "-1", "999", ".".join(["0"] * 50)):
        response = client.get(f"/play/{secrets[0]}/plan?steps={steps}", follow_redirects=True)
        assert "Not done" in response.get_data(as_text=True)
    assert len(events(client, admin_headers, data["id"])) == 1


def test_standing_orders_are_set_from_the_page_and_recorded_as_a_move(client, admin_headers, new_game):
    data, secrets = new_game(game="machu_picchu", players=3, seed=4)
    page = client.get(f"/play/{secrets[2]}").get_data(as_text=True)
    assert "Standing orders" in page
    response = client.post(f"/play/{secrets[2]}/standing", data={
        "csrf_token": form_fields(page)["csrf_token"], "produce": "always",
        "temple_sacrifice": "none", "main_temple": "ask"})
    assert response.status_code == 303
    last = events(client, admin_headers, data["id"])[-1]
    assert last["kind"] == "MoveMade" and last["payload"]["seat"] == 2
    assert last["payload"]["action"]["orders"]["produce"] == "always"
    view = client.get(f"/api/play/{secrets[2]}").get_json()["view"]
    assert view["standing_orders"]["produce"] == "always"
    bad = client.post(f"/play/{secrets[2]}/standing", data={
        "csrf_token": form_fields(page)["csrf_token"], "produce": "sometimes"}, follow_redirects=True)
    assert "Not done" in bad.get_data(as_text=True)


def test_a_player_chooses_a_time_zone_for_their_deadlines(app, client, new_game):
    from service.web.zones import local_time, zone_name
    data, secrets = new_game(players=3)
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    token = form_fields(page)["csrf_token"]
    bad = client.post(f"/play/{secrets[0]}/timezone", data={"csrf_token": token, "timezone": "Mars/Olympus"},
                      follow_redirects=True)
    assert "unknown time zone" in bad.get_data(as_text=True)
    client.post(f"/play/{secrets[0]}/timezone", data={"csrf_token": token, "timezone": "Asia/Tokyo"})
    with services(app).db.reading() as session:
        assert zone_name(session, data["id"], 0) == "Asia/Tokyo"
        assert zone_name(session, data["id"], 1) == "UTC"
    from datetime import datetime, timezone
    assert local_time(datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc), "Asia/Tokyo") == "Tue 01 Dec 2026 21:00 JST"


def test_deadlines_show_in_the_players_time_zone_on_the_page_and_in_mail(app, client, new_game):
    """"an absolute time in the player's time zone and as 'in 1 day 3 h'"."""
    from tests.service.test_mail import mails
    data, secrets = new_game(players=3)
    token = form_fields(client.get(f"/play/{secrets[1]}").get_data(as_text=True))["csrf_token"]
    client.post(f"/play/{secrets[1]}/timezone", data={"csrf_token": token, "timezone": "Asia/Tokyo"})
    page = client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    assert "Tue 01 Dec 2026 21:00 JST" in page and 'value="Asia/Tokyo"' in page
    for seat in range(3):
        client.post(f"/api/play/{secrets[seat]}", json={"action": {"type": "stay"}, "seq": 1})
    newest = mails(app, "p1@example.com")[-1].get_body(("plain",)).get_content()
    assert "JST" in newest and "(in " in newest
    other = mails(app, "p2@example.com")[-1].get_body(("plain",)).get_content()
    assert "UTC" in other
