"""Open games in the public lobby; joining is confirmed by mail like an invitation."""
from __future__ import annotations

from sqlalchemy import select

from service.store.models import GameRow, PendingGameRow, SeatRow
from tests.service.test_organisers_support import (PLAYERS, answer, csrf, mails, new_game_form,
                                                   sign_in, svc)


def open_game(app, client, seats=4):
    sign_in(client, app)
    token = csrf(client, "/organise/new")
    response = client.post("/organise/new", data=new_game_form(
        token, invitees=PLAYERS[:1], count=seats, open="on"))
    assert response.status_code == 303
    with svc(app).db.reading() as session:
        return session.scalars(select(PendingGameRow.id)).one()


def join(app, pending_id, name, address):
    visitor = app.test_client()
    visitor.get(f"/lobby/{pending_id}")
    token = csrf(visitor, "/signin")  # a full or closed game's page has no form
    return visitor.post(f"/lobby/{pending_id}/join",
                        data={"csrf_token": token, "name": name, "email": address})


def test_the_lobby_lists_open_games_with_free_seats_and_joining_fills_them(app, client):
    pending_id = open_game(app, client)
    lobby = client.get("/lobby/").get_data(as_text=True)
    assert f"/lobby/{pending_id}" in lobby and "2 of 4" in lobby
    assert join(app, pending_id, "Dee", "dee@example.org").status_code == 200
    [confirmation] = mails(app, "dee@example.org")
    assert "Confirm your seat" in confirmation["subject"] and "?answer=accept" in confirmation["text"]
    assert "1 of 4" in client.get("/lobby/").get_data(as_text=True)  # the seat is held
    assert join(app, pending_id, "Eve", "eve@example.org").status_code == 200
    assert f"/lobby/{pending_id}" not in client.get("/lobby/").get_data(as_text=True)  # full
    assert join(app, pending_id, "Fay", "fay@example.org").status_code == 409
    assert mails(app, "fay@example.org") == []

    for address in ("dee@example.org", "ana@example.org"):
        assert answer(app, address).status_code == 200
    with svc(app).db.reading() as session:
        assert session.scalars(select(GameRow)).first() is None  # Eve has not confirmed
    assert answer(app, "eve@example.org").status_code == 200
    with svc(app).db.reading() as session:
        game = session.scalars(select(GameRow)).one()
        seated = set(session.scalars(select(SeatRow.email).where(SeatRow.game_id == game.id)))
    assert seated == {"olga@example.org", "ana@example.org", "dee@example.org", "eve@example.org"}


def test_a_closed_game_is_not_in_the_lobby_and_cannot_be_joined(app, client):
    sign_in(client, app)
    client.post("/organise/new", data=new_game_form(csrf(client, "/organise/new")))
    with svc(app).db.reading() as session:
        pending_id = session.scalars(select(PendingGameRow.id)).one()
    assert f"/lobby/{pending_id}" not in client.get("/lobby/").get_data(as_text=True)
    assert client.get(f"/lobby/{pending_id}").status_code == 404
    assert join(app, pending_id, "Dee", "dee@example.org").status_code == 404


def test_joining_twice_or_with_a_bad_address_is_refused(app, client):
    pending_id = open_game(app, client)
    assert join(app, pending_id, "Ana", "ana@example.org").status_code == 409  # invited already
    assert join(app, pending_id, "Dee", "not-an-address").status_code == 400
    assert join(app, pending_id, "", "dee@example.org").status_code == 400
    assert mails(app, "dee@example.org") == []
