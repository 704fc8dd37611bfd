"""The JSON API: create, read, move; every bad input a clear 4xx and no new event."""
from __future__ import annotations

from tests.conftest import ADMIN_TOKEN


def event_count(client, admin_headers, game_id):
    return len(client.get(f"/api/games/{game_id}", headers=admin_headers).get_json()["events"])


def test_create_game_returns_id_and_a_play_url_per_seat(new_game):
    data, secrets = new_game(players=4)
    assert data["id"] and len(data["seats"]) == 4
    assert all(s["play_url"].startswith("http://chasqui.test/play/") for s in data["seats"])
    assert len(set(secrets)) == 4


def test_game_status_lists_events_with_hash_chain(client, admin_headers, new_game):
    data, _ = new_game()
    status = client.get(f"/api/games/{data['id']}", headers=admin_headers).get_json()
    assert status["seq"] == 1 and status["status"] == "active"
    assert status["to_act"] == [0, 1, 2, 3]
    first = status["events"][0]
    assert first["kind"] == "GameCreated" and first["prev_hash"] == "0" * 64
    assert first["payload"]["players"] == ["P0", "P1", "P2", "P3"]
    assert "seed" not in first["payload"]  # GameCreated publishes a commitment to it only
    assert len(first["payload"]["randomness"]["commitment"]) == 64


def test_seat_sees_its_view_and_legal_actions(client, new_game):
    _, secrets = new_game()
    data = client.get(f"/api/play/{secrets[1]}").get_json()
    assert data["seat"] == 1 and data["seq"] == 1 and data["game"] == "incan_gold"
    assert {a["type"] for a in data["legal_actions"]} == {"stay", "leave"}
    assert data["view"]["you"] == 1


def test_a_move_appends_one_event_and_returns_the_new_seq(client, admin_headers, new_game):
    data, secrets = new_game()
    response = client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 1})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["seq"] == 2
    status = client.get(f"/api/games/{data['id']}", headers=admin_headers).get_json()
    move = status["events"][-1]
    assert move["kind"] == "MoveMade" and move["payload"]["seat"] == 0
    assert move["payload"]["action"] == {"type": "stay"} and move["payload"]["seq_seen"] == 1
    assert move["prev_hash"] == status["events"][0]["hash"]


def test_other_seats_secret_choices_do_not_make_a_link_stale(client, admin_headers, new_game):
    """A mail's links were made at the start of a simultaneous decision; the others choosing
    first changes nothing this seat decides on, so the link still works."""
    data, secrets = new_game()
    client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 1})
    response = client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "stay"}, "seq": 1})
    assert response.status_code == 200, response.get_json()
    assert event_count(client, admin_headers, data["id"]) == 3


def test_stale_seq_after_a_reveal_is_409_and_changes_nothing(client, admin_headers, new_game):
    data, secrets = new_game()
    for seat in range(4):
        assert client.post(f"/api/play/{secrets[seat]}",
                           json={"action": {"type": "stay"}, "seq": 1 + seat}).status_code == 200
    response = client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "leave"}, "seq": 1})
    assert response.status_code == 409
    assert "moved on" in response.get_json()["error"]
    assert event_count(client, admin_headers, data["id"]) == 5


def test_double_submit_is_409_saying_it_was_already_recorded(client, admin_headers, new_game):
    data, secrets = new_game()
    body = {"action": {"type": "stay", "label": "Stay in the temple"}, "seq": 1}
    assert client.post(f"/api/play/{secrets[0]}", json=body).status_code == 200
    again = client.post(f"/api/play/{secrets[0]}", json=body)
    assert again.status_code == 409 and "already recorded" in again.get_json()["error"]
    assert event_count(client, admin_headers, data["id"]) == 2


def test_illegal_action_is_400_with_a_clear_message(client, admin_headers, new_game):
    data, secrets = new_game()
    response = client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "fly"}, "seq": 1})
    assert response.status_code == 400 and "not a legal action" in response.get_json()["error"]
    assert event_count(client, admin_headers, data["id"]) == 1


def test_acting_twice_in_one_simultaneous_decision_is_refused(client, admin_headers, new_game):
    data, secrets = new_game()
    client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 1})
    response = client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "leave"}, "seq": 2})
    assert response.status_code == 400 and "not your turn" in response.get_json()["error"]
    assert event_count(client, admin_headers, data["id"]) == 2


def test_malformed_json_is_400(client, new_game):
    _, secrets = new_game()
    for body in (b"{not json", b"[]", b'"x"'):
        response = client.post(f"/api/play/{secrets[0]}", data=body,
                               content_type="application/json")
        assert response.status_code == 400 and "JSON object" in response.get_json()["error"]
    response = client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}})
    assert response.status_code == 400
    response = client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": "1"})
    assert response.status_code == 400


def test_forged_secret_is_403(client, new_game):
    _, secrets = new_game()
    forged = secrets[0][:-3] + ("AAA" if not secrets[0].endswith("AAA") else "BBB")
    assert client.get(f"/api/play/{forged}").status_code == 403
    response = client.post(f"/api/play/{forged}", json={"action": {"type": "stay"}, "seq": 1})
    assert response.status_code == 403
    assert client.get("/api/play/garbage").status_code == 403


def test_secret_signed_with_another_key_is_403(client, new_game):
    from service.core.tokens import make_secret
    data, _ = new_game()
    assert client.get(f"/api/play/{make_secret('other-key', data['id'], 0, 'x')}").status_code == 403


def test_unknown_game_and_wrong_player_count_are_400(client, admin_headers):
    players = [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(2)]
    unknown = client.post("/api/games", json={"game": "chess", "players": players}, headers=admin_headers)
    assert unknown.status_code == 400 and "unknown game" in unknown.get_json()["error"]
    few = client.post("/api/games", json={"game": "incan_gold", "players": players}, headers=admin_headers)
    assert few.status_code == 400 and "3–8 players" in few.get_json()["error"]


def test_bad_player_list_is_400(client, admin_headers):
    for players in (None, [], [{"name": "A"}], [{"email": "a@b.c"}], "x"):
        response = client.post("/api/games", json={"game": "incan_gold", "players": players},
                               headers=admin_headers)
        assert response.status_code == 400


def test_creating_or_reading_a_game_needs_the_admin_token(client, new_game):
    data, _ = new_game()
    body = {"game": "incan_gold", "players": [{"name": "A", "email": "a@x.y"}] * 3}
    assert client.post("/api/games", json=body).status_code == 403
    assert client.post("/api/games", json=body, headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.get(f"/api/games/{data['id']}").status_code == 403
    assert client.get(f"/api/games/{data['id']}",
                      headers={"Authorization": f"Bearer {ADMIN_TOKEN}x"}).status_code == 403


def test_unknown_game_id_is_404(client, admin_headers):
    assert client.get("/api/games/nope", headers=admin_headers).status_code == 404
