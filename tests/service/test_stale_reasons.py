"""A move that came too late, told in words a mail reader understands (``why_stale``): the
player already moved, the link is not from this game, the game is over, paused or taken back,
or others moved -- in sentence case, naming who moved but never what they chose (a move may
be a secret choice: only ``view(state, seat)`` decides what a seat sees).  The JSON API keeps
its refusal as it was, and a page keeps "moved on" except for a seq the game never had."""
from __future__ import annotations

from engine.text import render
from service.application.stale import why_stale
from service.store.loading import load
from service.view.i18n import translate
from service.web.extensions import services


def loaded(app, game_id):
    with services(app).db.reading() as session:
        return load(session, game_id)


def move(client, secret, action, seq):
    response = client.post(f"/api/play/{secret}", json={"action": {"type": action}, "seq": seq})
    assert response.status_code == 200, response.get_json()


def admin(client, headers, game_id, command, **body):
    response = client.post(f"/admin/api/games/{game_id}/{command}", headers=headers, json=body)
    assert response.status_code == 200, response.get_json()


def test_a_repeated_answer_says_the_player_already_moved_and_names_their_own_move(app, client, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    said = render(why_stale(loaded(app, data["id"]), 0, 1))
    assert said.startswith("You already moved since that mail: Stay in the temple.")
    assert "reload" not in said and "moved on" not in said


def test_a_seq_the_game_never_had_is_not_from_this_game(app, client, new_game):
    data, _ = new_game(players=3)
    said = render(why_stale(loaded(app, data["id"]), 0, 999))
    assert said.startswith("That mail is not from this game as it is now: it names a point the "
                           "game has not reached.")
    assert "999" not in said
    assert "moved on" not in said


def test_others_who_moved_are_named_but_not_what_they_chose(app, client, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "leave", 1)
    move(client, secrets[1], "stay", 2)
    move(client, secrets[2], "stay", 2)
    said = render(why_stale(loaded(app, data["id"]), 0, 2))
    assert said.startswith("P1, P2 moved since that mail, so the choice it asked for is over.")
    assert "Stay" not in said


def test_a_rollback_a_pause_and_an_ended_game_are_each_said(app, client, new_game, admin_headers):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    admin(client, admin_headers, data["id"], "rollback", to_seq=1, reason="misclick", seq=2)
    taken_back = render(why_stale(loaded(app, data["id"]), 0, 1))
    assert taken_back.startswith("The game was taken back since that mail")
    admin(client, admin_headers, data["id"], "pause", reason="a break")
    assert render(why_stale(loaded(app, data["id"]), 1, 3)).startswith("The game is paused")
    admin(client, admin_headers, data["id"], "abandon", reason="done")
    assert render(why_stale(loaded(app, data["id"]), 1, 3)).startswith("This game was ended early")


def test_every_reason_reads_in_chinese_and_japanese(app, client, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    for seat, seq in ((0, 1), (0, 999)):
        reason = why_stale(loaded(app, data["id"]), seat, seq)
        for language in ("zh_Hans", "ja"):
            assert translate(language, reason) != render(reason), (language, seat, seq)


def test_the_json_api_keeps_its_refusal(app, client, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    refused = client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "stay"}, "seq": 999})
    assert refused.status_code == 409
    assert refused.get_json()["error"].startswith("the game moved on since you looked at it")


def test_a_link_with_a_seq_the_game_never_had_says_so_on_the_page(app, client, new_game):
    data, secrets = new_game(players=3)
    page = client.get(f"/play/{secrets[0]}/a/999/0")
    text = page.get_data(as_text=True)
    assert page.status_code == 409 and "This link is not from this game" in text
    assert "moved on" not in text
    move(client, secrets[0], "stay", 1)
    old = client.get(f"/play/{secrets[0]}/a/1/0")
    assert old.status_code == 409 and "The game moved on" in old.get_data(as_text=True)
