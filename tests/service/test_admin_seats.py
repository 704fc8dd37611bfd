"""Seat management and the game's course: each an event with the admin as actor."""
from __future__ import annotations

from service.store.loading import load
from tests.service.test_admin_support import (SITE_EMAIL, accept_offer, actor_of, events, links_in, mails,
                                              move, post_form, seats, site_admin, svc, text_of)
from tests.conftest import secret_from_url



def test_replacing_a_player_revokes_old_links_and_mails_the_new_one_once_they_accept(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    response = post_form(client, data["id"], "seats/1/replace", name="Zoe", email="zoe@example.com", seq="1")
    assert response.status_code == 303, response.get_data(as_text=True)
    accept_offer(app, "zoe@example.com")
    last = events(client, admin_headers, data["id"])[-1]
    assert last["kind"] == "SeatReplaced" and last["actor"] == actor_of(app)
    assert last["payload"].items() >= {"seat": 1, "name": "Zoe", "previous_name": "P1"}.items()
    assert "email" not in last["payload"]  # sealed: a finished game's record is public
    assert client.get(f"/api/play/{secrets[1]}").status_code == 403
    assert move(client, secrets[1], "stay", 2).status_code == 403
    welcome = mails(app, "zoe@example.com")[-1]
    assert "You now have a seat" in text_of(welcome) and "You take over from P1" in text_of(welcome)
    link = links_in(welcome)[0]
    assert "/a/2/" in link and client.get(link).status_code == 200
    new_secret = secret_from_url(link)
    assert move(client, new_secret, "stay", 2).status_code == 200
    # The others' old links died with the event; they were sent fresh ones.
    assert client.get(f"/play/{secrets[0]}/a/1/0").status_code == 409
    assert links_in(mails(app, "p0@example.com")[-1])[0].startswith(f"/play/{secrets[0]}/a/2/")
    assert [s.name for s in seats(app, data["id"])] == ["P0", "Zoe", "P2"]


def test_a_seat_handed_to_a_bot_plays_itself_whenever_it_must(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    assert post_form(client, data["id"], "seats/2/bot", seq="1").status_code == 303
    log = events(client, admin_headers, data["id"])
    assert [(e["kind"], e["actor"]) for e in log[1:]] == [("SeatBotted", actor_of(app)), ("MoveMade", "bot")]
    assert log[2]["payload"]["seat"] == 2
    move(client, secrets[0], "stay", 3)
    move(client, secrets[1], "stay", 3)  # the reveal; then the bot chooses at once again
    log = events(client, admin_headers, data["id"])
    with svc(app).db.reading() as session:
        loaded = load(session, data["id"])
    assert loaded.state["players"][2]["in_temple"], "seed 42: the bot stayed and is asked again"
    assert log[-1]["actor"] == "bot" and log[-1]["payload"]["seat"] == 2
    assert log[-1]["payload"]["seq_seen"] == log[-2]["seq"]
    assert loaded.game.to_act(loaded.state) == [0, 1]
    assert not mails(app, "p2@example.com")[1:], "a bot's seat is not mailed turns"


def test_a_game_of_bots_plays_to_its_end(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, _ = new_game(players=3, seed=3)
    for seat in range(3):
        assert post_form(client, data["id"], f"seats/{seat}/bot").status_code == 303
    status = client.get(f"/api/games/{data['id']}", headers=admin_headers).get_json()
    assert status["status"] == "finished" and status["outcome"] is not None
    moves = [e for e in status["events"] if e["kind"] == "MoveMade"]
    assert len(moves) > 10 and {e["actor"] for e in moves} == {"bot"}
    assert all("The game is over." in text_of(m) for m in
               [mails(app, f"p{i}@example.com")[-1] for i in range(3)])


def test_pause_and_resume(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    assert post_form(client, data["id"], "pause", reason="server move", seq="2").status_code == 303
    refused = move(client, secrets[1], "stay", 3)
    assert refused.status_code == 400 and "paused" in refused.get_json()["error"]
    paused_mail = mails(app, "p1@example.com")[-1]
    assert "paused" in text_of(paused_mail) and "server move" in text_of(paused_mail)
    assert post_form(client, data["id"], "pause").status_code == 400
    assert post_form(client, data["id"], "resume", seq="3").status_code == 303
    log = events(client, admin_headers, data["id"])
    assert [(e["kind"], e["actor"]) for e in log[2:]] == [("GamePaused", actor_of(app)), ("GameResumed", actor_of(app))]
    assert client.get(f"/play/{secrets[1]}/a/1/0").status_code == 409, "links from before the pause"
    resumed = mails(app, "p1@example.com")[-1]
    assert "goes on again" in text_of(resumed)
    assert move(client, secrets[1], "stay", 4).status_code == 200
    assert not [m for m in mails(app, "p0@example.com") if "goes on again" in text_of(m)], \
        "seat 0 has already chosen: nothing to ask it"


def test_abandon(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    assert post_form(client, data["id"], "abandon", reason="").status_code == 400
    assert post_form(client, data["id"], "abandon", reason="players vanished").status_code == 303
    status = client.get(f"/api/games/{data['id']}", headers=admin_headers).get_json()
    assert status["status"] == "abandoned"
    assert [e["kind"] for e in status["events"][-2:]] == ["GameAbandoned", "SeedRevealed"]
    assert move(client, secrets[0], "stay", 3).status_code == 400  # at the head: abandoned
    for i in range(3):
        assert "players vanished" in text_of(mails(app, f"p{i}@example.com")[-1])
    assert post_form(client, data["id"], "rollback", to_seq="1", reason="oops").status_code == 400
    assert post_form(client, data["id"], "seats/0/bot").status_code == 400
    assert len(events(client, admin_headers, data["id"])) == 3


def test_seat_commands_refuse_bad_input(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, _ = new_game(players=3)
    for path, fields in (("seats/5/bot", {}), ("seats/0/replace", {"name": "", "email": "a@b.c"}),
                         ("seats/0/replace", {"name": "A", "email": "nope"})):
        assert post_form(client, data["id"], path, **fields).status_code == 400, path
    post_form(client, data["id"], "seats/0/bot")
    assert post_form(client, data["id"], "seats/0/bot").status_code == 400
    kinds = [e["kind"] for e in events(client, admin_headers, data["id"])]
    assert kinds.count("SeatBotted") == 1


def test_a_finished_game_of_bots_reveals_its_seed_and_cannot_be_rolled_back(app, client, admin_headers, new_game):
    """Rolling a finished game back would replay a future everyone knows once its seed is
    revealed (fair play), so it is refused and nothing changes."""
    site_admin(app, client)
    data, _ = new_game(players=3, seed=3)
    for seat in range(3):
        post_form(client, data["id"], f"seats/{seat}/bot")
    with svc(app).db.reading() as session:
        finished = load(session, data["id"])
    assert finished.row.status == "finished" and finished.head.kind == "SeedRevealed"
    response = post_form(client, data["id"], "rollback", to_seq="6", reason="replay the end")
    assert response.status_code == 400
    with svc(app).db.reading() as session:
        again = load(session, data["id"])
    assert again.row.status == "finished" and again.state == finished.state
    assert again.seq == finished.seq
