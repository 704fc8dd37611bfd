"""Rollback: a RolledBack event, never a deletion; old links die; everyone is told."""
from __future__ import annotations

import re

from service.application.games import is_fresh
from service.store import events as event_store

from service.store.loading import load
from tests.service.test_admin_support import (SITE_EMAIL, events, links_in, mails, move,
                                              post_form, seats, site_admin, svc, text_of)


def state_of(app, game_id):
    with svc(app).db.reading() as session:
        loaded = load(session, game_id)
    return loaded


def test_rollback_then_replay_equals_a_game_that_never_had_the_undone_moves(app, client, new_game,
                                                                          monkeypatch):
    """In a game of schema version 2 (before rollbacks reshuffled what nobody saw)."""
    monkeypatch.setattr(event_store, "SCHEMA_VERSION", 2)
    site_admin(app, client)
    a, sa = new_game(players=3, seed=42)
    b, sb = new_game(players=3, seed=42)
    for seat in range(3):  # both: everyone stays, a card is revealed (seq 2..4)
        assert move(client, sa[seat], "stay", 1 + seat).status_code == 200
        assert move(client, sb[seat], "stay", 1 + seat).status_code == 200
    for seat, action in enumerate(["stay", "leave", "stay"]):  # only A goes on (seq 5..7)
        assert move(client, sa[seat], action, 4 + seat).status_code == 200
    response = post_form(client, a["id"], "rollback", to_seq="4", reason="wrong click", seq="7")
    assert response.status_code == 303, response.get_data(as_text=True)
    game_a, game_b = state_of(app, a["id"]), state_of(app, b["id"])
    assert game_a.seq == 8 and game_a.events[-1].kind == "RolledBack"
    assert game_a.state == game_b.state
    for seat in (None, 0, 1, 2):
        assert game_a.game.view(game_a.state, seat) == game_b.game.view(game_b.state, seat)
    # ...and both go on alike from there.
    for seat, action in enumerate(["leave", "stay", "leave"]):
        assert move(client, sa[seat], action, 8 + seat).status_code == 200
        assert move(client, sb[seat], action, 4 + seat).status_code == 200
    assert state_of(app, a["id"]).state == state_of(app, b["id"]).state


def test_links_made_before_a_rollback_no_longer_work(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    assert move(client, secrets[0], "stay", 1).status_code == 200
    # Seat 1's start-mail link is still good: only another seat chose meanwhile.
    assert client.get(f"/play/{secrets[1]}/a/1/0").status_code == 200
    assert post_form(client, data["id"], "rollback", to_seq="1", reason="misclick").status_code == 303
    loaded = state_of(app, data["id"])
    assert not any(is_fresh(loaded, seat, 1) for seat in range(3))
    for seat in range(3):
        page = client.get(f"/play/{secrets[seat]}/a/1/0")
        assert page.status_code == 409 and "moved on" in page.get_data(as_text=True)
    refused = move(client, secrets[1], "stay", 1)
    assert refused.status_code == 409
    assert len(events(client, admin_headers, data["id"])) == 3
    # The fresh links in the rollback mail work.
    fresh = links_in(mails(app, "p1@example.com")[-1])
    assert fresh and all("/a/3/" in link for link in fresh)
    assert client.get(fresh[0]).status_code == 200
    assert move(client, secrets[1], "stay", 3).status_code == 200


def test_every_player_is_mailed_what_was_undone_by_whom_and_why(app, client, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    move(client, secrets[1], "leave", 1)
    before = len(mails(app))
    post_form(client, data["id"], "rollback", to_seq="2", reason="P1 pressed the wrong button")
    new = mails(app)[before:]
    assert sorted(m["To"] for m in new) == [f"P{i} <p{i}@example.com>" for i in range(3)]
    for message in new:
        text = text_of(message)
        assert "The game was rolled back by a Chasqui admin." in text
        assert "taken back to just after P0's move by a Chasqui admin" in text and "P1 pressed the wrong button" in text
        assert SITE_EMAIL not in text  # players read that an admin did it, not the address
        assert "Undone: 1 move by P1." in text
        assert message["Message-ID"].endswith(".rollback@chasqui.test>")
    p1 = text_of([m for m in new if "p1@" in m["To"]][0])
    assert "Your undone move: Leave for camp" in p1
    p2 = text_of([m for m in new if "p2@" in m["To"]][0])
    assert "Leave for camp" not in p2.split("Your move")[0], "another seat's secret choice is not told"
    # notified_key was reset: seats that must act were asked afresh at the rollback's seq.
    rows = seats(app, data["id"])
    assert [r.decision_seq for r in rows] == [None, 4, 4]


def test_a_rollback_can_itself_be_rolled_back(app, client, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    after_move = state_of(app, data["id"])
    seen = [after_move.game.view(after_move.state, seat) for seat in (None, 0, 1, 2)]
    post_form(client, data["id"], "rollback", to_seq="1", reason="first thoughts")
    assert state_of(app, data["id"]).state != after_move.state
    post_form(client, data["id"], "rollback", to_seq="2", reason="it was right after all")
    loaded = state_of(app, data["id"])
    assert [e.kind for e in loaded.events] == ["GameCreated", "MoveMade", "RolledBack", "RolledBack"]
    # Every seat sees the game as right after the move; only what nobody has seen was
    # shuffled again by the rewinds (docs/fairness.md, "Rollbacks").
    assert [loaded.game.view(loaded.state, seat) for seat in (None, 0, 1, 2)] == seen
    page = client.get(f"/admin/games/{data['id']}").get_data(as_text=True)
    assert 'id="seq-2" class="struck"' not in page


def test_undone_moves_are_struck_through_in_the_log(app, client, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    post_form(client, data["id"], "rollback", to_seq="1", reason="test")
    page = client.get(f"/admin/games/{data['id']}").get_data(as_text=True)
    assert 'id="seq-2" class="struck"' in page
    assert re.search(r"rolled back</strong> — rolled the game back to step 1 \(its start\); undone: P0(&#39;|')s move at step 2", page)


def test_bad_rollbacks_are_4xx_and_change_nothing(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    for fields in ({"to_seq": "0", "reason": "x"}, {"to_seq": "2", "reason": "x"},
                   {"to_seq": "1", "reason": "  "}, {"to_seq": "one", "reason": "x"}):
        assert post_form(client, data["id"], "rollback", **fields).status_code == 400, fields
    stale = post_form(client, data["id"], "rollback", to_seq="1", reason="x", seq="1")
    assert stale.status_code == 409 and "moved on" in stale.get_data(as_text=True)
    assert len(events(client, admin_headers, data["id"])) == 2


def test_rollback_through_the_admin_api(app, client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    response = client.post(f"/admin/api/games/{data['id']}/rollback", headers=admin_headers,
                           json={"to_seq": 1, "reason": "by API", "seq": 2})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["seq"] == 3 and response.get_json()["mailed"] == 3
    last = events(client, admin_headers, data["id"])[-1]
    assert last["kind"] == "RolledBack" and last["actor"] == "admin"
    assert last["payload"]["to_seq"] == 1 and last["payload"]["reason"] == "by API"
    bad = client.post(f"/admin/api/games/{data['id']}/rollback", headers=admin_headers,
                      json={"to_seq": 1})
    assert bad.status_code == 400 and "reason" in bad.get_json()["error"]
