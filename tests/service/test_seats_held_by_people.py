"""Seats are held by people, not strings: addresses that differ only in capitals or a ``+tag``
are one person, who holds one seat of a game, and a game admin whose address is a seat's in
that sense plays in that game (no rollback, no other seat's secrets)."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from service.core.addresses import first_repeated_person, person_key
from service.store.models import GameRow, InvitationRow, SeatRow
from tests.service.test_admin_support import login, make_admin, move, post_form, site_admin
from tests.service.test_organisers_lobby import join, open_game
from tests.service.test_organisers_support import (ORGANISER, answer, create_game, csrf, mails,
                                                   new_game_form, sign_in, svc)

ALT = "olga+alt@example.org"


@pytest.mark.parametrize("address, person", [
    ("olga@example.org", "olga@example.org"),
    ("Olga+Alt@Example.ORG", "olga@example.org"),
    ("olga+a+b@example.org", "olga@example.org"),
    (" OLGA@example.org ", "olga@example.org"),
    ("o.lga@example.org", "o.lga@example.org"),  # dots are the provider's business
    ("+tag@example.org", "+tag@example.org"),   # nothing before the tag: kept whole
])
def test_a_person_is_an_address_without_case_and_tag(address, person):
    assert person_key(address) == person


def test_the_first_address_of_a_person_seen_before_is_named():
    assert first_repeated_person(["a@x.org", "b@x.org", "A+2@X.org"]) == "A+2@X.org"
    assert first_repeated_person(["a@x.org", "b@x.org"]) is None


def test_the_admin_api_refuses_one_person_in_several_seats(client, admin_headers, app):
    players = [{"name": f"P{i}", "email": address} for i, address in
               enumerate(["sam@example.com", "Sam@example.com", "sam+3@example.com"])]
    response = client.post("/api/games", json={"game": "incan_gold", "players": players},
                           headers=admin_headers)
    assert response.status_code == 400
    assert "sam@example.com is in the game twice" in response.get_json()["error"]
    with svc(app).db.reading() as session:
        assert session.scalar(select(func.count()).select_from(GameRow)) == 0


def test_the_organiser_cannot_invite_themself_again_under_a_tag(app, client):
    sign_in(client, app)
    response = client.post("/organise/new", data={
        **_form(client, [("Olga again", ALT), ("Ana", "ana@example.org")], count=3)})
    assert response.status_code == 400
    assert f"{ALT} is in the game twice" in response.get_data(as_text=True)
    assert mails(app, ALT) == []


def test_two_invitees_who_are_one_person_are_refused(app, client):
    sign_in(client, app)
    response = client.post("/organise/new", data=_form(
        client, [("Ana", "ana@example.org"), ("Ana 2", "ANA+2@example.org")], count=3))
    assert response.status_code == 400


def test_the_lobby_refuses_a_seat_to_someone_already_invited_under_another_spelling(app, client):
    pending_id = open_game(app, client)  # Ana is invited
    assert join(app, pending_id, "Ana again", "Ana+lobby@example.org").status_code == 409
    assert join(app, pending_id, "Olga again", "olga+lobby@example.org").status_code == 409
    assert mails(app, "Ana+lobby@example.org") == []


def test_a_seat_offer_to_a_seated_person_under_a_tag_is_refused(app, client, new_game):
    site_admin(app, client)
    data, _ = new_game(players=3)
    refused = post_form(client, data["id"], "seats/1/replace", name="Two",
                        email="p2+other@example.com")
    assert refused.status_code == 400 and "already plays as P2" in refused.get_data(as_text=True)


def test_an_organiser_playing_under_a_tagged_address_may_not_roll_back(app, client):
    """Olga invites olga+alt, plays that seat and asks for a rollback from her organiser's
    admin session: she plays in the game, so she is refused as any seated admin is."""
    sign_in(client, app)
    pending_id = create_game(client, invitees=[("Olga", ALT), ("Ana", "ana@example.org"),
                                               ("Ben", "ben@example.org")], organiser_seat=None,
                             count=3)
    for address in (ALT, "ana@example.org", "ben@example.org"):
        assert answer(app, address).status_code == 200
    with svc(app).db.reading() as session:
        game_id = session.scalars(select(GameRow.id)).one()
        seats = session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)).all()
        assert ALT in [s.email for s in seats] and ORGANISER not in [s.email for s in seats]
    page = f"/organise/games/{pending_id}"
    assert client.post(f"{page}/admin", data={"csrf_token": csrf(client, page)}).status_code == 303
    assert client.get(f"/admin/games/{game_id}").status_code == 200
    refused = post_form(client, game_id, "rollback", to_seq="1", reason="let me choose again")
    assert refused.status_code == 403
    assert client.get(f"/admin/games/{game_id}/at/1?seat=1").status_code == 403
    assert client.get(f"/admin/games/{game_id}/export").status_code == 403


def test_a_game_admin_whose_login_is_a_seats_address_with_a_tag_is_a_player(app, client,
                                                                            new_game):
    data, secrets = new_game(players=3)  # seat 0 is p0@example.com
    make_admin(app, "P0+admin@example.com", "a player's password", games=[data["id"]])
    login(client, "P0+admin@example.com", "a player's password")
    assert move(client, secrets[0], "stay", 1).status_code == 200
    refused = post_form(client, data["id"], "rollback", to_seq="1", reason="again")
    assert refused.status_code == 403 and "you play as P0" in refused.get_data(as_text=True)


def _form(client, invitees, count):
    return new_game_form(csrf(client, "/organise/new"), invitees=invitees, count=count)


def test_a_declined_invitation_is_not_replaced_by_a_seated_person_under_a_tag(app, client):
    sign_in(client, app)
    pending_id = create_game(client)
    assert answer(app, "ben@example.org", accept=False).status_code == 200
    with svc(app).db.reading() as session:
        ben = session.scalars(select(InvitationRow).where(
            InvitationRow.email == "ben@example.org")).one()
    page = f"/organise/games/{pending_id}"
    for address in ("ANA+2@example.org", "olga+ben@example.org"):
        response = client.post(f"{page}/invitations/{ben.id}/replace", data={
            "csrf_token": csrf(client, page), "name": "Dee", "email": address})
        assert response.status_code == 400, address
        assert mails(app, address.lower()) == []
