"""A player's own order for when their time runs out: "let the easy (or strong) bot decide".

It is given on the play page (a POST; the page's GET changes nothing), recorded as the seat's
own event, played by the deadline sweep before the table's rule and before an automatic
vacation, and checked by both verifiers (docs/fairness.md, rule 3.8): a timeout that claims
the player's order without one fails.  The strong bot is the stub of ``test_bot_levels``."""
from __future__ import annotations

from datetime import timedelta

from service.store import fairness
from tests import independent_verifier
from tests.service import record_kit as kit
from tests.service.test_admin_support import events, post_form, site_admin
from tests.service.test_bot_levels import strong_calls  # noqa: F401 - a fixture
from tests.service.test_mail import mails
from tests.service.test_play_pages import form_fields
from tests.service.test_time import sweep

TIME_RUNS_OUT = timedelta(hours=48, minutes=1)


def order(client, secret: str, level: str):
    token = form_fields(client.get(f"/play/{secret}").get_data(as_text=True))["csrf_token"]
    return client.post(f"/play/{secret}/timeout-order",
                       data={"csrf_token": token, "level": level}, follow_redirects=True)


def kinds_of(client, admin_headers, game_id: str) -> list[str]:
    return [e["kind"] for e in events(client, admin_headers, game_id)]


def test_a_players_order_lets_the_strong_bot_decide_when_their_time_runs_out(
        app, client, clock, admin_headers, new_game, strong_calls):
    data, secrets = new_game(players=3)   # the table's rule: a safe default; 14 vacation days
    assert "the strong bot decides for you" in order(client, secrets[0], "strong").get_data(
        as_text=True)
    clock.advance(TIME_RUNS_OUT)
    sweep(app, clock)
    log = events(client, admin_headers, data["id"])
    timed_out = [e for e in log if e["kind"] == "TurnTimedOut"]
    assert [e["payload"]["seat"] for e in timed_out] == [0]
    assert timed_out[0]["payload"] | {"policy": "bot", "level": "strong", "ordered": True} \
        == timed_out[0]["payload"]
    assert strong_calls == [0]
    started = {e["payload"]["seat"] for e in log if e["kind"] == "VacationStarted"}
    assert started == {1, 2}, "the players without an order went on vacation, by the table's rule"
    told = mails(app, "p0@example.com")[-1].get_body(("plain",)).get_content()
    assert "time ran out; the strong bot " in told


def test_the_order_is_the_seats_own_event_and_a_second_click_records_nothing(
        app, client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    order(client, secrets[1], "easy")
    page = order(client, secrets[1], "easy").get_data(as_text=True)
    assert "That was already your choice." in page
    orders = [e for e in events(client, admin_headers, data["id"])
              if e["kind"] == "TimeoutOrderSet"]
    assert [(e["actor"], e["payload"]["seat"], e["payload"]["level"]) for e in orders] \
        == [("seat:1", 1, "easy")]


def test_going_back_to_the_tables_rule_ends_the_order(
        app, client, clock, admin_headers, new_game, strong_calls):
    data, secrets = new_game(players=3, clock={"vacation_days": 0})
    order(client, secrets[0], "strong")
    page = order(client, secrets[0], "table").get_data(as_text=True)
    assert "the table&#39;s rule applies" in page
    clock.advance(TIME_RUNS_OUT)
    sweep(app, clock)
    timed_out = [e for e in events(client, admin_headers, data["id"]) if e["kind"] == "TurnTimedOut"]
    assert {e["payload"]["seat"] for e in timed_out} == {0, 1, 2}
    assert not any("ordered" in e["payload"] for e in timed_out)
    assert strong_calls == []


def test_the_order_comes_before_a_tables_pause(app, client, clock, admin_headers, new_game):
    data, secrets = new_game(players=3, clock={"timeout_policy": "pause", "vacation_days": 0})
    for secret in secrets:
        order(client, secret, "easy")
    clock.advance(TIME_RUNS_OUT)
    sweep(app, clock)
    log = events(client, admin_headers, data["id"])
    assert "GamePaused" not in [e["kind"] for e in log]
    assert sorted(e["payload"]["seat"] for e in log if e["kind"] == "TurnTimedOut"
                  and e["payload"].get("ordered")) == [0, 1, 2]


def test_an_unknown_choice_is_refused_in_words_and_changes_nothing(
        app, client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    before = kinds_of(client, admin_headers, data["id"])
    page = order(client, secrets[0], "genius").get_data(as_text=True)
    assert "Not done:" in page and "must be one of table, easy, strong" in page
    assert kinds_of(client, admin_headers, data["id"]) == before


def test_the_play_page_shows_the_choice_in_words_and_its_get_changes_nothing(
        app, client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    order(client, secrets[2], "strong")
    before = kinds_of(client, admin_headers, data["id"])
    page = client.get(f"/play/{secrets[2]}").get_data(as_text=True)
    assert "When my time runs out" in page
    assert "The table's rule: when time runs out, the game plays a safe default move" in page
    assert 'value="strong" checked' in page
    assert "Let the strong bot decide for me" in page
    assert kinds_of(client, admin_headers, data["id"]) == before


def test_the_audit_says_who_asked_which_bot(app, client, clock, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    order(client, secrets[0], "easy")
    clock.advance(TIME_RUNS_OUT)
    sweep(app, clock)
    page = client.get(f"/admin/games/{data['id']}").get_data(as_text=True)
    assert "P0 asked the easy bot to decide whenever their time runs out" in page
    assert "P0&#39;s turn timed out; the easy bot chose for them, as they had asked" in page


def ordered_record(app, client, clock, new_game) -> dict:
    """A finished game in which seat 0's time ran out and its own order's bot decided."""
    site_admin(app, client)
    data, secrets = new_game(players=3, clock={"vacation_days": 0})
    order(client, secrets[0], "easy")
    clock.advance(TIME_RUNS_OUT)
    sweep(app, clock)
    for seat in range(3):
        assert post_form(client, data["id"], f"seats/{seat}/bot").status_code == 303
    return client.get(f"/play/{secrets[1]}/record.json").get_json()


def test_a_timeout_decided_by_the_players_order_verifies_and_a_claimed_order_without_one_fails(
        app, client, clock, new_game):
    record = ordered_record(app, client, clock, new_game)
    assert any(e["kind"] == "TurnTimedOut" and e["payload"].get("ordered")
               for e in record["events"])
    assert fairness.check_record(record).ok
    assert independent_verifier.verify(record)[0]

    def no_order(r):
        r["events"] = [e for e in r["events"] if e["kind"] != "TimeoutOrderSet"]

    def another_bot(r):
        next(e for e in r["events"] if e["kind"] == "TimeoutOrderSet")["payload"]["level"] = "strong"
    for change in (no_order, another_bot):
        forged = kit.forged(record, change)
        verdict = fairness.check_record(forged)
        assert [c.name for c in verdict.checks if not c.ok] == ["the events"]
        assert independent_verifier.verify(forged) == (False, "not proven", "3.8")


def test_a_new_player_in_the_seat_starts_without_the_old_players_order():
    from types import SimpleNamespace as Event
    from service.application.timeout_orders import order_of
    log = [Event(kind="TimeoutOrderSet", payload={"seat": 1, "level": "strong"}),
           Event(kind="SeatReplaced", payload={"seat": 0, "name": "Zoe"})]
    assert order_of(log, 1) == "strong", "another seat's newcomer changes nothing"
    log.append(Event(kind="SeatReplaced", payload={"seat": 1, "name": "Yan"}))
    assert order_of(log, 1) is None


def test_a_timeout_claiming_an_order_given_before_a_new_player_took_the_seat_fails(
        app, client, clock, new_game):
    record = ordered_record(app, client, clock, new_game)

    def newcomer_before_the_timeout(r):
        at = next(i for i, e in enumerate(r["events"]) if e["kind"] == "TurnTimedOut"
                  and e["payload"].get("ordered"))
        replaced = dict(r["events"][at], kind="SeatReplaced", actor="admin",
                        payload={"seat": 0, "name": "Zoe", "previous_name": "P0",
                                 "schema_version": r["events"][at]["payload"]["schema_version"]})
        r["events"].insert(at, replaced)
    forged = kit.forged(record, newcomer_before_the_timeout)
    assert not fairness.check_record(forged).ok
    assert independent_verifier.verify(forged) == (False, "not proven", "3.8")


def test_a_game_loaded_from_a_snapshot_finds_an_old_order_without_reading_its_whole_log(
        app, client, clock, admin_headers, new_game, monkeypatch):
    """The play page and the timeout read the order from its own few events: the log before
    the snapshot (the order among it) is never read whole for it."""
    from service.store import events as store
    from service.store import snapshots
    from tests.service.test_gets_write_nothing import play_stays
    data, secrets = new_game(players=4)
    order(client, secrets[1], "easy")
    play_stays(client, secrets, snapshots.EVERY + 3)

    def whole_log_read(*_):
        raise AssertionError("the events before the snapshot were read")
    monkeypatch.setattr(store, "load_range", whole_log_read)
    page = client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    assert 'value="easy" checked' in page
    clock.advance(timedelta(hours=170))   # past a full bank (120 h) and a decision's 48 h
    sweep(app, clock)
    monkeypatch.undo()
    timed_out = [e for e in events(client, admin_headers, data["id"])
                 if e["kind"] == "TurnTimedOut" and e["payload"]["seat"] == 1]
    assert timed_out and timed_out[-1]["payload"].get("ordered") is True
