"""Bots of a level wherever a seat goes to a bot: an admin's hand-over, a timeout a bot
decides, the empty seats an organiser fills at the start.  The strong bot is replaced here by
a stub that notes each call and plays the easy move, so the tests stay fast; what is checked
is that the service asks the engine for the level chosen, and records it."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import select

from engine import get_game
from service.application import games
from service.core.tokens import spectate_token
from service.store import events as store
from service.store import fairness
from service.store.loading import load
from service.view.feeds import public_words
from service.view.i18n import translate
from service.store.models import GameRow, OutboxRow, PendingGameRow, SeatRow
from tests import independent_verifier
from tests.conftest import secret_from_url
from tests.service.test_rematch_by_consent import ask as ask_rematch
from tests.service.test_admin_support import (actor_of, events, move, post_form, site_admin,
                                              svc)
from tests.service.test_organisers_support import PLAYERS, answer, create_game, csrf, sign_in
from tests.service.test_organisers_support import mails as invitation_mails
from tests.service.test_mail import mails
from tests.service.test_time import sweep

GAME = get_game("incan_gold")


@pytest.fixture
def strong_calls(monkeypatch) -> list[int]:
    """The seats the strong bot was asked to play, in order; it plays the easy bot's move."""
    calls: list[int] = []

    def strong(self, state, seat):
        calls.append(seat)
        return self.easy_bot_action(state, seat)
    monkeypatch.setattr(type(GAME), "strong_bot_action", strong)
    return calls


def admin_page_text(client, game_id: str) -> str:
    return client.get(f"/admin/games/{game_id}").get_data(as_text=True)


def verified_by_both(app, game_id: str) -> None:
    """The game's published record passes our verifier and the independent one."""
    token = spectate_token(svc(app).settings.secret_key, game_id)
    response = app.test_client().get(f"/watch/{token}/record.json")
    assert response.status_code == 200, response.get_data(as_text=True)
    record = json.loads(response.get_data())
    verdict = fairness.check_record(record)
    assert verdict.ok, [c.detail for c in verdict.checks if not c.ok]
    ok, _fair, rule = independent_verifier.verify(record)
    assert ok, f"the independent verifier fails rule {rule}"


def test_a_seat_handed_to_the_strong_bot_is_played_by_the_strong_bot(
        app, client, admin_headers, new_game, strong_calls):
    site_admin(app, client)
    data, _ = new_game(players=3)
    assert post_form(client, data["id"], "seats/2/bot", seq="1", level="strong").status_code == 303
    log = events(client, admin_headers, data["id"])
    assert [(e["kind"], e["actor"]) for e in log[1:]] == [("SeatBotted", actor_of(app)),
                                                         ("MoveMade", "bot")]
    assert log[1]["payload"]["level"] == "strong"
    assert strong_calls == [2]
    with svc(app).db.reading() as session:
        assert session.get(SeatRow, (data["id"], 2)).bot_level == "strong"
    assert "handed P2&#39;s seat to the strong bot" in admin_page_text(client, data["id"])


def test_the_admin_api_hands_a_seat_to_a_bot_of_the_level_it_names(
        client, admin_headers, new_game, strong_calls):
    data, _ = new_game(players=3)
    response = client.post(f"/admin/api/games/{data['id']}/seats/1/bot",
                           json={"level": "strong"}, headers=admin_headers)
    assert response.status_code == 200, response.get_json()
    players = client.get(f"/admin/api/games/{data['id']}", headers=admin_headers).get_json()["players"]
    assert [(p["bot"], p["bot_level"]) for p in players] == [(False, None), (True, "strong"),
                                                             (False, None)]
    assert strong_calls == [1]


def test_an_unknown_bot_level_is_refused_and_changes_nothing(
        app, client, admin_headers, new_game, strong_calls):
    site_admin(app, client)
    data, _ = new_game(players=3)
    page = post_form(client, data["id"], "seats/2/bot", seq="1", level="genius")
    api = client.post(f"/admin/api/games/{data['id']}/seats/2/bot", json={"level": ["strong"]},
                      headers=admin_headers)
    assert page.status_code == 400 and api.status_code == 400
    assert "level must be one of easy, strong" in api.get_json()["error"]
    assert [e["kind"] for e in events(client, admin_headers, data["id"])] == ["GameCreated"]
    with svc(app).db.reading() as session:
        assert not session.get(SeatRow, (data["id"], 2)).bot
    assert strong_calls == []


def test_a_seat_handed_over_before_levels_plays_as_the_easy_bot(
        app, client, admin_headers, new_game, strong_calls):
    """A SeatBotted without a level (recorded before levels, its seat row without one) is the
    easy bot: it plays easy moves, the audit says so, and the game still verifies."""
    site_admin(app, client)
    data, _ = new_game(players=3, seed=3)
    service = svc(app)
    for seat in range(3):  # as the code before levels recorded a hand-over
        with service.db.unit_of_work() as session:
            loaded = load(session, data["id"])
            event = store.append(session, data["id"], loaded.seq + 1, loaded.head_hash,
                                 "SeatBotted", {"seat": seat, "name": f"P{seat}"}, "admin", service.clock())
            loaded.events.append(event)
            loaded.seats[seat].bot = True
            games.play_bots(session, loaded, service.clock())
            games.queue_mail(session, loaded, None, service.clock(), service.settings.mail_domain)
    status = client.get(f"/api/games/{data['id']}", headers=admin_headers).get_json()
    assert status["status"] == "finished"
    assert strong_calls == [], "an old hand-over is never the strong bot"
    assert "handed P0&#39;s seat to the easy bot" in admin_page_text(client, data["id"])
    verified_by_both(app, data["id"])


def test_a_timeout_under_the_bot_policy_is_decided_by_the_bot_of_the_organisers_level(
        app, client, clock, admin_headers, new_game, strong_calls):
    data, _ = new_game(players=3, clock={"timeout_policy": "bot", "timeout_bot_level": "strong",
                                         "vacation_days": 0})
    clock.advance(timedelta(hours=48, minutes=1))
    sweep(app, clock)
    timed_out = [e for e in events(client, admin_headers, data["id"]) if e["kind"] == "TurnTimedOut"]
    assert {e["payload"]["seat"] for e in timed_out} == {0, 1, 2}
    assert all(e["actor"] == "system" and e["payload"]["policy"] == "bot"
               and e["payload"]["level"] == "strong" for e in timed_out)
    assert sorted(strong_calls) == [0, 1, 2]
    told = mails(app, "p0@example.com")[-1].get_body(("plain",)).get_content()
    assert "time ran out; the strong bot " in told


def test_the_invitation_says_in_words_which_bot_decides_when_time_runs_out(app, client):
    sign_in(client, app)
    create_game(client, timeout_policy="bot", timeout_bot_level="strong")
    invitation = [m for m in invitation_mails(app, PLAYERS[0][1]) if "/invite/" in m["text"]][-1]
    assert "when time runs out, the strong bot decides for you" in invitation["text"]


def test_an_unknown_timeout_bot_level_is_refused(client, admin_headers):
    body = {"game": "incan_gold", "players": [{"name": f"P{i}", "email": f"p{i}@example.com"}
                                              for i in range(3)],
            "clock": {"timeout_policy": "bot", "timeout_bot_level": "genius"}}
    response = client.post("/api/games", json=body, headers=admin_headers)
    assert response.status_code == 400
    assert "timeout_bot_level must be one of easy, strong" in response.get_json()["error"]


def start(client, pending_id: str, bots: str):
    page = f"/organise/games/{pending_id}"
    return client.post(f"{page}/start", data={"csrf_token": csrf(client, page), "bots": bots})


def test_empty_seats_filled_with_bots_at_the_start_get_no_mail_and_play_at_once(
        app, client, clock, admin_headers, strong_calls):
    sign_in(client, app)
    pending_id = create_game(client)  # Olga plays; Ana, Ben and Cai are invited: 4 seats
    answer(app, PLAYERS[0][1])
    assert start(client, pending_id, "strong").status_code == 303
    with svc(app).db.reading() as session:
        pending = session.get(PendingGameRow, pending_id)
        game_id, organiser = pending.game_id, pending.organiser_id
        seats = session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                                .order_by(SeatRow.seat)).all()
        mailed_to = set(session.scalars(select(OutboxRow.to_addr).where(OutboxRow.game_id == game_id)))
    bots = [s for s in seats if s.bot]
    assert sorted(s.name for s in bots) == ["Strong bot", "Strong bot 2"]
    assert all(s.email == "" and s.bot_level == "strong" for s in bots)
    assert "" not in mailed_to and mailed_to == {"olga@example.org", PLAYERS[0][1]}
    log = events(client, admin_headers, game_id)
    botted = [e for e in log if e["kind"] == "SeatBotted"]
    assert [e["seq"] for e in botted] == [2, 3], "bots from the start, before any move"
    assert all(e["actor"] == f"organiser:{organiser}" and e["payload"]["level"] == "strong"
               for e in botted)
    assert sorted(strong_calls) == sorted(s.seat for s in bots), "both strong bots chose at once"
    sweep(app, clock)  # nothing is left waiting for the sweep
    assert sorted(strong_calls) == sorted(s.seat for s in bots)
    log = events(client, admin_headers, game_id)
    assert {e["payload"]["seat"] for e in log if e["actor"] == "bot"} == {s.seat for s in bots}
    with svc(app).db.reading() as session:
        loaded = load(session, game_id)
    told = translate("en", public_words(loaded.events[1], [s.name for s in seats], [],
                                        loaded.events))
    assert told.endswith("seat is played by the strong bot from the start."), told


def played_by_easy_bots_from_start_to_end(app, client, admin_headers) -> tuple[str, str]:
    """A game started with its empty seats filled by easy bots, whose people then hand their
    seats over too, so that it plays to its end: its pending game's id and its own."""
    sign_in(client, app)
    pending_id = create_game(client)
    answer(app, PLAYERS[0][1])
    assert start(client, pending_id, "easy").status_code == 303
    with svc(app).db.reading() as session:
        game_id = session.get(PendingGameRow, pending_id).game_id
        people = [s.seat for s in session.scalars(select(SeatRow).where(
            SeatRow.game_id == game_id, SeatRow.bot.is_(False)))]
    for seat in people:
        response = client.post(f"/admin/api/games/{game_id}/seats/{seat}/bot", json={},
                               headers=admin_headers)
        assert response.status_code == 200, response.get_json()
    return pending_id, game_id


def test_a_game_whose_empty_seats_were_filled_with_bots_verifies_with_both_verifiers(
        app, client, admin_headers, strong_calls):
    pending_id, game_id = played_by_easy_bots_from_start_to_end(app, client, admin_headers)
    assert client.get(f"/api/games/{game_id}", headers=admin_headers).get_json()["status"] == "finished"
    assert strong_calls == []
    verified_by_both(app, game_id)


def test_a_rematch_of_a_game_with_bots_from_its_start_is_refused_in_words(
        app, client, admin_headers):
    """A rematch invites the same people by mail, and a bot seated from the start has no
    address: the player is told so, and nothing is asked of anyone."""
    pending_id, game_id = played_by_easy_bots_from_start_to_end(app, client, admin_headers)
    ana = secret_from_url(next(m["text"] for m in invitation_mails(app, PLAYERS[0][1])
                               if "/play/" in m["text"]))
    player = app.test_client()
    asked = ask_rematch(player, ana)
    page = player.get(asked.headers["Location"]).get_data(as_text=True)
    assert "this game had bots in seats from its start" in page
    with svc(app).db.reading() as session:
        assert session.scalars(select(PendingGameRow)).all() == [session.get(PendingGameRow, pending_id)]


def test_an_unknown_level_for_the_empty_seats_is_refused_and_the_game_does_not_start(app, client):
    sign_in(client, app)
    pending_id = create_game(client)
    answer(app, PLAYERS[0][1])
    assert start(client, pending_id, "genius").status_code == 400
    with svc(app).db.reading() as session:
        assert session.get(PendingGameRow, pending_id).status == "inviting"


def test_a_bot_level_outside_the_rules_fails_both_verifiers(app, client, admin_headers, new_game):
    from tests.service import record_kit as kit
    record = kit.bot_record(app, client, new_game, "incan_gold")
    assert fairness.check_record(record).ok and independent_verifier.verify(record)[0]

    def genius_bot(r):
        next(e for e in r["events"] if e["kind"] == "SeatBotted")["payload"]["level"] = "genius"
    forged = kit.forged(record, genius_bot)
    verdict = fairness.check_record(forged)
    assert [c.name for c in verdict.checks if not c.ok] == ["the events"]
    assert independent_verifier.verify(forged) == (False, "not proven", "3.7")


def test_a_seat_botted_by_a_seat_fails_both_verifiers(app, client, admin_headers, new_game):
    from tests.service import record_kit as kit
    record = kit.bot_record(app, client, new_game, "incan_gold")

    def seat_hands_over(r):
        next(e for e in r["events"] if e["kind"] == "SeatBotted")["actor"] = "seat:0"
    forged = kit.forged(record, seat_hands_over)
    assert not fairness.check_record(forged).ok
    assert independent_verifier.verify(forged) == (False, "not proven", "3.3")


def test_bots_filling_empty_seats_are_named_in_the_games_language(app, client):
    sign_in(client, app)
    pending_id = create_game(client, language="ja")
    answer(app, PLAYERS[0][1])
    assert start(client, pending_id, "strong").status_code == 303
    with svc(app).db.reading() as session:
        game_id = session.get(PendingGameRow, pending_id).game_id
        names = sorted(session.scalars(select(SeatRow.name).where(
            SeatRow.game_id == game_id, SeatRow.bot.is_(True))))
    assert names == ["強いボット", "強いボット 2"]


def test_a_command_makes_few_strong_decisions_and_the_sweep_plays_the_rest(
        app, client, clock, admin_headers, new_game, strong_calls):
    """A strong bot thinks, so one request asks it at most ``MAX_STRONG_BOT_MOVES`` times; the
    bot turns left waiting are played by the next sweeps, until a game of bots is over."""
    data, _ = new_game(players=3, seed=3)
    for seat in range(3):
        before = len(strong_calls)
        response = client.post(f"/admin/api/games/{data['id']}/seats/{seat}/bot",
                               json={"level": "strong"}, headers=admin_headers)
        assert response.status_code == 200, response.get_json()
        assert len(strong_calls) - before <= games.MAX_STRONG_BOT_MOVES
    sweeps = 0
    while client.get(f"/api/games/{data['id']}", headers=admin_headers).get_json()["status"] == "active":
        before = len(strong_calls)
        sweep(app, clock)
        sweeps += 1
        assert 0 < len(strong_calls) - before <= games.SWEEP_STRONG_BOT_MOVES
        assert sweeps < 500, "the sweeps play the bots on to the end"
    assert sweeps > 1
    verified_by_both(app, data["id"])


def test_a_game_of_real_strong_bots_plays_to_its_end_and_verifies(
        app, client, clock, admin_headers, new_game, monkeypatch):
    """No stub here: the engine's own strong bot (with a small budget, so the test is quick)
    plays every seat through the commands and the sweeps, each move recorded as the bot's, and
    the finished record passes both verifiers."""
    from dataclasses import replace
    monkeypatch.setattr(GAME, "search_settings", replace(GAME.search_settings, iterations=4))
    data, _ = new_game(players=3, seed=11)
    for seat in range(3):
        response = client.post(f"/admin/api/games/{data['id']}/seats/{seat}/bot",
                               json={"level": "strong"}, headers=admin_headers)
        assert response.status_code == 200, response.get_json()
    for _ in range(200):
        if client.get(f"/api/games/{data['id']}", headers=admin_headers).get_json()["status"] != "active":
            break
        sweep(app, clock)
    assert client.get(f"/api/games/{data['id']}", headers=admin_headers).get_json()["status"] == "finished"
    log = events(client, admin_headers, data["id"])
    moves = [e for e in log if e["kind"] == "MoveMade"]
    assert moves and all(e["actor"] == "bot" for e in moves)
    verified_by_both(app, data["id"])


def test_the_api_seats_bots_from_the_start_without_an_address_or_mail(
        app, client, admin_headers, strong_calls):
    body = {"game": "incan_gold", "seed": 5,
            "players": [{"name": "Ana", "email": "ana@example.com"},
                        {"name": "Strong bot", "bot_level": "strong"},
                        {"name": "Easy bot", "bot_level": "easy"}]}
    response = client.post("/api/games", json=body, headers=admin_headers)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    assert [s["play_url"] is None for s in created["seats"]] == [False, True, True]
    log = events(client, admin_headers, created["id"])
    botted = [(e["payload"]["seat"], e["payload"]["level"], e["actor"]) for e in log
              if e["kind"] == "SeatBotted"]
    assert botted == [(1, "strong", "admin"), (2, "easy", "admin")]
    assert created["seq"] == log[-1]["seq"] > 1, "the bots played their first decision at once"
    assert strong_calls == [1]
    with svc(app).db.reading() as session:
        mailed = {row.seat for row in session.scalars(
            select(OutboxRow).where(OutboxRow.game_id == created["id"]))}
    assert mailed == {0}, "only the person is mailed"


def test_the_api_refuses_an_unknown_level_for_a_seat_and_creates_nothing(
        app, client, admin_headers):
    body = {"game": "incan_gold",
            "players": [{"name": "Ana", "email": "ana@example.com"},
                        {"name": "B", "email": "b@example.com"},
                        {"name": "Bot", "bot_level": "genius"}]}
    response = client.post("/api/games", json=body, headers=admin_headers)
    assert response.status_code == 400
    assert "must be one of easy, strong" in response.get_json()["error"]
    with svc(app).db.reading() as session:
        assert session.scalars(select(GameRow)).all() == []
