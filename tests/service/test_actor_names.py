"""Who did it, in words the reader knows: a player's mail names the organiser as the
invitations did and anyone else by role, never by address; the audit log's "Who" is a name
(a seat, the organiser, "Chasqui (automatic)"), never an actor code like "organiser:2".
Rule: only ``view(state, seat)`` decides what a seat sees, and no mail or page shows a
player more than that -- an admin's or an organiser's address is none of it."""
from __future__ import annotations

import re

from sqlalchemy import select

from service.store.models import PendingGameRow
from service.view.actors import actor_name, opening
from service.view.i18n import translate
from tests.service.test_admin_support import SITE_EMAIL, site_admin
from tests.service.test_organisers_support import (ORGANISER, PLAYERS, answer, create_game, csrf,
                                                   mails, sign_in, svc)

NAMES = ["Ana", "Ben", "Cai"]


def started_without_the_organiser_seated(app, client) -> tuple[str, str]:
    """Olga organises (sits nowhere), the three invitees accept; (pending id, game id)."""
    sign_in(client, app)
    pending_id = create_game(client, count=3, organiser_seat=None)
    for _, address in PLAYERS:
        assert answer(app, address).status_code == 200
    with svc(app).db.reading() as session:
        game_id = session.get(PendingGameRow, pending_id).game_id
    assert game_id
    return pending_id, game_id


def as_game_admin(client, pending_id: str) -> None:
    page = f"/organise/games/{pending_id}"
    assert client.post(f"{page}/admin", data={"csrf_token": csrf(client, page)}).status_code == 303


def first_move(app, client, address: str) -> None:
    start = [m for m in mails(app, address) if "/play/" in m["text"]][-1]
    secret = re.search(r"/play/([^/\s]+)/a/", start["text"]).group(1)
    assert client.post(f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": 1}).status_code == 200


def test_the_organisers_rollback_mail_names_them_as_the_invitations_did_without_an_address(app, client):
    pending_id, game_id = started_without_the_organiser_seated(app, client)
    first_move(app, client, "ana@example.org")
    as_game_admin(client, pending_id)
    page = f"/admin/games/{game_id}"
    before = len(mails(app))
    response = client.post(f"{page}/rollback", data={"csrf_token": csrf(client, page), "to_seq": "1",
                                                     "reason": "a misclick"})
    assert response.status_code == 303, response.get_data(as_text=True)
    sent = mails(app)[before:]
    assert sorted(m["to"] for m in sent) == sorted(a for _, a in PLAYERS)
    for mail in sent:
        assert "taken back to its start by Olga, the game's organiser" in mail["text"]
        assert ORGANISER not in mail["raw"] and "admin:" not in mail["raw"]


def test_the_audit_log_names_the_organiser_and_shows_their_address_to_admins_only(app, client):
    pending_id, game_id = started_without_the_organiser_seated(app, client)
    as_game_admin(client, pending_id)
    page = client.get(f"/admin/games/{game_id}").get_data(as_text=True)
    who = re.search(r'<tr id="seq-1".*?</td>\s*<td>.*?</td>\s*<td>(.*?)</td>', page, re.S).group(1)
    assert "Olga, the game&#39;s organiser" in who and ORGANISER in who
    assert "organiser:" not in page
    api = client.get(f"/admin/api/games/{game_id}").get_json()
    assert api["log"][0]["who"] == "Olga, the game's organiser"


def test_a_seated_organiser_reads_the_log_as_a_player_does(app, client):
    """A player first: an organiser who sits in the game sees names and roles in the log,
    not the site admins' addresses."""
    sign_in(client, app)
    pending_id = create_game(client)  # Olga takes a seat
    for _, address in PLAYERS:
        answer(app, address)
    with svc(app).db.reading() as session:
        game_id = session.scalars(select(PendingGameRow.game_id)).one()
    root = app.test_client()
    site_admin(app, root)
    page = f"/admin/games/{game_id}"
    assert root.post(f"{page}/pause", data={"csrf_token": csrf(root, page), "reason": "server move"}).status_code == 303
    assert SITE_EMAIL in root.get(page).get_data(as_text=True)  # a site admin outside the game
    as_game_admin(client, pending_id)
    seated = client.get(page).get_data(as_text=True)
    assert SITE_EMAIL not in seated and "a Chasqui admin" in seated


def test_no_actor_code_reaches_a_player_as_an_address_or_a_code():
    """Events recorded before admins had ids name them by address; a player is told the role."""
    assert actor_name("admin:ana@x.org", NAMES) == {"t": "a Chasqui admin"}
    assert actor_name("admin:3", NAMES) == {"t": "a Chasqui admin"}
    assert actor_name("admin", NAMES) == {"t": "a Chasqui admin"}
    assert actor_name("organiser:2", NAMES) == {"t": "the game's organiser"}
    assert actor_name("system", NAMES) == {"t": "Chasqui (automatic)"}
    assert actor_name("imported:x@y.org", NAMES) == {"t": "someone"}
    assert actor_name("seat:1", NAMES) == "Ben"
    # an admin page, which lists the admins' addresses already, may name them by address
    assert actor_name("admin:3", NAMES, addresses={"admin:3": "root@x.org"}) == "root@x.org"


def test_the_roles_read_in_every_language_and_open_a_sentence():
    for language in ("zh_Hans", "ja"):
        for role in ("a Chasqui admin", "A Chasqui admin", "the game's organiser",
                     "Chasqui (automatic)", "{name}, the game's organiser"):
            assert translate(language, {"t": role}) != role, (language, role)
    assert opening({"t": "a Chasqui admin"}) == {"t": "A Chasqui admin"}
    assert opening("ana") == "Ana"
