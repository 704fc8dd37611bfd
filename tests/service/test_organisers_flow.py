"""A group starts its own game without an admin -- sign in by mail, the new-game
form, invitations, every seat accepts, the game starts, and only then turn mail."""
from __future__ import annotations

import email
from datetime import timedelta
from email import policy

from sqlalchemy import func, select

from service.store.models import (AccountRow, EventRow, GameAdminRow, GameRow, InvitationRow,
                            OutboxRow, PendingGameRow, SeatRow)
from tests.service.test_organisers_support import (ORGANISER, PLAYERS, answer, create_game,
                                                   csrf, link_in, mails, new_game_form, sign_in,
                                                   svc)


def count(app, model, *where) -> int:
    with svc(app).db.reading() as session:
        return session.scalar(select(func.count()).select_from(model).where(*where))


def pending_row(app, pending_id) -> PendingGameRow:
    with svc(app).db.reading() as session:
        return session.get(PendingGameRow, pending_id)


def test_the_whole_flow_sign_in_form_invitations_all_accept_game_starts_turn_mail_only_then(app, client):
    # sign in: the address is normalised into the account key, the link's GET changes nothing
    token = csrf(client, "/signin")
    assert client.post("/signin", data={"csrf_token": token, "email": " Olga@Example.ORG "}).status_code == 200
    [mail] = mails(app, ORGANISER)
    path = link_in(mail, "signin")
    for _ in range(2):  # a mail scanner's GETs do not use the link up
        page = client.get(path)
        assert page.status_code == 200 and 'method="post"' in page.get_data(as_text=True)
    assert client.get("/organise/").status_code == 302  # not signed in yet
    response = client.post(path, data={"csrf_token": csrf(client, path)})
    assert response.status_code == 303 and response.headers["Location"].endswith("/organise/")
    assert client.get("/organise/").status_code == 200
    assert count(app, AccountRow, AccountRow.email == ORGANISER) == 1

    # the form: game, edition, count, clock, language, players; the organiser takes a seat
    pending_id = create_game(client)
    page = client.get(f"/organise/games/{pending_id}").get_data(as_text=True)
    assert "ana@example.org" in page and "pending" in page
    invitations = [m for m in mails(app) if "/invite/" in m["text"]]
    assert sorted(m["to"] for m in invitations) == sorted(a for _, a in PLAYERS)
    ana = [m for m in invitations if m["to"] == "ana@example.org"][0]
    assert "Olga invites you to play Incan Gold" in ana["subject"]
    for needed in ("artifacts: classic", "1 day per decision", "banked up to 3 days",
                   "Saturdays and Sundays", "7 vacation days", "?answer=accept", "?answer=decline"):
        assert needed in ana["text"], needed
    # nothing of a game exists yet: no game row, no event, no game mail owed
    assert count(app, GameRow) == 0 and count(app, OutboxRow) == 0 and count(app, EventRow) == 0

    # accepting is a POST from the landing page; the GET shows and changes nothing
    invitee = app.test_client()
    path = link_in(ana, "invite")
    landing = invitee.get(path + "?answer=accept").get_data(as_text=True)
    assert "Olga invites you to play Incan Gold" in landing and "Accept" in landing
    assert count(app, InvitationRow, InvitationRow.status == "accepted") == 1  # the organiser only
    assert answer(app, "ana@example.org").status_code == 200
    assert answer(app, "ben@example.org").status_code == 200
    assert count(app, GameRow) == 0 and count(app, OutboxRow) == 0
    before = len(mails(app))
    done = answer(app, "cai@example.org")
    assert done.status_code == 200 and "the game has started" in done.get_data(as_text=True)

    # the game exists now, through games.create_game, with what the form said
    row = pending_row(app, pending_id)
    assert row.status == "started" and row.game_id
    with svc(app).db.reading() as session:
        [created] = session.scalars(select(EventRow).where(EventRow.game_id == row.game_id))
        seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == row.game_id)
                                     .order_by(SeatRow.seat)))
        outbox = list(session.scalars(select(OutboxRow)))
    assert created.kind == "GameCreated"
    assert created.payload["options"] == {"artifacts": "classic"}
    assert created.payload["clock"]["per_decision_hours"] == 24
    assert created.payload["clock"]["reminder_hours"] == [12, 2]
    assert created.payload["clock"]["weekend_pause"] is True
    assert created.payload["players"] == ["Olga", "Ana", "Ben", "Cai"]  # seat order as entered
    assert [s.email for s in seats] == [ORGANISER] + [a for _, a in PLAYERS]
    # game mail only now, and only to accepted addresses
    assert {o.to_addr for o in outbox} == {ORGANISER} | {a for _, a in PLAYERS}
    started = mails(app)[before:]
    assert sorted(m["to"] for m in started) == sorted([ORGANISER] + [a for _, a in PLAYERS])
    assert all("/play/" in m["text"] for m in started)

    # the organiser is the admin of their game through game_admins, signed in by mail
    with svc(app).db.reading() as session:
        assert session.scalar(select(func.count()).select_from(GameAdminRow)
                              .where(GameAdminRow.game_id == row.game_id)) == 1
    # not an admin session yet: /admin offers to open one rather than a password form
    offer = client.get(f"/admin/games/{row.game_id}").get_data(as_text=True)
    assert "Open the admin pages of your games" in offer and 'type="password"' not in offer
    page = f"/organise/games/{pending_id}"
    response = client.post(f"{page}/admin", data={"csrf_token": csrf(client, page)})
    assert response.status_code == 303 and response.headers["Location"] == f"/admin/games/{row.game_id}"
    assert client.get(f"/admin/games/{row.game_id}").status_code == 200
    assert client.get("/organise/").status_code == 200  # still signed in as the organiser
    # no password ever logs that admin row in; signing in by mail logs it in at /admin too
    other = app.test_client()
    assert other.post("/admin/login", data={"csrf_token": csrf(other, "/admin/login"), "email": ORGANISER,
                                            "password": "!magic-link-only"}).status_code == 401
    sign_in(other, app)
    assert other.get(f"/admin/games/{row.game_id}").status_code == 200


def test_a_declined_seat_gets_no_game_mail_and_the_organiser_replaces_it(app, client):
    sign_in(client, app)
    pending_id = create_game(client, seat_order="random")
    assert answer(app, "ana@example.org").status_code == 200
    assert answer(app, "ben@example.org", accept=False).status_code == 200
    assert answer(app, "cai@example.org").status_code == 200
    assert pending_row(app, pending_id).status == "inviting" and count(app, GameRow) == 0
    # the declined answer cannot be turned into an acceptance
    assert answer(app, "ben@example.org").status_code == 410

    with svc(app).db.reading() as session:
        ben = session.scalars(select(InvitationRow).where(InvitationRow.email == "ben@example.org")).one()
    page = f"/organise/games/{pending_id}"
    response = client.post(f"{page}/invitations/{ben.id}/replace", data={
        "csrf_token": csrf(client, page), "name": "Dee", "email": "dee@example.org"})
    assert response.status_code == 303
    assert answer(app, "dee@example.org").status_code == 200
    row = pending_row(app, pending_id)
    assert row.status == "started"
    with svc(app).db.reading() as session:
        addresses = set(session.scalars(select(SeatRow.email).where(SeatRow.game_id == row.game_id)))
        mailed = set(session.scalars(select(OutboxRow.to_addr)))
    assert addresses == {ORGANISER, "ana@example.org", "cai@example.org", "dee@example.org"}
    assert "ben@example.org" not in mailed
    assert [m["subject"] for m in mails(app, "ben@example.org")] == [
        "[Chasqui] Olga invites you to play Incan Gold"]  # the invitation, and nothing more


def test_a_silent_invitee_holds_the_game_until_replaced_and_their_old_link_dies(app, client, clock):
    sign_in(client, app)
    pending_id = create_game(client)
    answer(app, "ana@example.org")
    answer(app, "ben@example.org")
    assert count(app, GameRow) == 0 and count(app, OutboxRow) == 0  # Cai is silent: no game yet
    clock.advance(timedelta(days=7, minutes=1))
    response = answer(app, "cai@example.org")
    assert response.status_code == 410 and "expired" in response.get_data(as_text=True)
    assert "expired" in client.get(f"/organise/games/{pending_id}").get_data(as_text=True)
    with svc(app).db.reading() as session:
        cai = session.scalars(select(InvitationRow).where(InvitationRow.email == "cai@example.org")).one()
    page = f"/organise/games/{pending_id}"
    client.post(f"{page}/invitations/{cai.id}/replace", data={
        "csrf_token": csrf(client, page), "name": "Cai", "email": "cai2@example.org"})
    assert answer(app, "cai@example.org").status_code == 410
    assert answer(app, "cai2@example.org").status_code == 200
    assert pending_row(app, pending_id).status == "started"


def test_a_declined_address_can_block_further_invitations_from_that_organiser(app, client):
    sign_in(client, app)
    create_game(client)
    response = answer(app, "ben@example.org", accept=False, block=True)
    assert "cannot invite ben@example.org again" in response.get_data(as_text=True)
    before = count(app, InvitationRow)
    again = client.post("/organise/new", data=new_game_form(csrf(client, "/organise/new")))
    assert again.status_code == 403 and "asked not to get invitations" in again.get_data(as_text=True)
    assert count(app, InvitationRow) == before  # nothing was sent


def test_bad_form_input_is_a_4xx_and_changes_nothing(app, client):
    sign_in(client, app)
    token = csrf(client, "/organise/new")
    for overrides, status in ((dict(game="chess"), 400), (dict(count=9), 400),
                              (dict(option_incan_gold_artifacts="1999"), 400),
                              (dict(per_decision_hours="100", bank_max_hours="10"), 400),
                              (dict(email_1="not an address"), 400),
                              (dict(email_1="ana@example.org"), 400),
                              (dict(count=5), 400),  # one seat short and not an open game
                              (dict(players="four"), 400)):
        response = client.post("/organise/new", data=new_game_form(token, **overrides))
        assert response.status_code == status, (overrides, response.status_code)
        assert "Nothing was sent" in response.get_data(as_text=True)
    assert count(app, PendingGameRow) == 0 and count(app, InvitationRow) == 0
    assert [m["to"] for m in mails(app)] == [ORGANISER]  # the sign-in mail only


def test_the_organiser_form_needs_a_signed_in_account(app, client):
    assert client.get("/organise/new").headers["Location"].startswith("/signin?next=/organise/new")
    response = client.post("/organise/new", data=new_game_form(csrf(client, "/signin")))
    assert response.status_code == 302 and count(app, PendingGameRow) == 0


def test_an_admin_api_game_is_unchanged_and_starts_at_once(app, client, new_game):
    data, _ = new_game(players=3)
    assert count(app, GameRow) == 1 and count(app, OutboxRow) == 3
    assert count(app, InvitationRow) == 0 and count(app, PendingGameRow) == 0


def test_the_games_language_becomes_every_seats_mail_language(app, client):
    from service.store import preferences
    sign_in(client, app)
    pending_id = create_game(client, language="ja")
    for _, address in PLAYERS:
        answer(app, address)
    row = pending_row(app, pending_id)
    with svc(app).db.reading() as session:
        assert [preferences.language_of(session, row.game_id, s) for s in range(4)] == ["ja"] * 4


def test_an_invitation_reaches_a_named_invitee_at_an_address_with_accents(app, client):
    """The edge accepts internationalised addresses (``josé@ñandú.example``); the invitation's
    To header names them like every game mail's (``headers.recipient``), where
    ``formataddr`` refused a non-ASCII address and the invitation was never sent."""
    sign_in(client, app)
    invitees = [("José, el de Cusco", "josé@ñandú.example"), ("Ben", "ben@example.org")]
    token = csrf(client, "/organise/new")
    assert client.post("/organise/new", data=new_game_form(token, invitees=invitees)).status_code == 303
    [jose] = [m for m in mails(app) if m["to"] == "josé@ñandú.example"]
    assert "/invite/" in jose["text"]
    message = email.message_from_string(jose["raw"], policy=policy.default)
    assert [(a.display_name, a.addr_spec) for a in message["To"].addresses] == [
        ("José, el de Cusco", "josé@ñandú.example")]
