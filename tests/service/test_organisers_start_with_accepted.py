"""An organiser whose invitees have not all accepted may start the game with those who
did, when the game can be played by that many; the open invitations are then withdrawn."""
from __future__ import annotations

from sqlalchemy import select

from service.store.models import GameRow, InvitationRow, PendingGameRow, SeatRow
from tests.service.test_organisers_support import (PLAYERS, answer, create_game, csrf, sign_in,
                                                   svc)


def start(client, pending_id: str):
    page = f"/organise/games/{pending_id}"
    return client.post(f"{page}/start", data={"csrf_token": csrf(client, page)})


def test_the_organiser_starts_with_those_who_accepted_and_open_invitations_end(app, client):
    sign_in(client, app)
    pending_id = create_game(client)  # Olga plays; Ana, Ben and Cai are invited
    answer(app, PLAYERS[0][1])
    answer(app, PLAYERS[1][1])  # Cai is silent
    assert "Start with those who accepted" in client.get(f"/organise/games/{pending_id}").get_data(as_text=True)
    assert start(client, pending_id).status_code == 303
    with svc(app).db.reading() as session:
        pending = session.get(PendingGameRow, pending_id)
        seated = set(session.scalars(select(SeatRow.email).where(SeatRow.game_id == pending.game_id)))
        cai = session.scalars(select(InvitationRow).where(InvitationRow.email == PLAYERS[2][1])).one()
    assert pending.status == "started" and seated == {"olga@example.org", PLAYERS[0][1], PLAYERS[1][1]}
    assert cai.status == "withdrawn"
    late = answer(app, PLAYERS[2][1])
    assert late.status_code == 409 and "started already" in late.get_data(as_text=True)


def test_too_few_accepted_is_a_409_that_changes_nothing(app, client):
    sign_in(client, app)
    pending_id = create_game(client)
    refused = start(client, pending_id)
    assert refused.status_code == 409
    assert "Incan Gold needs at least 3 players; 1 has accepted so far" in refused.get_data(as_text=True)
    with svc(app).db.reading() as session:
        assert session.get(PendingGameRow, pending_id).status == "inviting"
        assert session.scalars(select(GameRow)).first() is None
