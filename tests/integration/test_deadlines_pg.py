"""On PostgreSQL: several sweepers at once never fire a deadline twice
(SELECT … FOR UPDATE SKIP LOCKED), not even a decision's row that a reminder moved on to the
next alarm; a timeout racing another is retried, not lost; and a move and a timeout that
deadlock on each other end as a lost race for one of them, never a server error."""
from __future__ import annotations

import threading
import time
from collections import Counter
from contextlib import contextmanager
from datetime import timedelta
from urllib.parse import quote

import pytest
from sqlalchemy import select, text

from service.application import deadlines

from service.store import events as store

from service.store import timekeeping
from service.application.games import create_game
from service.store.models import DeadlineRow, EventRow, OutboxRow
from tests.conftest import secret_from_url
from tests.integration.conftest import ADMIN
from service.web.extensions import services

pytestmark = pytest.mark.integration


def test_concurrent_sweepers_fire_each_deadline_exactly_once(app):
    svc = services(app)
    now = svc.clock()
    game_ids = []
    with svc.db.unit_of_work() as session:
        for g in range(6):
            players = [{"name": f"P{i}", "email": f"g{g}p{i}@example.org"} for i in range(5)]
            game_id, _ = create_game(session, "incan_gold", players, g, {}, "admin", now,
                                     "chasqui.it", clock={"vacation_days": 0})
            game_ids.append(game_id)
    barrier = threading.Barrier(4)
    errors = []

    def sweeper(at):
        barrier.wait()
        try:
            with app.app_context():
                deadlines.sweep(svc.db, at, "chasqui.it", batch=7)
        except Exception as error:  # noqa: BLE001
            errors.append(error)

    # the 24 h reminders, the 2 h reminders (the same rows, moved on), then the timeouts
    for hours in (25, 47, 49):
        threads = [threading.Thread(target=sweeper, args=(now + timedelta(hours=hours),))
                   for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
    later = now + timedelta(hours=49)
    with app.app_context():
        deadlines.sweep(svc.db, later, "chasqui.it")  # picks up any timeout that lost a seq race
    with svc.db.reading() as session:
        reminders = Counter(session.scalars(select(OutboxRow.message_id).where(
            OutboxRow.kind.like("reminder%"))).all())
        pending = session.scalars(select(DeadlineRow).where(
            DeadlineRow.status == "pending", DeadlineRow.due_at <= later)).all()
        timeouts = session.scalars(select(EventRow).where(EventRow.kind == "TurnTimedOut")).all()
    assert len(reminders) == 6 * 5 * 2 and set(reminders.values()) == {1}
    assert pending == []
    per_seat = Counter((e.game_id, e.payload["seat"]) for e in timeouts)
    assert set(per_seat.values()) == {1}, "one timeout per seat and decision"
    assert len(per_seat) == 30


# How long a waiting backend of the app lets pass before it looks for a deadlock, in the two
# tests of a move and a timeout deadlocked on each other.  PostgreSQL looks once per wait,
# from the backend that waits, and aborts that backend if it finds one: the first to look
# once both wait is the one aborted.  The move starts waiting first; with the server's default
# of 1 s, a sweep slower than that to reach its own wait (a busy machine) finds that the move
# looked already, too early to see a cycle, and the sweep is aborted instead.  This bound
# leaves the sweep ample time to block before the move looks; the test whose sweep must lose
# sets a short ``deadlock_timeout`` on the sweep's side.
MOVE_DEADLOCK_TIMEOUT = "5s"


@pytest.fixture
def deadlock_timeout() -> str | None:
    """The app's ``deadlock_timeout``: the server's own unless a test parametrizes it."""
    return None


@pytest.fixture
def env(env, deadlock_timeout):
    """The integration environment; with a ``deadlock_timeout``, the app's PostgreSQL
    connections are given it (``options`` of libpq's connection string)."""
    if deadlock_timeout is None:
        return env
    options = quote(f"-c deadlock_timeout={deadlock_timeout}")
    return {**env, "CHASQUI_DATABASE_URL": f"{env['CHASQUI_DATABASE_URL']}?options={options}"}


@contextmanager
def _a_move_waiting_for_the_sweep(app):
    """A new game; the sweep (this unit of work) holds seat 0's due deadline, and seat 0's
    move, in a thread, has written its event and waits for that row.  Yields (session, the
    deadline, the moment the sweep runs at, the move's answers, the game's id)."""
    svc = services(app)
    client = app.test_client()
    created = client.post("/api/games", headers={"Authorization": f"Bearer {ADMIN}"}, json={
        "game": "incan_gold", "seed": 3, "clock": {"vacation_days": 0},
        "players": [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(3)]}).get_json()
    secret = secret_from_url(created["seats"][0]["play_url"])
    later = svc.clock() + timedelta(hours=49)
    answers: list = []
    with app.app_context(), svc.db.unit_of_work() as session:
        deadline = next(d for d in timekeeping.due_deadlines(session, later) if d.seat == 0)
        sweep_pid = session.execute(text("SELECT pg_backend_pid()")).scalar_one()
        assert session.execute(text("SHOW deadlock_timeout")).scalar_one() == MOVE_DEADLOCK_TIMEOUT
        mover = threading.Thread(target=lambda: answers.append(client.post(
            f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": 1})))
        mover.start()
        _wait_until_blocked_by(svc.db, sweep_pid, mover)
        yield session, deadline, later, answers, created["id"]
    mover.join()


def _kinds(app, game_id: str) -> list[str]:
    with services(app).db.reading() as session:
        return list(session.scalars(select(EventRow.kind).where(EventRow.game_id == game_id)
                                    .order_by(EventRow.seq)))


@pytest.mark.parametrize("deadlock_timeout", [MOVE_DEADLOCK_TIMEOUT])
def test_a_move_deadlocked_with_the_sweeps_timeout_is_a_conflict_and_writes_nothing(app):
    """The player moves in the very moment the sweep times the seat out: the move has written
    its event and waits for the deadline row the sweep holds, the sweep's timeout event waits
    for the move's.  PostgreSQL aborts the one that waited first, here the move: the player is
    told the game moved on (409), not shown a server error, and the timeout stands alone."""
    with _a_move_waiting_for_the_sweep(app) as (session, deadline, later, answers, game_id):
        deadlines.fire(session, deadline, later, "chasqui.it")
    assert answers[0].status_code == 409, answers[0].get_json()
    assert "moved on" in answers[0].get_json()["error"]
    assert _kinds(app, game_id) == ["GameCreated", "TurnTimedOut"]


@pytest.mark.parametrize("deadlock_timeout", [MOVE_DEADLOCK_TIMEOUT])
def test_a_timeout_deadlocked_with_the_players_move_gives_way_and_the_move_stands(app):
    """The same race, with the sweep the one aborted: its timeout is a lost race (the seat's
    deadline stays for the next sweep to re-check), and the player's move is taken."""
    with _a_move_waiting_for_the_sweep(app) as (session, deadline, later, answers, game_id):
        session.execute(text("SET LOCAL deadlock_timeout = '10ms'"))  # this side checks first
        with pytest.raises(store.Conflict), session.begin_nested():
            deadlines.fire(session, deadline, later, "chasqui.it")
    assert answers[0].status_code == 200, answers[0].get_json()
    assert _kinds(app, game_id) == ["GameCreated", "MoveMade"]
    with services(app).db.reading() as session:
        assert [d.status for d in session.scalars(select(DeadlineRow).where(
            DeadlineRow.game_id == game_id, DeadlineRow.seat == 0))] == ["cancelled"], \
            "the move closed the decision"


def _wait_until_blocked_by(db, pid: int, mover: threading.Thread, bound: float = 120.0) -> None:
    """Return once a backend waits for a lock that backend ``pid`` holds (the move, waiting
    for the sweep's deadline row): the event itself, as the lock manager shows it now.  Each
    look is a transaction of its own: within one, PostgreSQL keeps showing the backends'
    activity as it was at the first look.  The bound only ends a test whose move never
    blocks (it finished, or waits for something else)."""
    query = text("SELECT count(*) FROM pg_locks WHERE NOT granted "
                 "AND :pid = ANY(pg_blocking_pids(pg_locks.pid))")
    give_up = time.monotonic() + bound
    while True:
        with db.engine.connect() as connection:
            if connection.execute(query, {"pid": pid}).scalar():
                return
        if not mover.is_alive():
            raise AssertionError("the move ended without waiting for the sweep's lock")
        if time.monotonic() > give_up:
            raise AssertionError(f"the move did not wait for the sweep's lock in {bound:.0f} s")
        time.sleep(0.01)
