"""A seat's private notes: kept for the seat's present player only, outside the game's events.
No other seat's page, no mail, no other API answer, no admin page and no export shows them;
a move, an undo and a rollback leave them; a newcomer in a replaced seat starts with none."""
from __future__ import annotations

import re

from sqlalchemy import func, select

from service.core.tokens import spectate_token
from service.store import notes as notes_store
from service.store import preferences
from service.store.models import EventRow, LocalMailRow, SeatNoteRow
from tests.conftest import secret_from_url
from tests.service.test_admin_support import (accept_offer, events, login, mails, make_admin,
                                              move, post_form, seats, site_admin, svc, text_of,
                                              token_in)

MARKER = "ZQX-private-plan-7731"


def save_on_page(client, secret: str, text: str):
    token = token_in(client.get(f"/play/{secret}").get_data(as_text=True))
    return client.post(f"/play/{secret}/notes", data={"csrf_token": token, "notes": text})


def notes_of(client, secret: str) -> str:
    response = client.get(f"/api/play/{secret}/notes")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["notes"]


def every_mail(app) -> list[str]:
    with svc(app).db.reading() as session:
        return list(session.scalars(select(LocalMailRow.raw)))


def get_urls(app, game_id: str, secrets: list[str]) -> list[str]:
    """Every GET route of the app, filled in with this game's ids, every seat's secret and its
    public token (and each local mail's id): the outputs a marker must never reach."""
    key = svc(app).settings.secret_key
    with svc(app).db.reading() as session:
        mail_ids = list(session.scalars(select(LocalMailRow.id)))
    fills = {"game_id": [game_id], "secret": secrets, "seq": ["1", "2"], "index": ["0"],
             "seat": ["0", "1"], "token": [spectate_token(key, game_id),
                                           preferences.address_token(key, "p0@example.com")],
             "mail_id": [str(i) for i in mail_ids]}
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        paths = [rule.rule]
        for name in rule.arguments:
            if name not in fills:
                paths = []
                break
            paths = [re.sub(rf"<(\w+:)?{name}>", value, path) for path in paths
                     for value in fills[name]]
        urls += paths
    return urls


def test_notes_reach_no_other_page_mail_api_answer_admin_page_or_export(app, client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    game_id = data["id"]
    assert save_on_page(client, secrets[0], f"my plan: {MARKER}").status_code == 303
    assert MARKER in client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    assert MARKER in notes_of(client, secrets[0])
    for seat in range(3):  # a round is played, mail goes out to every seat
        assert move(client, secrets[seat], "stay", 1 + seat).status_code == 200
    make_admin(app)  # a site admin outside the game: sees every seat, exports
    login(client)
    assert post_form(client, game_id, "abandon", reason="end it").status_code == 303
    own = {f"/play/{secrets[0]}", f"/api/play/{secrets[0]}/notes"}
    checked = 0
    for url in get_urls(app, game_id, secrets):
        if url in own:
            continue
        for query in ("", "?seat=0"):
            response = client.get(url + query, headers=admin_headers)
            assert MARKER.encode() not in response.get_data(), url + query  # bytes: an icon is no text
            checked += 1
    assert checked > 40
    for url in (f"/admin/games/{game_id}/export", f"/admin/api/games/{game_id}/export",
                f"/play/{secrets[1]}/record.json", f"/api/games/{game_id}",
                f"/admin/games/{game_id}/at/4?seat=0"):
        assert client.get(url, headers=admin_headers).status_code == 200, url
    assert all(MARKER not in raw for raw in every_mail(app)) and every_mail(app)
    with svc(app).db.reading() as session:
        payloads = [str(e.payload) + str(e.sealed) for e in session.scalars(select(EventRow))]
    assert all(MARKER not in p for p in payloads), "notes are no event"
    for seat in (1, 2):
        assert notes_of(client, secrets[seat]) == ""
        assert MARKER not in client.get(f"/play/{secrets[seat]}").get_data(as_text=True)


def test_notes_survive_a_move_an_undo_and_a_rollback(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    assert client.post(f"/api/play/{secrets[1]}/notes",
                       json={"notes": f"  {MARKER}\nline two  "}).get_json()["notes"] == f"{MARKER}\nline two"
    assert move(client, secrets[0], "stay", 1).status_code == 200
    assert move(client, secrets[1], "stay", 2).status_code == 200
    assert notes_of(client, secrets[1]) == f"{MARKER}\nline two"
    assert post_form(client, data["id"], "rollback", to_seq="1", reason="misclick").status_code == 303
    assert [e["kind"] for e in events(client, admin_headers, data["id"])][-1] == "RolledBack"
    assert notes_of(client, secrets[1]) == f"{MARKER}\nline two"
    assert MARKER in client.get(f"/play/{secrets[1]}").get_data(as_text=True)


def test_a_newcomer_in_a_replaced_seat_does_not_see_the_old_players_notes(app, client, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    assert save_on_page(client, secrets[1], MARKER).status_code == 303
    assert post_form(client, data["id"], "seats/1/replace", name="Zoe",
                     email="zoe@example.com").status_code == 303
    assert accept_offer(app, "zoe@example.com").status_code == 200
    newcomer = seats(app, data["id"])[1]
    assert newcomer.email == "zoe@example.com"
    with svc(app).db.reading() as session:
        assert notes_store.read(session, newcomer)["notes"] == ""
    new_secret = secret_from_url(text_of(mails(app, "zoe@example.com")[-1]))
    assert notes_of(client, new_secret) == ""
    assert MARKER not in client.get(f"/play/{new_secret}").get_data(as_text=True)
    assert client.get(f"/api/play/{secrets[1]}/notes").status_code == 403, "the old link is dead"


def test_notes_are_bounded_and_validated_and_a_refusal_changes_nothing(app, client, new_game):
    data, secrets = new_game(players=3)
    assert save_on_page(client, secrets[0], "kept").status_code == 303
    too_long = "x" * (notes_store.MAX_NOTES + 1)
    refused = save_on_page(client, secrets[0], too_long)
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    assert f"longer than {notes_store.MAX_NOTES} characters" in page and too_long in page
    for body in ({"notes": too_long}, {"notes": "bell\x07"}, {"notes": 5}, {"text": "x"}, [1]):
        answer = client.post(f"/api/play/{secrets[0]}/notes", json=body)
        assert answer.status_code == 400 and "error" in answer.get_json(), body
    assert notes_of(client, secrets[0]) == "kept"
    assert client.post("/api/play/forged/notes", json={"notes": "x"}).status_code == 403
    exactly = "y" * notes_store.MAX_NOTES
    assert client.post(f"/api/play/{secrets[0]}/notes", json={"notes": exactly}).status_code == 200
    assert notes_of(client, secrets[0]) == exactly
    assert client.post(f"/api/play/{secrets[0]}/notes", json={"notes": ""}).status_code == 200
    with svc(app).db.reading() as session:
        assert session.scalar(select(func.count()).select_from(SeatNoteRow)) == 0, \
            "empty notes keep no row"


def test_saving_notes_needs_the_pages_csrf_token(app, client, new_game):
    app.config["WTF_CSRF_ENABLED"] = True
    _, secrets = new_game(players=3)
    assert client.post(f"/play/{secrets[0]}/notes", data={"notes": MARKER}).status_code == 400
    assert notes_of(client, secrets[0]) == ""
