"""The audit log, time travel, export/import and tamper evidence."""
from __future__ import annotations

import io
import json

from flask import render_template
from sqlalchemy import text

from service.store.loading import load
from service.view.presenter import seat_context
from tests.conftest import make_settings, migrated_app
from tests.service.test_admin_support import (csrf_token, events, move, post_form, site_admin,
                                              svc)
from service.web.extensions import services


def play_until_tents_fill(client, secrets):
    """Everyone stays (a card is revealed), then everyone leaves with gems for their tent."""
    for seat in range(3):
        assert move(client, secrets[seat], "stay", 1 + seat).status_code == 200
    for seat in range(3):
        assert move(client, secrets[seat], "leave", 4 + seat).status_code == 200
    return 7


def test_the_log_tells_every_event_in_words_with_its_hash_and_public_changes(client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    log = client.get(f"/admin/api/games/{data['id']}", headers=admin_headers).get_json()
    assert log["chain"] == {"ok": True, "events": 2, "broken_at": None, "reason": ""}
    created, moved = log["log"]
    assert created["kind"] == "GameCreated" and "Incan Gold for P0, P1, P2" in created["words"]
    assert moved["who"] == "P0" and moved["actor"] == "seat:0"
    assert moved["words"] == "P0: Stay in the temple"  # the token is a site admin's
    assert moved["verified"] and moved["hash"] == events(client, admin_headers, data["id"])[1]["hash"]
    changes = {c["path"]: (c["before"], c["after"]) for c in moved["changes"]}
    assert changes["players[0].decided"] == ("false", "true")
    assert "to_act[0]" in changes


def test_an_edited_event_row_fails_verify_on_the_cli_and_on_the_page(app, client, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    move(client, secrets[1], "stay", 1)
    runner = app.test_cli_runner()
    assert runner.invoke(args=["chasqui", "verify", data["id"]]).exit_code == 0
    with svc(app).db.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER events_no_update"))
        conn.execute(text("UPDATE events SET actor = 'seat:2' WHERE game_id = :g AND seq = 2"),
                     {"g": data["id"]})
    result = runner.invoke(args=["chasqui", "verify", data["id"]])
    assert result.exit_code == 1 and "BROKEN at event 2" in result.output
    page = client.get(f"/admin/games/{data['id']}").get_data(as_text=True)
    assert "BROKEN at step 2: hash does not match content" in page
    assert page.count("does not verify") == 1


def test_the_audit_never_shows_a_hidden_tent_or_choice(app, client, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3, seed=42)
    head = play_until_tents_fill(client, secrets)
    move(client, secrets[0], "stay", head)  # a secret choice, not revealed yet
    with svc(app).db.reading() as session:
        loaded = load(session, data["id"])
    tents = [p["tent"] for p in loaded.state["players"]]
    assert any(tents), "the test needs gems in the tents"
    log = client.get(f"/admin/api/games/{data['id']}").get_json()["log"]
    secret = [c for entry in log for c in entry["changes"]
              if c["path"].endswith(".tent") or "your_choice" in c["path"]]
    assert secret and all(c["before"] in ("—", "null") and c["after"] == "null" for c in secret)
    public = client.get(f"/admin/api/games/{data['id']}/at/{head + 1}").get_json()["view"]
    assert [p["tent"] for p in public["players"]] == [None, None, None]
    assert public["your_choice"] is None
    # Only a site admin who asks for a seat's view sees that seat's tent (and no other).
    seat0 = client.get(f"/admin/api/games/{data['id']}/at/{head + 1}?seat=0").get_json()["view"]
    assert [p["tent"] for p in seat0["players"]] == [tents[0], None, None]
    assert seat0["your_choice"] == "stay"


def test_time_travel_shows_a_seat_the_same_rendering_the_player_gets(app, client, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3, seed=42)
    play_until_tents_fill(client, secrets)
    page = client.get(f"/admin/games/{data['id']}/at/7?seat=1")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    with app.test_request_context():
        with svc(app).db.reading() as session:
            loaded = load(session, data["id"], upto=7)
        expected = render_template("pages/_view.html", **seat_context(svc(app).settings, loaded, 1))
    assert expected.strip() in html
    assert secrets[1] not in html, "an admin's view carries no secret link of the seat"
    assert client.get(f"/admin/games/{data['id']}/at/3").status_code == 200
    assert client.get(f"/admin/games/{data['id']}/at/99").status_code == 404
    assert client.get(f"/admin/games/{data['id']}/at/3?seat=7").status_code == 404


def test_a_get_of_any_admin_page_changes_nothing(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    before = events(client, admin_headers, data["id"])
    for url in ("/admin/", f"/admin/games/{data['id']}", f"/admin/games/{data['id']}/at/2?seat=0",
                f"/admin/games/{data['id']}/export", f"/admin/games/{data['id']}/rollback"):
        client.get(url)
    assert events(client, admin_headers, data["id"]) == before


def test_dashboard_lists_and_filters_games(app, client, new_game):
    site_admin(app, client)
    first, secrets = new_game(players=3)
    second, _ = new_game(players=3)
    post_form(client, second["id"], "pause", reason="holiday")
    page = client.get("/admin/").get_data(as_text=True)
    assert first["id"] in page and second["id"] in page and "P0, P1, P2" in page
    paused = client.get("/admin/?status=paused").get_data(as_text=True)
    assert second["id"] in paused and first["id"] not in paused
    assert first["id"] not in client.get("/admin/?game=machu_picchu").get_data(as_text=True)
    assert second["id"] not in client.get(f"/admin/?q={first['id']}").get_data(as_text=True)


def test_game_page_shows_mail_delivery_per_seat(app, client, new_game):
    from service.store.models import OutboxRow
    site_admin(app, client)
    data, _ = new_game(players=3)
    with svc(app).db.unit_of_work() as session:
        row = session.query(OutboxRow).filter_by(game_id=data["id"], seat=1).one()
        row.status, row.last_error = "bounced", "550 no such user"
        row2 = session.query(OutboxRow).filter_by(game_id=data["id"], seat=2).one()
        row2.status, row2.attempts, row2.last_error = "pending", 3, "421 try later"
    page = client.get(f"/admin/games/{data['id']}").get_data(as_text=True)
    assert "550 no such user" in page and "421 try later" in page and "3 attempts" in page
    assert "sent: 1" in page and "bounced: 1" in page and "pending: 1" in page


def export_of(client, headers, game_id):
    response = client.get(f"/admin/api/games/{game_id}/export", headers=headers)
    assert response.status_code == 200
    return response.get_json()


def test_export_and_import_elsewhere_reproduces_the_game_exactly(app, client, admin_headers, new_game, tmp_path, clock):
    data, secrets = new_game(players=3, seed=7)
    play_until_tents_fill(client, secrets)
    client.post(f"/admin/api/games/{data['id']}/rollback", headers=admin_headers,
                json={"to_seq": 5, "reason": "dispute"})
    exported = export_of(client, admin_headers, data["id"])
    assert [e["seq"] for e in exported["events"]] == list(range(1, 9))
    (tmp_path / "elsewhere").mkdir()
    other = migrated_app(make_settings(tmp_path / "elsewhere"), clock=clock)
    try:
        there = other.test_client()
        response = there.post("/admin/api/games/import", json=exported, headers=admin_headers)
        assert response.status_code == 201, response.get_json()
        here = events(client, admin_headers, data["id"])
        copied = events(there, admin_headers, data["id"])
        assert copied[:-1] == here
        assert copied[-1]["kind"] == "GameImported" and copied[-1]["actor"] == "admin"
        assert copied[-1]["payload"]["source_last_hash"] == here[-1]["hash"]
        again_exported = export_of(there, admin_headers, data["id"])
        assert again_exported["events"][:-1] == exported["events"]
        with svc(app).db.reading() as s1, svc(other).db.reading() as s2:
            assert load(s1, data["id"]).state == load(s2, data["id"]).state
        assert other.test_cli_runner().invoke(args=["chasqui", "verify", data["id"]]).exit_code == 0
        again = there.post("/admin/api/games/import", json=exported, headers=admin_headers)
        assert again.status_code == 409 and "exists" in again.get_json()["error"]
    finally:
        services(other).db.dispose()


def test_import_refuses_a_broken_chain_and_creates_nothing(app, client, admin_headers, new_game, tmp_path, clock):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    exported = export_of(client, admin_headers, data["id"])
    (tmp_path / "elsewhere").mkdir()
    other = migrated_app(make_settings(tmp_path / "elsewhere"), clock=clock)
    try:
        there = other.test_client()
        forged = json.loads(json.dumps(exported))
        forged["events"][1]["payload"]["action"] = {"type": "leave"}
        response = there.post("/admin/api/games/import", json=forged, headers=admin_headers)
        assert response.status_code == 400 and "broken at seq 2" in response.get_json()["error"]
        assert there.get(f"/api/games/{data['id']}", headers=admin_headers).status_code == 404
        for bad in ({}, {"format": "chasqui-game", "version": 1, "game": {"id": "x"}, "events": []},
                    {**exported, "seats": exported["seats"][:2]}):
            assert there.post("/admin/api/games/import", json=bad, headers=admin_headers).status_code == 400
        assert there.get(f"/api/games/{data['id']}", headers=admin_headers).status_code == 404
    finally:
        services(other).db.dispose()


def test_import_by_file_upload_on_the_dashboard(app, client, admin_headers, new_game, tmp_path, clock):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    exported = export_of(client, admin_headers, data["id"])
    (tmp_path / "elsewhere").mkdir()
    other = migrated_app(make_settings(tmp_path / "elsewhere"), clock=clock)
    try:
        there = other.test_client()
        site_admin(other, there)
        upload = (io.BytesIO(json.dumps(exported).encode()), "game.json")
        response = there.post("/admin/import", data={"csrf_token": csrf_token(there, "/admin/"),
                                                     "file": upload},
                              content_type="multipart/form-data")
        assert response.status_code == 303, response.get_data(as_text=True)
        page = there.get(response.headers["Location"]).get_data(as_text=True)
        assert "verifies (3 events)" in page  # the copied two, and the import's mark
    finally:
        services(other).db.dispose()
