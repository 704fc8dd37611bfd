"""Privileged reads leave a trace: a site admin's view of a seat, of every move's content or
an export of a running game is noted (who, what, when) and shown to the players once the
game is over -- in its record and on its finished play and watch pages -- never before, and
the notes can be neither changed nor removed."""
from __future__ import annotations

import html
import json

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import DatabaseError

from service.core.tokens import spectate_token
from service.store import privileged_reads
from service.store.loading import load
from service.store.models import PrivilegedReadRow
from tests.service.test_admin_support import (GAME_EMAIL, GAME_PASSWORD, actor_of, login,
                                              make_admin, site_admin, svc)


def noted(app, game_id) -> list[privileged_reads.PrivilegedRead]:
    with svc(app).db.reading() as session:
        return privileged_reads.of_game(session, game_id)


def head_hash(app, game_id) -> str:
    with svc(app).db.reading() as session:
        return load(session, game_id).head_hash


def abandon(client, admin_headers, game_id):
    response = client.post(f"/admin/api/games/{game_id}/abandon", json={"reason": "we stop"},
                           headers=admin_headers)
    assert response.status_code == 200, response.get_json()


def record_of(client, secret) -> dict:
    response = client.get(f"/play/{secret}/record.json")
    assert response.status_code == 200, response.get_data(as_text=True)
    return json.loads(response.get_data())


def admin_number(app) -> str:
    return actor_of(app).partition(":")[2]


def test_a_seat_view_and_an_export_of_a_running_game_are_in_its_record_after_the_end(
        app, client, new_game, admin_headers):
    data, secrets = new_game(players=3)
    game_id = data["id"]
    site_admin(app, client)
    before = head_hash(app, game_id)
    assert client.get(f"/admin/games/{game_id}/at/1?seat=1").status_code == 200
    assert client.get(f"/admin/games/{game_id}/export").status_code == 200
    assert head_hash(app, game_id) == before  # the game's chain is as it was
    assert [(r.actor, r.what, r.seat, r.seq) for r in noted(app, game_id)] == [
        (actor_of(app), "seat", 1, 1), (actor_of(app), "export", None, 1)]
    abandon(client, admin_headers, game_id)
    reads = record_of(client, secrets[0])["privileged_reads"]
    number = admin_number(app)
    assert [(r["who"], r["what"]) for r in reads] == [
        (f"a Chasqui admin (admin {number})", "viewed P1's seat as it was after event 1 of the record"),
        (f"a Chasqui admin (admin {number})", "exported the game, with its seed, at event 1 of the record")]
    assert all(r["at"] == svc(app).clock().isoformat(timespec="seconds") for r in reads)
    assert "@" not in json.dumps(reads)  # an admin is named by number, never by address


def test_the_finished_play_and_watch_pages_list_the_reads_in_words(app, client, new_game,
                                                                    admin_headers):
    data, secrets = new_game(players=3)
    game_id = data["id"]
    site_admin(app, client)
    client.get(f"/admin/games/{game_id}/at/1?seat=2")
    abandon(client, admin_headers, game_id)
    watch = f"/watch/{spectate_token(svc(app).settings.secret_key, game_id)}"
    for path in (f"/play/{secrets[0]}", watch):
        page = html.unescape(client.get(path).get_data(as_text=True))
        assert "Reads by Chasqui's admins while the game ran:" in page, path
        assert (f"a Chasqui admin (admin {admin_number(app)}) viewed P2's seat as it was after"
                " event 1 of the record") in page


def test_a_finished_game_without_reads_says_none(app, client, new_game, admin_headers):
    data, secrets = new_game(players=3)
    abandon(client, admin_headers, data["id"])
    page = html.unescape(client.get(f"/play/{secrets[0]}").get_data(as_text=True))
    assert "Reads by Chasqui's admins while the game ran: none." in page
    assert record_of(client, secrets[0])["privileged_reads"] == []


def test_while_the_game_runs_its_players_are_not_told_which_seat_was_viewed(app, client, new_game):
    data, secrets = new_game(players=3)
    site_admin(app, client)
    client.get(f"/admin/games/{data['id']}/at/1?seat=1")
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    assert "privileged-reads" not in page and "Reads by Chasqui" not in page


def test_the_admin_api_seat_view_export_and_log_of_a_running_game_are_noted(
        app, client, new_game, admin_headers):
    data, _secrets = new_game(players=3)
    game_id = data["id"]
    for path in (f"at/1?seat=0", "export", ""):
        response = client.get(f"/admin/api/games/{game_id}/{path}".rstrip("/"), headers=admin_headers)
        assert response.status_code == 200, path
    assert [(r.actor, r.what, r.seat) for r in noted(app, game_id)] == [
        ("admin", "seat", 0), ("admin", "export", None), ("admin", "log", None)]


def test_the_operators_read_of_every_events_payload_is_noted(app, client, new_game,
                                                              admin_headers):
    data, _secrets = new_game(players=3)
    assert client.get(f"/api/games/{data['id']}", headers=admin_headers).status_code == 200
    assert [(r.actor, r.what) for r in noted(app, data["id"])] == [("admin", "log")]


def test_the_site_admins_game_page_with_every_moves_content_is_noted(app, client, new_game):
    data, _secrets = new_game(players=3)
    site_admin(app, client)
    assert client.get(f"/admin/games/{data['id']}").status_code == 200
    assert [r.what for r in noted(app, data["id"])] == ["log"]


def test_the_same_read_again_at_the_same_point_is_noted_once(app, client, new_game):
    data, secrets = new_game(players=3)
    game_id = data["id"]
    site_admin(app, client)
    for _ in range(2):
        client.get(f"/admin/games/{game_id}")
        client.get(f"/admin/games/{game_id}/at/1?seat=1")
    client.get(f"/admin/games/{game_id}/at/1?seat=2")  # another seat: a new read
    response = client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 1})
    assert response.status_code == 200, response.get_json()
    client.get(f"/admin/games/{game_id}")  # the log after a new move: a new read
    assert [(r.what, r.seat, r.seq) for r in noted(app, game_id)] == [
        ("log", None, 1), ("seat", 1, 1), ("seat", 2, 1), ("log", None, 2)]


def test_reads_of_a_finished_revealed_game_are_not_noted(app, client, new_game, admin_headers):
    data, _secrets = new_game(players=3)
    game_id = data["id"]
    abandon(client, admin_headers, game_id)
    site_admin(app, client)
    for path in ("", "/export", "/at/1?seat=1"):
        assert client.get(f"/admin/games/{game_id}{path}").status_code == 200, path
    assert client.get(f"/admin/api/games/{game_id}/export", headers=admin_headers).status_code == 200
    assert noted(app, game_id) == []


def test_public_views_note_nothing(app, client, new_game):
    data, secrets = new_game(players=3)
    game_id = data["id"]
    site_admin(app, client)
    watch = f"/watch/{spectate_token(svc(app).settings.secret_key, game_id)}"
    for path in (f"/admin/games/{game_id}/at/1", watch, f"/play/{secrets[0]}", "/admin/"):
        assert client.get(path).status_code == 200, path
    assert noted(app, game_id) == []


def test_a_game_admin_who_is_no_site_admin_may_not_view_a_seat_and_notes_nothing(
        app, client, new_game):
    data, _secrets = new_game(players=3)
    game_id = data["id"]
    make_admin(app, GAME_EMAIL, GAME_PASSWORD, games=[game_id])
    login(client, GAME_EMAIL, GAME_PASSWORD)
    assert client.get(f"/admin/games/{game_id}/at/1?seat=1").status_code == 403
    assert client.get(f"/admin/api/games/{game_id}/at/1?seat=1").status_code == 403
    assert client.get(f"/admin/games/{game_id}/export").status_code == 403
    assert client.get(f"/admin/games/{game_id}").status_code == 200  # without the moves' content
    assert noted(app, game_id) == []


@pytest.mark.parametrize("statement", [
    "UPDATE privileged_reads SET actor = 'admin:99'",
    "DELETE FROM privileged_reads"])
def test_a_noted_read_can_be_neither_changed_nor_removed(app, client, new_game, admin_headers,
                                                         statement):
    data, _secrets = new_game(players=3)
    client.get(f"/admin/api/games/{data['id']}/export", headers=admin_headers)
    with pytest.raises(DatabaseError, match="append-only"):
        with svc(app).db.unit_of_work() as session:
            session.execute(text(statement))
    with svc(app).db.reading() as session:
        assert session.scalars(select(PrivilegedReadRow.actor)).all() == ["admin"]


def test_the_finished_page_lists_the_reads_in_the_readers_language(app, client, new_game,
                                                                    admin_headers):
    data, secrets = new_game(players=3)
    site_admin(app, client)
    client.get(f"/admin/games/{data['id']}/export")
    abandon(client, admin_headers, data["id"])
    page = client.get(f"/play/{secrets[0]}?lang=ja").get_data(as_text=True)
    assert "ゲーム進行中の Chasqui 管理者による閲覧：" in page
    assert f"Chasqui の管理者（管理者 {admin_number(app)}）" in page
    assert "ゲームをシードごとエクスポートしました" in page


def test_a_site_admin_is_told_that_reads_of_a_running_game_are_recorded(app, client, new_game,
                                                                         admin_headers):
    data, _secrets = new_game(players=3)
    game_id = data["id"]
    site_admin(app, client)
    for path in ("", "/at/1"):
        assert 'id="reads-recorded"' in client.get(f"/admin/games/{game_id}{path}").get_data(as_text=True)
    abandon(client, admin_headers, game_id)
    for path in ("", "/at/1"):
        assert 'id="reads-recorded"' not in client.get(f"/admin/games/{game_id}{path}").get_data(as_text=True)
