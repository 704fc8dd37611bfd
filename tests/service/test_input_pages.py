"""The pages refuse poisoned input with a 400 that shows the form again with the reason, and
store nothing: the organiser's form, replacing an invitee, joining from the lobby, signing in,
table talk, and the play page's move and plan forms."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from service.store.models import InvitationRow
from tests.service.test_input_support import csrf_of, fresh_client, rows
from tests.service.test_organisers_support import (answer, create_game, csrf, new_game_form,
                                                   sign_in, svc)
from tests.service.test_organisers_lobby import open_game


def post_form(client, overrides):
    return client.post("/organise/new", data=new_game_form(csrf(client, "/organise/new"), **overrides))


@pytest.mark.parametrize("overrides, reason", [
    (dict(vacation_days="1000000000"), "vacation_days must be between 0 and 365"),
    (dict(per_decision_hours="nan"), "per_decision_hours must be a finite number"),
    (dict(per_decision_hours="inf", bank_max_hours="inf"), "must be a finite number"),
    (dict(bank_max_hours="1e999"), "bank_max_hours must be a finite number"),
    (dict(bank_max_hours="1e300"), "bank_max_hours must be between 0.1 and 8760"),
    (dict(per_decision_hours="-inf"), "per_decision_hours must be a positive number"),
    (dict(reminder_hours="12, nan"), "reminder_hours must be a list of positive hours"),
    (dict(reminder_hours="12, 1e9"), "reminder_hours must be between 0.1 and 8760"),
    (dict(vacation_days="20", vacation_period_days="10"), None),  # not on the form: ignored
])
def test_the_new_game_form_refuses_clock_numbers_not_finite_or_out_of_bounds(app, client, overrides,
                                                                           reason):
    sign_in(client, app)
    before = rows(app)
    response = post_form(client, overrides)
    if reason is None:
        assert response.status_code == 303
        return
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and reason in page and "Nothing was sent" in page
    assert 'name="per_decision_hours"' in page  # the form again, to correct
    assert rows(app) == before


@pytest.mark.parametrize("overrides, reason", [
    (dict(name_1="Ben\r\nBcc: eve@example.org"), "player 2 contains a control character"),
    (dict(name_0="Ana\u202egro.elpmaxe"), "player 1 contains a control character"),
    (dict(organiser_name="Olga\x1b"), "you contains a control character"),  # NUL: test_input_nul
    (dict(name_2="C" * 81), "longer than 80 characters"),
    (dict(email_1="ben@example.org, eve@example.org"), "give exactly one mail address"),
    (dict(email_1="Ben <ben@example.org>"), "give exactly one mail address"),
    (dict(email_2="cai\r@example.org"), "contains a control character"),
])
def test_the_new_game_form_refuses_control_characters_and_address_lists(app, client, overrides,
                                                                       reason):
    sign_in(client, app)
    before = rows(app)
    response = post_form(client, overrides)
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and reason in page and "Nothing was sent" in page
    assert rows(app) == before


def declined_invitation(app, client) -> tuple[str, int]:
    sign_in(client, app)
    pending_id = create_game(client)
    assert answer(app, "ben@example.org", accept=False).status_code == 200
    with svc(app).db.reading() as session:
        ben = session.scalars(select(InvitationRow).where(InvitationRow.email == "ben@example.org")).one()
    return pending_id, ben.id


@pytest.mark.parametrize("name, address", [("Dee\r\nBcc: eve@example.org", "dee@example.org"),
                                           ("Dee\x85", "dee@example.org"),
                                           ("Dee", "dee@example.org, eve@example.org"),
                                           ("Dee", "dee@example.org\r\nBcc: eve@example.org")])
def test_replacing_an_invitee_refuses_a_poisoned_name_or_address(app, client, name, address):
    pending_id, invitation_id = declined_invitation(app, client)
    before = rows(app)
    page = f"/organise/games/{pending_id}"
    response = client.post(f"{page}/invitations/{invitation_id}/replace", data={
        "csrf_token": csrf(client, page), "name": name, "email": address})
    shown = response.get_data(as_text=True)
    assert response.status_code == 400 and "Nothing was changed" in shown
    assert "Invite instead" in shown  # the invitations again, to try another name or address
    assert rows(app) == before


@pytest.mark.parametrize("name, address", [("Eve\u202e", "eve@example.org"),
                                           ("Eve\x00", "eve@example.org"),
                                           ("Eve", "eve@example.org, dee@example.org"),
                                           ("Eve", "eve\r@example.org")])
def test_joining_from_the_lobby_refuses_a_poisoned_name_or_address(app, client, name, address):
    pending_id = open_game(app, client)
    before = rows(app)
    visitor = fresh_client(app)
    response = visitor.post(f"/lobby/{pending_id}/join", data={
        "csrf_token": csrf(visitor, "/signin"), "name": name, "email": address})
    assert response.status_code == 400
    assert rows(app) == before


@pytest.mark.parametrize("address", ["ana@example.org, eve@example.org", "ana@example.org;eve@example.org",
                                     "Ana <ana@example.org>", "ana\x1f@example.org", "ana\u2028@example.org"])
def test_signing_in_takes_exactly_one_address(app, address):
    visitor = fresh_client(app)
    before = rows(app)
    response = visitor.post("/signin", data={"csrf_token": csrf(visitor, "/signin"), "email": address})
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and 'name="email"' in page
    assert rows(app) == before


def test_talk_over_the_limit_is_refused_with_the_limit_stated_and_the_text_kept(app, client, new_game):
    _, secrets = new_game(players=3)
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    before = rows(app)
    text = "Who stays? " * 200  # 2,200 characters
    response = client.post(f"/play/{secrets[0]}/talk", data={"text": text, "csrf_token": csrf_of(page)})
    shown = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Not sent: the message is longer than 2000 characters" in shown
    assert "Sent to the table" not in shown
    assert text.strip() in shown  # still in the form, to shorten
    assert rows(app) == before
    again = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    assert "Sent to the table" not in again and "Who stays?" not in again


@pytest.mark.parametrize("text", ["ring\x07", "esc\x1bhere", "back\u202ewards", "a\rb"])
def test_talk_with_a_control_character_is_refused(app, client, new_game, text):
    _, secrets = new_game(players=3)
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    before = rows(app)
    response = client.post(f"/play/{secrets[0]}/talk", data={"text": text, "csrf_token": csrf_of(page)})
    assert response.status_code == 400
    assert "contains a control character" in response.get_data(as_text=True)
    assert rows(app) == before


def test_talk_of_exactly_the_limit_is_sent_whole(app, client, new_game):
    from service.store.models import EventRow

    data, secrets = new_game(players=3)
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    text = "x" * 1998 + "\r\n" + "y"  # a browser's line break is one character
    response = client.post(f"/play/{secrets[0]}/talk", data={"text": text, "csrf_token": csrf_of(page)})
    assert response.status_code == 303
    with svc(app).db.reading() as session:
        posted = session.scalars(select(EventRow).where(EventRow.kind == "MessagePosted")).one()
    assert posted.payload["text"] == "x" * 1998 + "\ny"


def test_a_move_or_plan_form_nested_thousands_deep_is_refused_not_a_crash(app, client, new_game):
    _, secrets = new_game(players=3)
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    before = rows(app)
    move = client.post(f"/play/{secrets[0]}/move", data={
        "action": "[" * 20_000, "seq": "1", "csrf_token": csrf_of(page)})
    assert move.status_code == 400
    plan = client.post(f"/play/{secrets[0]}/plan", data={
        "actions": "[" * 20_000, "seq": "1", "csrf_token": csrf_of(page)})
    assert plan.status_code == 303  # back to the play page, with "the plan was incomplete"
    assert "the plan was incomplete" in client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    assert rows(app) == before
