"""A player takes back their own move within their turn: an Undone event."""
from __future__ import annotations

from service.store.loading import load
from service.store.history import effective_moves
from tests.service.test_admin_support import (events, links_in, mails, move, site_admin, svc,
                                              token_in)


def undo(client, secret, seq=None, token=True):
    page = client.get(f"/play/{secret}").get_data(as_text=True)
    fields = {"seq": str(seq)} if seq is not None else {}
    if token:
        fields["csrf_token"] = token_in(page)
    return client.post(f"/play/{secret}/undo", data=fields)


def test_a_player_takes_back_their_move_while_nothing_new_is_known(app, client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    with svc(app).db.reading() as session:
        initial = load(session, data["id"])
    move(client, secrets[0], "stay", 1)
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    assert "Take back my move: Stay in the temple" in page
    assert "Take back" not in client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    response = undo(client, secrets[0], seq=2)
    assert response.status_code == 303
    assert "your move was taken back" in client.get(response.headers["Location"]).get_data(as_text=True)
    last = events(client, admin_headers, data["id"])[-1]
    assert last["kind"] == "Undone" and last["actor"] == "seat:0"
    assert last["payload"]["to_seq"] == 1 and last["payload"]["seat"] == 0
    with svc(app).db.reading() as session:
        loaded = load(session, data["id"])
    assert effective_moves(loaded.events) == []
    for seat in (None, 0, 1, 2):  # a game that reshuffles at an undo changes nothing seen
        assert loaded.game.view(loaded.state, seat) == initial.game.view(initial.state, seat)
    # Seat 0 chooses again, with the fresh link it was mailed.
    fresh = links_in(mails(app, "p0@example.com")[-1])
    assert fresh and all("/a/3/" in link for link in fresh)
    assert move(client, secrets[0], "leave", 3).status_code == 200


def test_the_undone_move_is_struck_through_in_the_admin_log(app, client, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    undo(client, secrets[0], seq=2)
    page = client.get(f"/admin/games/{data['id']}").get_data(as_text=True)
    assert 'id="seq-2" class="struck"' in page
    assert "took back a move: back to step 1 (its start); undone: P0&#39;s move at step 2" in page


def test_no_undo_after_another_seat_acted(app, client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    move(client, secrets[1], "stay", 2)
    assert "Take back" not in client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    response = undo(client, secrets[0], seq=3)
    assert response.status_code == 303
    assert "the last move is not yours" in client.get(response.headers["Location"]).get_data(as_text=True)
    assert len(events(client, admin_headers, data["id"])) == 3


def test_no_undo_once_the_move_revealed_something(app, client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    for seat in range(3):
        move(client, secrets[seat], "stay", 1 + seat)  # the last choice reveals a card
    assert "Take back" not in client.get(f"/play/{secrets[2]}").get_data(as_text=True)
    response = undo(client, secrets[2], seq=4)
    assert "revealed something new" in client.get(response.headers["Location"]).get_data(as_text=True)
    assert len(events(client, admin_headers, data["id"])) == 4


def test_undo_needs_csrf_and_a_fresh_seq(app, client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    assert undo(client, secrets[0], seq=2, token=False).status_code == 400
    stale = undo(client, secrets[0], seq=1)
    assert "moved on" in client.get(stale.headers["Location"]).get_data(as_text=True)
    assert undo(client, secrets[0]).status_code == 400
    assert client.post("/play/forged/undo", data={"seq": "2",
                       "csrf_token": token_in(client.get(f"/play/{secrets[0]}").get_data(as_text=True))}).status_code == 403
    assert len(events(client, admin_headers, data["id"])) == 2


def test_an_undo_cannot_be_repeated_into_the_moves_before(app, client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    undo(client, secrets[0], seq=2)
    response = undo(client, secrets[0], seq=3)
    assert "you have made no move" in client.get(response.headers["Location"]).get_data(as_text=True)
    assert len(events(client, admin_headers, data["id"])) == 3
