"""Play pages: a GET never changes a game; moves are CSRF-protected POSTs."""
from __future__ import annotations

import re


from tests.conftest import make_settings, migrated_app


def events(client, admin_headers, game_id):
    return client.get(f"/api/games/{game_id}", headers=admin_headers).get_json()["events"]


def form_fields(html: str) -> dict:
    return dict(re.findall(r'name="(csrf_token|seq|action)" value="([^"]*)"', html))


def unescape(value: str) -> str:
    import html
    return html.unescape(value)


def test_play_page_lists_the_legal_actions_as_post_forms(client, new_game):
    _, secrets = new_game()
    page = client.get(f"/play/{secrets[0]}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert html.count(f'action="/play/{secrets[0]}/move"') == 2
    assert "Stay in the temple" in html and "Leave for camp" in html


def test_following_every_link_with_get_changes_nothing(client, admin_headers, new_game):
    data, secrets = new_game()
    before = events(client, admin_headers, data["id"])
    for secret in secrets:
        client.get(f"/play/{secret}")
        for index in range(3):
            client.get(f"/play/{secret}/a/1/{index}")
    client.get(f"/play/{secrets[0]}/move")
    assert events(client, admin_headers, data["id"]) == before


def test_action_link_opens_a_confirmation_page_whose_button_makes_the_move(client, admin_headers, new_game):
    data, secrets = new_game()
    confirm = client.get(f"/play/{secrets[2]}/a/1/1")
    html = confirm.get_data(as_text=True)
    assert confirm.status_code == 200 and "Leave for camp" in html
    fields = {k: unescape(v) for k, v in form_fields(html).items()}
    response = client.post(f"/play/{secrets[2]}/move", data=fields)
    assert response.status_code == 303
    last = events(client, admin_headers, data["id"])[-1]
    assert last["kind"] == "MoveMade" and last["payload"]["seat"] == 2
    assert last["payload"]["action"] == {"type": "leave"}
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Done: Leave for camp" in page


def test_link_for_an_old_state_says_the_game_moved_on(client, new_game):
    _, secrets = new_game()
    for seat in range(4):
        client.post(f"/api/play/{secrets[seat]}", json={"action": {"type": "stay"}, "seq": 1 + seat})
    response = client.get(f"/play/{secrets[0]}/a/1/0")
    assert response.status_code == 409 and "moved on" in response.get_data(as_text=True)


def test_double_click_records_one_move(client, admin_headers, new_game):
    data, secrets = new_game()
    fields = {k: unescape(v) for k, v in form_fields(client.get(f"/play/{secrets[0]}/a/1/0").get_data(as_text=True)).items()}
    client.post(f"/play/{secrets[0]}/move", data=fields)
    second = client.post(f"/play/{secrets[0]}/move", data=fields, follow_redirects=True)
    assert "already recorded" in second.get_data(as_text=True)
    assert len(events(client, admin_headers, data["id"])) == 2


def test_forged_link_is_403_page(client, new_game):
    new_game()
    assert client.get("/play/not-a-secret").status_code == 403
    assert client.get("/play/not-a-secret/a/1/0").status_code == 403


def test_post_without_csrf_token_is_refused_and_changes_nothing(tmp_path, clock, admin_headers):
    app = migrated_app(make_settings(tmp_path), clock=clock)  # CSRF on, as in production
    client = app.test_client()
    body = {"game": "incan_gold", "seed": 1,
            "players": [{"name": f"P{i}", "email": f"p{i}@x.org"} for i in range(3)]}
    created = client.post("/api/games", json=body, headers=admin_headers).get_json()
    secret = created["seats"][0]["play_url"].rsplit("/", 1)[-1]
    response = client.post(f"/play/{secret}/move", data={"seq": "1", "action": '{"type": "stay"}'})
    assert response.status_code == 400
    assert len(client.get(f"/api/games/{created['id']}", headers=admin_headers).get_json()["events"]) == 1


def test_malformed_form_is_400(client, new_game):
    _, secrets = new_game()
    client.get(f"/play/{secrets[0]}")
    token = form_fields(client.get(f"/play/{secrets[0]}").get_data(as_text=True))["csrf_token"]
    response = client.post(f"/play/{secrets[0]}/move", data={"csrf_token": token, "seq": "x", "action": "{"})
    assert response.status_code == 400
