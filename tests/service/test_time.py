"""Clocks: time banks, reminders at marks, timeouts as events, no stalled games."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from service.application import deadlines
from service.application.games import Owed
from service.web.app import create_app
from service.store.models import DeadlineRow, SeatClockRow
from tests.conftest import make_settings, migrated_app
from tests.service.test_mail import mails
from tests.service.test_store import DriverError
from service.web.extensions import services

HOUR = timedelta(hours=1)


def sweep(app, clock) -> list[int]:
    """Fire the due deadlines and deliver what they owe; the ids owed (mail, then posts)."""
    svc = services(app)
    with app.app_context():
        owed = deadlines.sweep(svc.db, clock(), svc.settings.mail_domain)
        svc.dispatch(owed.mail, owed.posts)
    return owed.mail + owed.posts


def status(client, admin_headers, game_id):
    return client.get(f"/api/games/{game_id}", headers=admin_headers).get_json()


def clocks(app, game_id):
    with services(app).db.reading() as session:
        return {c.seat: c for c in session.scalars(select(SeatClockRow).where(SeatClockRow.game_id == game_id))}


def test_a_new_decision_gets_the_per_decision_time_and_the_mail_says_when(app, clock, new_game):
    data, _ = new_game(players=3)
    opened = clocks(app, data["id"])
    assert {s: c.due_at.replace(tzinfo=None) for s, c in opened.items()} == {
        s: (clock() + 48 * HOUR).replace(tzinfo=None) for s in range(3)}
    text = mails(app, "p0@example.com")[0].get_body(("plain",)).get_content()
    assert "Your move is due by Tue 01 Dec 2026 12:00 UTC (in 2 days)" in text


def test_time_left_is_banked_and_capped(app, client, clock, new_game):
    """Fischer: unused time stays in the bank; the bank never exceeds bank_max (120 h)."""
    data, secrets = new_game(players=3)
    seq = 1
    for turn in range(3):
        clock.advance(HOUR)
        for seat in range(3):
            response = client.post(f"/api/play/{secrets[seat]}", json={"action": {"type": "stay"}, "seq": seq})
            if response.status_code != 200:
                return  # the round ended on a hazard: banks were still checked below
            seq = response.get_json()["seq"]
        banks = clocks(app, data["id"])
        for c in banks.values():
            if c.due_at is not None:
                left = c.due_at.replace(tzinfo=None) - clock().replace(tzinfo=None)
                assert left <= 120 * HOUR
                assert left == min(48 * HOUR * (turn + 2) - HOUR * (turn + 1), 120 * HOUR)


def test_reminders_fire_once_at_each_mark_and_carry_auto_submitted(app, clock, new_game):
    data, _ = new_game(players=3)
    clock.advance(23 * HOUR + 30 * timedelta(minutes=1))  # 24 h 30 min before the deadline
    assert sweep(app, clock) == []
    clock.advance(HOUR)  # 23 h 30 min left: the 24 h mark has passed
    assert len(sweep(app, clock)) == 3
    assert sweep(app, clock) == [], "a reminder fires once"
    reminder = mails(app, "p0@example.com")[-1]
    assert reminder["Auto-Submitted"] == "auto-generated"
    assert "Reminder: your move is still open." in reminder.get_body(("plain",)).get_content()
    assert ".reminder-24@" in reminder["Message-ID"]
    clock.advance(22 * HOUR)  # 1 h 30 min left
    assert len(sweep(app, clock)) == 3
    assert len(mails(app, "p0@example.com")) == 3


def test_no_reminder_after_the_player_moved(app, client, clock, new_game):
    data, secrets = new_game(players=3)
    client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 1})
    clock.advance(25 * HOUR)
    sweep(app, clock)
    assert len(mails(app, "p0@example.com")) == 1, "seat 0 moved: its reminders were cancelled"
    assert len(mails(app, "p1@example.com")) == 2


NO_VACATION = {"vacation_days": 0}


@pytest.mark.parametrize("path", ["deliver", "deliver_many"])  # a row's own task; a batch's
def test_a_reminder_that_waited_is_not_sent_after_the_player_moved(app, client, clock, new_game, path):
    """The sweep queued the reminders; the mail went out later (a broker outage, a relay's 4xx
    and its backoff), and seat 0 moved in between: its reminder, which would say the move is
    still open, is withdrawn, while the others' still go."""
    from service.mail import delivery
    from service.store.models import OutboxRow

    data, secrets = new_game(players=3)
    svc = services(app)
    clock.advance(24 * HOUR + timedelta(minutes=1))
    with app.app_context():
        queued = deadlines.sweep(svc.db, clock(), svc.settings.mail_domain).mail  # not yet sent
    assert len(queued) == 3
    assert client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 1}).status_code == 200
    with app.app_context():
        if path == "deliver":
            statuses = {i: delivery.deliver(svc.db, svc.settings, i, clock()) for i in queued}
        else:
            statuses = delivery.deliver_many(svc.db, svc.settings, queued, clock())
    with svc.db.reading() as session:
        rows = {session.get(OutboxRow, i).seat: session.get(OutboxRow, i) for i in queued}
    assert (rows[0].status, rows[0].last_error) == ("cancelled", delivery.WITHDRAWN)
    assert statuses[rows[0].id] == "cancelled"
    assert [rows[1].status, rows[2].status] == ["sent", "sent"]
    assert not [m for m in mails(app, "p0@example.com") if ".reminder-" in m["Message-ID"]]
    assert [m for m in mails(app, "p1@example.com") if ".reminder-24@" in m["Message-ID"]]


def pending_alarms(app, game_id, seat):
    with services(app).db.reading() as session:
        return [(d.kind, d.due_at.replace(tzinfo=None)) for d in session.scalars(select(DeadlineRow).where(
            DeadlineRow.game_id == game_id, DeadlineRow.seat == seat, DeadlineRow.status == "pending"))]


def test_a_decision_has_one_deadline_row_that_moves_on_to_each_alarm(app, client, clock, admin_headers, new_game):
    """Reminders at 24 h and 2 h before the 48 h deadline, then the timeout: one row, moved on
    by the sweep that fired the alarm before (a third of the rows to write and cancel)."""
    data, _ = new_game(players=3, clock=NO_VACATION)
    start = clock().replace(tzinfo=None)
    assert pending_alarms(app, data["id"], 0) == [("reminder:24", start + 24 * HOUR)]
    clock.advance(24 * HOUR + timedelta(minutes=1))
    assert len(sweep(app, clock)) == 3
    assert pending_alarms(app, data["id"], 0) == [("reminder:2", start + 46 * HOUR)]
    clock.advance(22 * HOUR)
    assert len(sweep(app, clock)) == 3
    assert pending_alarms(app, data["id"], 0) == [("timeout", start + 48 * HOUR)]
    clock.advance(2 * HOUR)
    sweep(app, clock)
    events = status(client, admin_headers, data["id"])["events"]
    assert {e["payload"]["seat"] for e in events if e["kind"] == "TurnTimedOut"} == {0, 1, 2}


def test_a_decision_opened_by_the_code_before_one_row_per_decision_reminds_once_per_mark(
        app, client, clock, admin_headers, new_game):
    """During a deploy, processes still running the old code open decisions with a row for
    each reminder and the timeout (migration 0008 only rewrote the rows already there): each
    reminder still goes out once, and the timeout once."""
    svc = services(app)
    data, _ = new_game(players=3, clock=NO_VACATION)
    start = clock()
    with svc.db.unit_of_work() as session:
        for row in list(session.scalars(select(DeadlineRow).where(DeadlineRow.game_id == data["id"]))):
            for kind, hours in (("reminder:2", 46), ("timeout", 48)):
                session.add(DeadlineRow(game_id=row.game_id, seat=row.seat, kind=kind,
                                        decision_key=row.decision_key,
                                        due_at=start + hours * HOUR, status="pending"))
    for hours in (24, 22, 2):
        clock.advance(hours * HOUR + timedelta(minutes=1))
        sweep(app, clock)
    reminders = [m["Message-ID"] for m in mails(app, "p0@example.com") if ".reminder-" in m["Message-ID"]]
    assert sorted(r.split("@")[0].rsplit(".", 1)[1] for r in reminders) == ["reminder-2", "reminder-24"]
    events = status(client, admin_headers, data["id"])["events"]
    assert sorted(e["payload"]["seat"] for e in events if e["kind"] == "TurnTimedOut") == [0, 1, 2]


def test_a_sweep_after_the_time_ran_out_sends_no_reminder_only_the_timeout(app, client, clock, admin_headers, new_game):
    """The sweep ran late (the service was down): a reminder now would say time is left."""
    data, _ = new_game(players=3, clock=NO_VACATION)
    clock.advance(49 * HOUR)
    sweep(app, clock)
    assert not [m for m in mails(app, "p0@example.com") if ".reminder-" in m["Message-ID"]]
    events = status(client, admin_headers, data["id"])["events"]
    assert len([e for e in events if e["kind"] == "TurnTimedOut"]) == 3


def test_a_sweep_that_loses_a_deadlock_leaves_its_batch_pending_for_the_next(app, clock, new_game, monkeypatch):
    """Two sweepers timing out seats of the same games wait on each other's new events and
    PostgreSQL aborts one: nothing of that batch is kept, and the next sweep fires it."""
    from sqlalchemy.exc import OperationalError

    data, _ = new_game(players=3, clock=NO_VACATION)
    clock.advance(24 * HOUR + timedelta(minutes=1))
    real_fire = deadlines.fire

    def deadlocked(session, deadline, now, domain):
        real_fire(session, deadline, now, domain)
        raise OperationalError("UPDATE deadlines", {}, DriverError("40P01"))

    monkeypatch.setattr(deadlines, "fire", deadlocked)
    assert sweep(app, clock) == []
    assert len(mails(app, "p0@example.com")) == 1, "the turn mail only: no reminder was kept"
    assert pending_alarms(app, data["id"], 0)[0][0] == "reminder:24"
    monkeypatch.setattr(deadlines, "fire", real_fire)
    assert len(sweep(app, clock)) == 3


def test_a_sweep_raises_a_database_error_that_is_not_a_lost_race(app, clock, new_game, monkeypatch):
    from sqlalchemy.exc import OperationalError

    new_game(players=3, clock=NO_VACATION)
    clock.advance(24 * HOUR + timedelta(minutes=1))

    def broken(*_args):
        raise OperationalError("SELECT", {}, DriverError("08006"))  # connection failure

    monkeypatch.setattr(deadlines, "fire", broken)
    with pytest.raises(OperationalError):
        sweep(app, clock)


def test_a_timeout_is_an_event_with_the_default_action_and_everyone_is_told(app, client, clock, admin_headers, new_game):
    """Incan Gold's default on timeout: leave the temple (docs/games/incan_gold.md)."""
    data, secrets = new_game(players=3, clock=NO_VACATION)
    client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "stay"}, "seq": 1})
    client.post(f"/api/play/{secrets[2]}", json={"action": {"type": "stay"}, "seq": 1})
    clock.advance(48 * HOUR + timedelta(minutes=1))
    sweep(app, clock)
    events = status(client, admin_headers, data["id"])["events"]
    timed_out = [e for e in events if e["kind"] == "TurnTimedOut"]
    assert len(timed_out) == 1 and timed_out[0]["actor"] == "system"
    assert timed_out[0]["payload"]["seat"] == 0 and timed_out[0]["payload"]["action"] == {"type": "leave"}
    for seat in range(3):
        newest = mails(app, f"p{seat}@example.com")[-1].get_body(("plain",)).get_content()
        assert "P0's time ran out" in newest


def test_a_move_just_before_the_deadline_wins_over_the_timeout(app, client, clock, admin_headers, new_game):
    data, secrets = new_game(players=3, clock=NO_VACATION)
    clock.advance(48 * HOUR - timedelta(seconds=1))
    assert client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 1}).status_code == 200
    clock.advance(timedelta(seconds=2))
    sweep(app, clock)
    events = status(client, admin_headers, data["id"])["events"]
    moves_of_0 = [e for e in events if e["payload"].get("seat") == 0 and e["seq"] > 1]
    assert [e["kind"] for e in moves_of_0][:1] == ["MoveMade"]
    assert moves_of_0[0]["payload"]["action"] == {"type": "stay"}


def test_a_timeout_that_lost_the_race_is_cancelled(app, client, clock, new_game):
    """The sweep re-checks the decision under lock: a decision already answered is not timed out."""
    data, secrets = new_game(players=3)
    with services(app).db.unit_of_work() as session:
        session.add(DeadlineRow(game_id=data["id"], seat=0, kind="timeout", decision_key="r9t9",
                                due_at=clock(), status="pending"))
    assert sweep(app, clock) == []
    with services(app).db.reading() as session:
        row = session.scalars(select(DeadlineRow).where(DeadlineRow.decision_key == "r9t9")).one()
    assert row.status == "cancelled"


def test_a_game_with_a_seat_that_never_answers_finishes_by_timeouts(app, client, clock, admin_headers, new_game):
    data, secrets = new_game(players=3, seed=3)
    for _ in range(2000):
        current = status(client, admin_headers, data["id"])
        if current["status"] == "finished":
            break
        acted = False
        for seat in current["to_act"]:
            if seat != 0:
                response = client.post(f"/api/play/{secrets[seat]}", json={"action": {"type": "stay"}, "seq": current["seq"]})
                assert response.status_code == 200, response.get_json()
                acted = True
                break
        if not acted:
            clock.advance(49 * HOUR)
            sweep(app, clock)
    final = status(client, admin_headers, data["id"])
    assert final["status"] == "finished" and final["outcome"]["winners"]
    assert any(e["kind"] == "TurnTimedOut" for e in final["events"])


def test_pause_policy_pauses_the_game_instead_of_moving(app, client, clock, admin_headers):
    body = {"game": "incan_gold", "seed": 1,
            "clock": {"timeout_policy": "pause", "per_decision_hours": 24, "vacation_days": 0},
            "players": [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(3)]}
    created = client.post("/api/games", json=body, headers=admin_headers).get_json()
    clock.advance(25 * HOUR)
    sweep(app, clock)
    current = status(client, admin_headers, created["id"])
    assert current["status"] == "paused"
    assert [e["kind"] for e in current["events"]][-1] == "GamePaused"
    assert sweep(app, clock) == [], "a paused game's clocks are stopped"


def test_bad_clock_settings_are_400(client, admin_headers):
    players = [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(3)]
    for clock in ({"per_decision_hours": -1}, {"timeout_policy": "explode"}, {"speed": 2},
                  {"per_decision_hours": 200, "bank_max_hours": 100}, "fast", {"reminder_hours": [0]}):
        response = client.post("/api/games", json={"game": "incan_gold", "players": players, "clock": clock},
                               headers=admin_headers)
        assert response.status_code == 400, clock


def test_deadlines_survive_a_restart(tmp_path, app, clock, new_game):
    data, _ = new_game(players=3)
    restarted = create_app(make_settings(tmp_path), clock=clock)
    clock.advance(49 * HOUR)
    assert sweep(restarted, clock), "the new process finds the stored deadlines"
    services(restarted).db.dispose()


def test_vacation_starts_by_itself_when_the_bank_runs_out_and_the_player_is_told(app, client, clock, admin_headers, new_game):
    data, secrets = new_game(players=3, clock={"vacation_days": 3})
    clock.advance(48 * HOUR + timedelta(minutes=1))
    sweep(app, clock)
    kinds = [e["kind"] for e in status(client, admin_headers, data["id"])["events"]]
    assert kinds.count("VacationStarted") == 3 and "TurnTimedOut" not in kinds
    told = mails(app, "p0@example.com")[-1].get_body(("plain",)).get_content()
    assert "vacation started by itself" in told
    clock.advance(2 * 24 * HOUR)
    assert sweep(app, clock) == [], "on vacation: no reminders, no timeout"


def test_a_vacation_ends_when_its_days_are_used_and_the_clock_runs_again(app, client, clock, admin_headers, new_game):
    data, secrets = new_game(players=3, clock={"vacation_days": 3})
    clock.advance(48 * HOUR + timedelta(minutes=1))
    sweep(app, clock)
    clock.advance(3 * 24 * HOUR)
    sweep(app, clock)
    events = status(client, admin_headers, data["id"])["events"]
    assert [e["kind"] for e in events].count("VacationEnded") == 3
    assert "clock runs again" in mails(app, "p1@example.com")[-1].get_body(("plain",)).get_content()
    by_seat = clocks(app, data["id"])
    assert all(c.due_at is not None and c.vacation_since is None for c in by_seat.values())
    clock.advance(25 * HOUR)
    sweep(app, clock)
    assert any(e["kind"] == "TurnTimedOut" for e in status(client, admin_headers, data["id"])["events"])


def test_a_player_switches_vacation_on_and_off_and_others_see_it(app, client, clock, admin_headers, new_game):
    from tests.service.test_play_pages import form_fields
    data, secrets = new_game(players=3)
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    token = form_fields(page)["csrf_token"]
    clock.advance(10 * HOUR)
    response = client.post(f"/play/{secrets[0]}/vacation", data={"csrf_token": token, "on": "1"})
    assert response.status_code == 303
    assert clocks(app, data["id"])[0].due_at is None, "the clock stopped"
    other = client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    assert "on vacation" in other
    clock.advance(24 * HOUR)
    client.post(f"/play/{secrets[0]}/vacation", data={"csrf_token": token, "on": "0"})
    resumed = clocks(app, data["id"])[0]
    assert resumed.vacation_since is None and resumed.vacation_used_seconds == 24 * 3600
    left = resumed.due_at.replace(tzinfo=None) - clock().replace(tzinfo=None)
    assert left == 38 * HOUR, "the 38 h left when the vacation began"
    kinds = [e["kind"] for e in status(client, admin_headers, data["id"])["events"]]
    assert kinds[-2:] == ["VacationStarted", "VacationEnded"]


def test_a_vacation_does_not_make_anyones_links_stale(app, client, clock, new_game):
    from tests.service.test_play_pages import form_fields
    data, secrets = new_game(players=3)
    token = form_fields(client.get(f"/play/{secrets[0]}").get_data(as_text=True))["csrf_token"]
    client.post(f"/play/{secrets[0]}/vacation", data={"csrf_token": token, "on": "1"})
    assert client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "stay"}, "seq": 1}).status_code == 200


def test_moving_ends_ones_own_vacation(app, client, clock, new_game):
    from tests.service.test_play_pages import form_fields
    data, secrets = new_game(players=3)
    token = form_fields(client.get(f"/play/{secrets[0]}").get_data(as_text=True))["csrf_token"]
    client.post(f"/play/{secrets[0]}/vacation", data={"csrf_token": token, "on": "1"})
    assert client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 1}).status_code == 200
    assert clocks(app, data["id"])[0].vacation_since is None


def test_weekend_pause_skips_saturday_and_sunday():
    """Clock time stops over the weekend when the game asks for it."""
    from datetime import datetime, timezone
    from service.store.timekeeping import add_clock_time, clock_time_between
    friday_noon = datetime(2026, 12, 4, 12, 0, tzinfo=timezone.utc)
    assert add_clock_time(friday_noon, 48 * HOUR, True) == datetime(2026, 12, 8, 12, 0, tzinfo=timezone.utc)
    assert add_clock_time(friday_noon, 48 * HOUR, False) == datetime(2026, 12, 6, 12, 0, tzinfo=timezone.utc)
    monday_noon = datetime(2026, 12, 7, 12, 0, tzinfo=timezone.utc)
    assert clock_time_between(friday_noon, monday_noon, True) == 24 * HOUR
    saturday = datetime(2026, 12, 5, 9, 0, tzinfo=timezone.utc)
    assert add_clock_time(saturday, HOUR, True) == datetime(2026, 12, 7, 1, 0, tzinfo=timezone.utc)


def test_the_real_clock_under_time_machine_fires_reminders_once(tmp_path):
    """The production clock (``utc_now``) with time-machine moving the machine's time."""
    import time_machine
    from datetime import datetime, timezone
    from tests.conftest import ADMIN_TOKEN

    start = datetime(2026, 12, 2, 9, 0, tzinfo=timezone.utc)
    with time_machine.travel(start, tick=False) as traveller:
        app = migrated_app(make_settings(tmp_path))
        client = app.test_client()
        body = {"game": "incan_gold", "seed": 9,
                "players": [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(3)]}
        assert client.post("/api/games", json=body,
                           headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}).status_code == 201
        svc = services(app)
        traveller.shift(timedelta(hours=25))
        with app.app_context():
            fired = deadlines.sweep(svc.db, svc.clock(), svc.settings.mail_domain)
            svc.dispatch(fired.mail, fired.posts)
            assert (len(fired.mail), fired.posts) == (3, [])
            assert deadlines.sweep(svc.db, svc.clock(), svc.settings.mail_domain) == Owed()
        svc.db.dispose()


def test_the_pause_policy_mails_the_games_admin(app, client, clock, admin_headers):
    """``pause`` — the game waits and the admin is mailed."""
    from email import message_from_string, policy
    from service.mail.mailer import due_ids as account_due, deliver as deliver_account
    from service.application.admin_auth import create_admin, grant_game
    from service.store.models import LocalMailRow
    body = {"game": "incan_gold", "seed": 1,
            "clock": {"timeout_policy": "pause", "per_decision_hours": 24, "vacation_days": 0},
            "players": [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(3)]}
    created = client.post("/api/games", json=body, headers=admin_headers).get_json()
    svc = services(app)
    with svc.db.unit_of_work() as session:
        owner = create_admin(session, "organiser@example.com", "a long enough password", clock(), site=False)
        grant_game(session, owner.id, created["id"], clock())
        create_admin(session, "site@example.com", "another long password", clock(), site=True)
    clock.advance(25 * HOUR)
    sweep(app, clock)
    clock.advance(2 * timedelta(minutes=1))
    with app.app_context():
        for mail_id in account_due(svc.db, clock()):
            deliver_account(svc.db, svc.settings, mail_id, clock())
    with svc.db.reading() as session:
        raws = [r.raw for r in session.scalars(select(LocalMailRow).where(
            LocalMailRow.to_addr.in_(["organiser@example.com", "site@example.com"])))]
    assert len(raws) == 1, "the game's own admin, not every site admin"
    mail = message_from_string(raws[0], policy=policy.default)
    assert "organiser@example.com" in mail["To"] and "paused" in mail["Subject"]
    assert f"/admin/games/{created['id']}" in mail.get_body(("plain",)).get_content()


def test_a_games_clock_options_are_read_alike_whether_or_not_they_were_seen_before():
    """``clock_of`` keeps each option set it validated; the clock rules still hold
    for every set, whatever came before it (``True`` and ``1`` are not the same option).  A
    recorded set the rules refuse is read within them (``stored_clock``), never as a set seen
    before that looks alike."""
    from service.store.timekeeping import ClockSettings, clock_of, parse_clock

    pausing = {"clock": {"weekend_pause": True, "reminder_hours": [24, 2.5]}}
    assert clock_of(pausing) == clock_of(pausing) == parse_clock(pausing["clock"])
    assert clock_of(pausing).reminder_hours == (24, 2.5)
    assert clock_of({"clock": {"weekend_pause": 1, "reminder_hours": [24, 2.5]}}).weekend_pause is False
    assert clock_of({"clock": {"weekend_pause": True, "reminder_hours": [[24], 2.5]}}).reminder_hours == (2.5,)
    assert clock_of({"clock": {"weekend_pause": True, "reminder_hours": 24}}).reminder_hours == (24, 2)
    assert clock_of({}) == clock_of({"clock": None}) == ClockSettings()
    assert clock_of({"clock": {"per_decision_hours": 12}}).per_decision_hours == 12


@given(marks=st.lists(st.integers(1, 200), max_size=4).map(lambda m: tuple(sorted(set(m), reverse=True))),
       opened_hours_before=st.floats(0, 300), fired_hours_later=st.floats(0, 300))
def test_every_alarm_of_a_decision_tells_its_timeout(marks, opened_hours_before, fired_hours_later):
    """A decision's one row moves from alarm to alarm; whichever it holds (cancelled there or
    not), the mail's deadline read from it is the decision's timeout."""
    from service.store.timekeeping import next_alarm, timeout_of

    due = datetime(2026, 12, 4, 12, 0, tzinfo=timezone.utc)
    now = due - timedelta(hours=opened_hours_before)
    kind, when = next_alarm(due, marks, now)
    assert timeout_of(kind, when) == due
    assert when > now or kind == "timeout"
    later = now + timedelta(hours=fired_hours_later)
    if kind != "timeout" and when <= later:  # a sweep fired that reminder: the row moves on
        next_kind, next_when = next_alarm(due, marks, later)
        assert timeout_of(next_kind, next_when) == due and next_when >= when
