"""A game admin who sits in the game is a player first, and a replacement is an offer: the
seat changes, and its private view is mailed, only when the newcomer accepts; the replaced
player is told.  No address may hold two seats of a game."""
from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import func, select

from service.store.models import SeatOfferRow
from tests.service.test_admin_support import (SITE_PASSWORD, accept_offer, actor_of, csrf_token,
                                              events,
                                              links_in, login, mails, make_admin, move,
                                              offer_link, post_form, site_admin, svc, text_of,
                                              token_in)

PLAYER_PASSWORD = "a player's password"
SECOND_ADDRESS = "p0.second@example.com"


def seated_admin(app, client, game_id, site=False):
    """The person in seat 0 (p0@example.com) logged in as an admin: of this game only, or of
    the whole site."""
    make_admin(app, "p0@example.com", PLAYER_PASSWORD, games=() if site else [game_id])
    login(client, "p0@example.com", PLAYER_PASSWORD)


def offers(app) -> int:
    with svc(app).db.reading() as session:
        return session.scalar(select(func.count()).select_from(SeatOfferRow))


def api_post(client, game_id, path, body):
    return client.post(f"/admin/api/games/{game_id}/{path}", json=body,
                       headers={"X-CSRFToken": csrf_token(client, "/admin/")})


def test_a_replacement_changes_nothing_until_the_newcomer_accepts(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    assert post_form(client, data["id"], "seats/1/replace", name="Zoe", email="zoe@example.com",
                     seq="1").status_code == 303
    assert len(events(client, admin_headers, data["id"])) == 1, "no event before acceptance"
    assert move(client, secrets[1], "stay", 1).status_code == 200, "the old player keeps the seat"
    (invitation,) = mails(app, "zoe@example.com")
    assert not links_in(invitation) and "/play/" not in text_of(invitation)
    assert "Stay in the temple" not in text_of(invitation), "no view of the table before accepting"
    (notice,) = mails(app, "p1@example.com")[1:]
    assert "offered your seat 2" in text_of(notice) and "Zoe" in text_of(notice)
    assert "/play/" not in text_of(notice)

    page = app.test_client().get(offer_link(app, "zoe@example.com"))
    assert page.status_code == 200 and "Accept the seat" in page.get_data(as_text=True)
    assert len(events(client, admin_headers, data["id"])) == 2, "opening the link decides nothing"

    assert accept_offer(app, "zoe@example.com").status_code == 200
    log = events(client, admin_headers, data["id"])
    assert [e["kind"] for e in log] == ["GameCreated", "MoveMade", "SeatReplaced"]
    assert client.get(f"/api/play/{secrets[1]}").status_code == 403
    welcome = text_of(mails(app, "zoe@example.com")[-1])
    assert "You now have a seat" in welcome and "/play/" in welcome, "the seat's view comes now"
    taken = mails(app, "p1@example.com")[-1]
    assert "accepted your seat 2" in text_of(taken) and "/play/" not in text_of(taken)


def test_an_offer_that_is_declined_leaves_the_seat_with_its_player(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    post_form(client, data["id"], "seats/1/replace", name="Zoe", email="zoe@example.com")
    assert accept_offer(app, "zoe@example.com", "decline").status_code == 200
    assert accept_offer(app, "zoe@example.com").status_code == 410
    assert len(events(client, admin_headers, data["id"])) == 1
    assert client.get(f"/api/play/{secrets[1]}").status_code == 200
    assert len(mails(app, "zoe@example.com")) == 1


def test_an_offer_link_is_signed_single_use_expiring_and_ended_by_a_newer_offer(app, client, clock, admin_headers, new_game):
    site_admin(app, client)
    data, _ = new_game(players=3)
    post_form(client, data["id"], "seats/1/replace", name="Zoe", email="zoe@example.com")
    stranger = app.test_client()
    token = token_in(stranger.get(offer_link(app, "zoe@example.com")).get_data(as_text=True))
    assert stranger.get(offer_link(app, "zoe@example.com")[:-3] + "abc").status_code == 403
    assert stranger.post("/seat-offer/forged/accept", data={"csrf_token": token}).status_code == 403
    post_form(client, data["id"], "seats/1/replace", name="Yan", email="yan@example.com")
    assert accept_offer(app, "zoe@example.com").status_code == 410, "withdrawn by the newer offer"
    clock.advance(timedelta(days=7, seconds=1))
    assert accept_offer(app, "yan@example.com").status_code == 410, "expired"
    assert len(events(client, admin_headers, data["id"])) == 1
    post_form(client, data["id"], "seats/1/replace", name="Yan", email="yan@example.com")
    path = offer_link(app, "yan@example.com")
    assert accept_offer(app, "yan@example.com").status_code == 200
    again = app.test_client()
    token = token_in(again.get("/signin").get_data(as_text=True))
    assert again.post(f"{path}/accept", data={"csrf_token": token}).status_code == 410
    assert [e["kind"] for e in events(client, admin_headers, data["id"])][-1] == "SeatReplaced"


def test_no_one_may_take_a_second_seat_of_a_game(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, _ = new_game(players=3)
    for address in ("p2@example.com", "P2@Example.COM"):
        refused = post_form(client, data["id"], "seats/1/replace", name="Two", email=address)
        assert refused.status_code == 400 and "already plays as P2" in refused.get_data(as_text=True)
    # Two offers to one address: the second acceptance finds it seated already.
    post_form(client, data["id"], "seats/1/replace", name="Zoe", email="zoe@example.com")
    first = offer_link(app, "zoe@example.com")
    post_form(client, data["id"], "seats/2/replace", name="Zoe", email="zoe@example.com")
    assert accept_offer(app, "zoe@example.com").status_code == 200  # the newest: seat 2
    newcomer = app.test_client()
    token = token_in(newcomer.get(first).get_data(as_text=True))
    assert newcomer.post(f"{first}/accept", data={"csrf_token": token}).status_code == 409
    assert [e["kind"] for e in events(client, admin_headers, data["id"])] == ["GameCreated", "SeatReplaced"]


def test_a_seated_game_admin_cannot_replace_or_bot_another_seat(app, client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    seated_admin(app, client, data["id"])
    refused = post_form(client, data["id"], "seats/1/replace", name="Me Again", email=SECOND_ADDRESS)
    assert refused.status_code == 403 and "you play as P0" in refused.get_data(as_text=True)
    assert post_form(client, data["id"], "seats/1/bot").status_code == 403
    assert api_post(client, data["id"], "seats/1/replace",
                    {"name": "Me Again", "email": SECOND_ADDRESS}).status_code == 403
    assert api_post(client, data["id"], "seats/2/bot", {}).status_code == 403
    assert offers(app) == 0 and not mails(app, SECOND_ADDRESS)
    assert len(events(client, admin_headers, data["id"])) == 1
    assert "Hand seat to a bot" not in client.get(f"/admin/games/{data['id']}").get_data(as_text=True) \
        .split("P1")[1].split("</tr>")[0], "no forms for another seat"
    # Their own seat is theirs to hand over.
    assert post_form(client, data["id"], "seats/0/replace", name="Sub", email="sub@example.com").status_code == 303
    assert post_form(client, data["id"], "seats/0/bot").status_code == 303


def test_a_seated_site_admin_sees_nothing_of_another_seat_anywhere_in_admin(app, client, admin_headers, new_game):
    """Seat 1's pending secret choice is "leave"; no admin page or API answer the seated admin
    can fetch names it (labels, views, the export)."""
    data, secrets = new_game(players=3)
    assert move(client, secrets[1], "leave", 1).status_code == 200
    seated_admin(app, client, data["id"], site=True)
    game = data["id"]
    for url in (f"/admin/games/{game}/at/2?seat=1", f"/admin/games/{game}/at/2?seat=0",
                f"/admin/games/{game}/export", f"/admin/api/games/{game}/at/2?seat=1",
                f"/admin/api/games/{game}/export"):
        assert client.get(url).status_code == 403, url
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/admin") or "GET" not in rule.methods:
            continue
        url = rule.rule.replace("<game_id>", game).replace("<int:seq>", "2").replace("<int:seat>", "1")
        for query in ("", "?seat=1"):
            response = client.get(url + query)
            body = response.get_data(as_text=True)
            assert "Leave for camp" not in body and '"leave"' not in body, url + query
            assert json.dumps({"type": "leave"}) not in body, url + query
    # The same admin outside the game sees seats, as a site admin does.
    make_admin(app, "root@example.org", SITE_PASSWORD)
    outsider = app.test_client()
    login(outsider)
    assert outsider.get(f"/admin/games/{game}/at/2?seat=1").status_code == 200
    assert "Leave for camp" in outsider.get(f"/admin/games/{game}").get_data(as_text=True)


def test_a_game_admin_who_does_not_play_may_offer_a_seat(app, client, admin_headers, new_game):
    data, _ = new_game(players=3)
    make_admin(app, "host@example.org", "host password 123", games=[data["id"]])
    login(client, "host@example.org", "host password 123")
    offered = api_post(client, data["id"], "seats/2/replace", {"name": "Zoe", "email": "Zoe@Example.com"})
    assert offered.status_code == 202, offered.get_json()
    answer = offered.get_json()
    assert answer["seq"] == 1 and answer["offer"]["email"] == "zoe@example.com"
    assert answer["offer"]["status"] == "pending" and answer["mailed"] == 2
    assert accept_offer(app, "zoe@example.com").status_code == 200
    assert events(client, admin_headers, data["id"])[-1]["actor"] == actor_of(app, "host@example.org")


def test_a_replacement_refuses_names_and_addresses_that_would_poison_mail(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, _ = new_game(players=3)
    bad = ({"name": "Eve\r\nBcc: all@x.org", "email": "eve@example.com"},
           {"name": "Eve\x00", "email": "eve@example.com"},
           {"name": "Eve", "email": "eve@example.com, mallory@example.com"},
           {"name": "Eve", "email": "eve@example.com\r"},
           {"name": "x" * 81, "email": "eve@example.com"})
    for fields in bad:
        assert post_form(client, data["id"], "seats/1/replace", **fields).status_code == 400, fields
        answer = api_post(client, data["id"], "seats/1/replace", fields)
        assert answer.status_code == 400 and "error" in answer.get_json(), fields
    assert offers(app) == 0 and len(mails(app)) == 3  # the three start mails only


def test_a_seated_admin_cannot_roll_the_game_back_to_choose_again(app, client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    for seat in range(3):
        move(client, secrets[seat], "stay", 1 + seat)  # the reveal: a card everyone has seen
    seated_admin(app, client, data["id"])
    refused = post_form(client, data["id"], "rollback", to_seq="1", reason="oops")
    assert refused.status_code == 403 and "you play as P0" in refused.get_data(as_text=True)
    assert api_post(client, data["id"], "rollback", {"to_seq": 1, "reason": "oops"}).status_code == 403
    assert len(events(client, admin_headers, data["id"])) == 4
    assert post_form(client, data["id"], "pause", reason="tea").status_code == 303, \
        "pausing tells nobody anything"
