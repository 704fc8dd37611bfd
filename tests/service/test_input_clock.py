"""Clock numbers are typed, finite and within documented bounds at input; a clock recorded
before the bounds (10^9 vacation days, a NaN) is read within them, so its game's pages,
moves, vacations and start keep working instead of answering 500."""
from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from engine import IllegalAction
from service.store import timekeeping
from service.store.timekeeping import ClockSettings, clock_of, parse_clock, stored_clock
from tests.service.test_input_support import csrf_of
from tests.service.test_organisers_support import answer, create_game, sign_in
from service.web.extensions import services


def test_the_bounds_themselves_are_taken():
    widest = parse_clock({"per_decision_hours": 8760, "bank_max_hours": 8760,
                          "reminder_hours": [8760, 0.1] + list(range(1, 9)),
                          "vacation_days": 365, "vacation_period_days": 3650})
    assert widest.vacation_days == 365 and len(widest.reminder_hours) == 10
    narrowest = parse_clock({"per_decision_hours": 0.1, "bank_max_hours": 0.1, "reminder_hours": [],
                             "vacation_days": 0, "vacation_period_days": 1})
    assert narrowest.per_decision_hours == 0.1


@pytest.mark.parametrize("setting, value", [
    ("per_decision_hours", float("nan")), ("per_decision_hours", float("inf")),
    ("bank_max_hours", 8760.5), ("vacation_days", 1_000_000_000), ("vacation_days", 365.5),
    ("vacation_period_days", 0.5), ("vacation_period_days", 10**400),
    ("reminder_hours", [float("nan")]), ("reminder_hours", [0.05]), ("reminder_hours", [24] * 11),
])
def test_a_number_outside_its_bounds_is_refused_at_input(setting, value):
    with pytest.raises(IllegalAction) as refused:
        parse_clock({setting: value})
    assert setting in str(refused.value)


def test_a_recorded_clock_outside_the_bounds_is_read_within_them():
    read = stored_clock({"per_decision_hours": float("nan"), "bank_max_hours": 1e12,
                         "vacation_days": 1e9, "reminder_hours": [float("inf"), 1e6, 2],
                         "timeout_policy": "explode", "weekend_pause": "yes", "unknown": 1})
    assert read == ClockSettings(per_decision_hours=48, bank_max_hours=8760,
                                 reminder_hours=(8760, 2), vacation_days=90,
                                 vacation_period_days=90)
    assert stored_clock("not a clock") == ClockSettings()
    valid = {"per_decision_hours": 12, "reminder_hours": [6]}
    assert stored_clock(valid) == parse_clock(valid)  # a valid clock reads as it always did


def recorded_anyway(monkeypatch, bad: ClockSettings):
    """Record ``bad`` as a game's clock as the code before the bounds did: parse_clock let
    such values through.  Returns a context in which every clock parses as ``bad``."""
    context = monkeypatch.context()
    patch = context.__enter__()
    patch.setattr(timekeeping, "parse_clock", lambda data: bad)
    return context


def forget_recorded(context) -> None:
    context.__exit__(None, None, None)
    timekeeping._clock_of_json.cache_clear()  # read again, as a new process would


@pytest.mark.parametrize("bad", [
    dataclasses.replace(ClockSettings(), vacation_days=1_000_000_000),
    dataclasses.replace(ClockSettings(), vacation_days=1e300, vacation_period_days=1e-9),
    dataclasses.replace(ClockSettings(), per_decision_hours=1e6, bank_max_hours=1e6),
])
def test_a_game_recorded_with_huge_clock_numbers_keeps_its_page_moves_and_vacation(
        app, client, new_game, monkeypatch, bad):
    context = recorded_anyway(monkeypatch, bad)
    try:
        data, secrets = new_game(players=3)
    finally:
        forget_recorded(context)
    page = client.get(f"/play/{secrets[0]}")
    assert page.status_code == 200
    switched = client.post(f"/play/{secrets[0]}/vacation", data={
        "on": "1", "csrf_token": csrf_of(page.get_data(as_text=True))})
    assert switched.status_code == 303
    assert "Vacation is on" in client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    moved = client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "stay"}, "seq": 2})
    assert moved.status_code == 200, moved.get_json()
    assert clock_of({"clock": bad.to_json()}) == stored_clock(bad.to_json())


def test_the_deadline_sweep_runs_over_a_game_recorded_with_a_huge_budget(app, new_game, clock,
                                                                        monkeypatch):
    from service.application import deadlines
    context = recorded_anyway(monkeypatch, dataclasses.replace(ClockSettings(),
                                                               vacation_days=1_000_000_000))
    try:
        new_game(players=3)
    finally:
        forget_recorded(context)
    clock.advance(timedelta(hours=49))  # every seat's time ran out: vacation starts by itself
    svc = services(app)
    assert deadlines.sweep(svc.db, clock(), svc.settings.mail_domain).mail  # vacation mails owed


def test_a_pending_game_recorded_with_a_nan_clock_starts_at_the_last_acceptance(app, client,
                                                                                monkeypatch):
    sign_in(client, app)
    context = recorded_anyway(monkeypatch, dataclasses.replace(ClockSettings(),
                                                               per_decision_hours=float("nan")))
    try:
        create_game(client)
    finally:
        forget_recorded(context)
    for address in ("ana@example.org", "ben@example.org"):
        assert answer(app, address).status_code == 200
    last = answer(app, "cai@example.org")
    assert last.status_code == 200 and "the game has started" in last.get_data(as_text=True)
