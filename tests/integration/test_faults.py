"""Faults: a relay that says "later" or "never", a worker killed mid-send, a broker
that dies or hangs while players move.  What must hold through all of them: a move once
accepted is never lost, every mail owed goes out, and a mail sent twice is the same bytes under
the same Message-ID (receivers dedupe on it)."""
from __future__ import annotations

import difflib
import signal
import subprocess
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import func, select

from service.web.app import create_app
from service.core.config import from_env
from service.mail.delivery import MAX_ATTEMPTS, backoff, deliver, due_ids
from service.store.models import EventRow, OutboxRow
from service.store.events import utc
from tests.conftest import FrozenClock, secret_from_url
from tests.integration.conftest import ADMIN, Worker
from tests.integration.smtp_sink import free_port
from service.web.extensions import services

pytestmark = pytest.mark.integration

ADMIN_HEADERS = {"Authorization": f"Bearer {ADMIN}"}
GRACE = timedelta(seconds=60)  # due_ids' default grace: the sweep waits this long for a task


# --- helpers shared by the fault tests (imported by the other test_faults_* modules) ---------

def capture_dispatch(app) -> list[int]:
    """Replace the dispatcher by a list of the mail's outbox ids: the test decides when (and
    whether) rows are sent.  (These games have no chat channel: no webhook post is owed.)"""
    queued: list[int] = []
    services(app).dispatch = lambda outbox_ids, post_ids=(): queued.extend(outbox_ids)
    return queued


def create_game(client, seed=7, players=4, game="incan_gold"):
    body = {"game": game, "seed": seed,
            "players": [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(players)]}
    response = client.post("/api/games", json=body, headers=ADMIN_HEADERS)
    assert response.status_code == 201, response.get_json()
    data = response.get_json()
    return data["id"], [secret_from_url(s["play_url"]) for s in data["seats"]]


def outbox(app, game_id=None) -> list[OutboxRow]:
    with services(app).db.reading() as session:
        query = select(OutboxRow).order_by(OutboxRow.id)
        if game_id is not None:
            query = query.where(OutboxRow.game_id == game_id)
        return list(session.scalars(query))


def event_count(app, game_id=None) -> int:
    with services(app).db.reading() as session:
        query = select(func.count()).select_from(EventRow)
        if game_id is not None:
            query = query.where(EventRow.game_id == game_id)
        return session.scalar(query)


def sweep(app, now: datetime | None = None) -> list[int]:
    """What the beat's ``chasqui.sweep_outbox`` does, at a clock past the sweep's grace."""
    now = now or datetime.now(timezone.utc) + GRACE + timedelta(seconds=1)
    ids = due_ids(services(app).db, now)
    services(app).dispatch(ids)
    return ids


def wait_until(predicate, timeout=30.0, what="a condition", step=0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = predicate()
        if result:
            return result
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def kill_mid_send(worker, sink, stalls_before: int = 0) -> str:
    """SIGKILL ``worker`` once the sink holds the 250 of a mail beyond the first
    ``stalls_before`` it held: the worst moment, after the relay has the mail and before the
    worker could mark its row sent.  Returns that mail's Message-ID."""
    wait_until(lambda: len(sink.stalled) > stalls_before, 60, "the worker to be mid-send", 0.02)
    worker.kill(signal.SIGKILL)
    return sink.stalled[-1]


def all_sent_once_each(app, sink, game_id=None) -> None:
    """Every outbox row is sent and at the sink; any repeat is byte-identical (the MIME
    boundary included: service/mail/compose.py derives it from the Message-ID)."""
    rows = outbox(app, game_id)
    assert rows and all(r.status == "sent" for r in rows), [(r.id, r.status) for r in rows]
    assert {r.message_id for r in rows} <= set(sink.raw_by_id)
    for mid, raws in sink.raw_by_id.items():
        assert len(set(raws)) == 1, f"{mid} was sent twice with different content:\n" + "\n".join(
            difflib.unified_diff(raws[0].decode(errors="replace").splitlines(),
                                 raws[-1].decode(errors="replace").splitlines(), lineterm="", n=0))


class ThrowawayRedis:
    """A private ``redis-server`` on a free port: killed, hung and restarted by the test
    (the machine's own Redis is never touched)."""

    def __init__(self, log: Path):
        self.port = free_port()
        self.log = log
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=self.log.open("ab"), stderr=subprocess.STDOUT)
        import redis

        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)

        def up():
            try:
                return client.ping()
            except redis.exceptions.ConnectionError:
                return False
        wait_until(up, 60, "the throwaway redis-server to answer")
        return self

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def pause(self):
        self.process.send_signal(signal.SIGSTOP)

    def resume(self):
        self.process.send_signal(signal.SIGCONT)


@pytest.fixture
def own_redis(tmp_path):
    try:
        server = ThrowawayRedis(tmp_path / "redis.log").start()
    except FileNotFoundError:
        from tests.services_available import require
        require("redis-server is not installed (needed to kill and restart a private Redis)")
    yield server
    if server.process.poll() is None:
        server.resume()
    server.kill()


# --- 1. the relay answers 4xx / 5xx ----------------------------------------------------------

def test_a_4xx_keeps_the_row_pending_with_backoff_and_it_goes_out_when_the_relay_recovers(app, smtp):
    svc = services(app)
    clock = svc.clock = FrozenClock()
    queued = capture_dispatch(app)
    game_id, _ = create_game(app.test_client())
    assert len(queued) == 4
    smtp.sink.reply_code = "451 4.3.0 try again later"
    with app.app_context():
        for attempt in (1, 2, 3):
            for outbox_id in queued:
                assert deliver(svc.db, svc.settings, outbox_id, clock()) == "pending"
            rows = outbox(app, game_id)
            assert all(r.status == "pending" and r.attempts == attempt for r in rows)
            assert all(utc(r.next_attempt_at) == clock() + backoff(attempt) for r in rows)
            assert all(r.last_error.startswith("451") for r in rows)
            # not due before its backoff ends (even for a sweep with no grace)...
            assert due_ids(svc.db, clock() + backoff(attempt) - timedelta(seconds=1),
                           grace=timedelta(0)) == []
            # ...and due for the sweep once the backoff and the grace have passed
            clock.advance(backoff(attempt) + GRACE)
            assert due_ids(svc.db, clock()) == queued
        assert backoff(1) < backoff(2) < backoff(3)
        assert smtp.sink.received() == [] and smtp.sink.refused == 12

        smtp.sink.reply_code = None  # the relay recovers; the sweep delivers
        for outbox_id in due_ids(svc.db, clock()):
            assert deliver(svc.db, svc.settings, outbox_id, clock()) == "sent"
    rows = outbox(app, game_id)
    assert all(r.status == "sent" and r.attempts == 4 and r.last_error is None for r in rows)
    assert all(utc(r.sent_at) == clock() for r in rows)
    assert due_ids(svc.db, clock() + timedelta(days=1)) == []
    assert len(smtp.sink.received()) == 4
    all_sent_once_each(app, smtp.sink, game_id)


def test_a_5xx_bounces_the_row_and_it_is_never_retried(app, smtp):
    svc = services(app)
    clock = svc.clock = FrozenClock()
    queued = capture_dispatch(app)
    game_id, _ = create_game(app.test_client())
    smtp.sink.reply_code = "550 5.1.1 no such user"
    with app.app_context():
        assert [deliver(svc.db, svc.settings, i, clock()) for i in queued] == ["bounced"] * 4
        smtp.sink.reply_code = None
        clock.advance(timedelta(days=2))
        assert due_ids(svc.db, clock()) == []
        # a stray redelivered task changes nothing and sends nothing
        assert deliver(svc.db, svc.settings, queued[0], clock()) == "bounced"
    rows = outbox(app, game_id)
    assert all(r.status == "bounced" and r.attempts == 1 and r.last_error.startswith("550")
               for r in rows)
    assert smtp.sink.received() == [] and smtp.sink.refused == 4


def test_temporary_failures_give_up_after_max_attempts(app, smtp):
    svc = services(app)
    clock = svc.clock = FrozenClock()
    queued = capture_dispatch(app)
    create_game(app.test_client())
    smtp.sink.reply_code = "421 4.7.0 closing, too busy"
    statuses = []
    with app.app_context():
        for _ in range(MAX_ATTEMPTS):
            assert queued[0] in due_ids(svc.db, clock() + GRACE)
            statuses.append(deliver(svc.db, svc.settings, queued[0], clock()))
            clock.advance(backoff(MAX_ATTEMPTS))
    assert statuses == ["pending"] * (MAX_ATTEMPTS - 1) + ["failed"]
    row = outbox(app)[0]
    assert row.attempts == MAX_ATTEMPTS and row.id not in due_ids(svc.db, clock() + GRACE)


def test_an_unreachable_relay_is_a_temporary_failure(app, env):
    svc = services(app)
    clock = svc.clock = FrozenClock()
    queued = capture_dispatch(app)
    create_game(app.test_client())
    dead = from_env({**env, "CHASQUI_SMTP_URL": f"smtp://127.0.0.1:{free_port()}"})
    with app.app_context():
        assert deliver(svc.db, dead, queued[0], clock()) == "pending"
    row = outbox(app)[0]
    assert row.attempts == 1 and "Connection" in row.last_error


# --- 2. the worker is SIGKILLed mid-send, several times --------------------------------------

def test_killing_the_worker_mid_send_loses_no_mail_and_never_changes_one(app, env, smtp, tmp_path):
    """Three SIGKILLs, each while the worker waits for the relay's 250 of a different mail.

    The sink keeps each new message, then holds its 250 for far longer than a kill takes: the
    kill lands after the relay has the mail but before the worker marked the row sent — the
    worst moment.  The batch's transaction dies with the worker (every row still pending, no
    attempt counted), its task was never acked, and the sweep queues the rows again.  A mail
    the sink already has is answered at once, so the next worker resends the killed mail and
    stalls on one it has not sent yet: each kill hits a new row, and each killed mail is sent
    again, the same bytes under the same Message-ID."""
    smtp.sink.delay, smtp.sink.delay_only_new = 30.0, True
    client = app.test_client()
    workers = []

    def start_worker():
        w = Worker(env, tmp_path / f"worker-{len(workers)}.log")
        workers.append(w)
        return w.start()

    try:
        worker = start_worker()
        game_id, secrets = create_game(client)  # four start mails queued for the worker
        killed: list[str] = []
        for round_ in range(3):
            stalls_before = len(smtp.sink.stalled)
            if round_:
                worker = start_worker()
                sweep(app)  # the beat: the killed batch's rows are queued again
            mid = kill_mid_send(worker, smtp.sink, stalls_before)
            assert len(smtp.sink.raw_by_id[mid]) == 1, "killed on a mail's first send"
            assert all(len(smtp.sink.raw_by_id[k]) >= 2 for k in killed), \
                "the mails killed before were sent again (rows go in id order) before this kill"
            killed.append(mid)
            row = next(r for r in outbox(app, game_id) if r.message_id == mid)
            assert row.status == "pending" and row.sent_at is None and row.attempts == 0
            if round_ == 1:  # a move is accepted while no worker runs (it owes no mail yet)
                response = client.post(f"/api/play/{secrets[0]}",
                                       json={"action": {"type": "stay"}, "seq": 1})
                assert response.status_code == 200, response.get_json()
        assert len(set(killed)) == 3, killed  # three different mails, each killed mid-send
        smtp.sink.delay = 0
        worker = start_worker()
        # the killed batches' tasks were never acked (the broker keeps them for its 300 s
        # visibility time-out): the sweep is what brings their rows back
        swept = sweep(app)
        assert {r.message_id for r in outbox(app) if r.id in swept} >= set(killed)
        wait_until(lambda: all(r.status == "sent" for r in outbox(app, game_id)), 60,
                   "every outbox row to be sent")
    finally:
        for w in workers:
            w.stop()
    all_sent_once_each(app, smtp.sink, game_id)
    duplicates = smtp.sink.duplicates()
    assert set(killed) <= set(duplicates), "each killed send reached the relay and was repeated"
    assert event_count(app, game_id) == 2


# --- 3. the broker dies (or hangs) while moves are made --------------------------------------

def test_moves_are_accepted_while_redis_is_down_and_their_mail_goes_out_after(app, env, smtp,
                                                                               own_redis, tmp_path):
    env2 = {**env, "CHASQUI_REDIS_URL": own_redis.url}
    web = create_app(from_env(env2))
    client = web.test_client()
    worker = Worker(env2, tmp_path / "worker.log")
    try:
        worker.start()
        game_id, secrets = create_game(client)
        smtp.sink.wait_for(lambda: len(smtp.sink.received()) == 4, what="the four start mails")

        own_redis.kill()
        timings = []
        for seat in range(4):  # everyone chooses: the last choice reveals a card -> turn mails
            started = time.monotonic()
            response = client.post(f"/api/play/{secrets[seat]}",
                                   json={"action": {"type": "stay"}, "seq": 1})
            timings.append(time.monotonic() - started)
            assert response.status_code == 200, response.get_json()
        assert max(timings) < 3.0, timings  # no hang: a refused connection fails at once
        assert event_count(app, game_id) == 5
        owed = [r for r in outbox(app, game_id) if r.seq > 1]
        assert owed and all(r.status == "pending" for r in owed)
        time.sleep(0.5)
        assert len(smtp.sink.received()) == 4

        own_redis.start()  # same port; the worker reconnects by itself
        assert set(sweep(web)) == {r.id for r in owed}
        last_sweep = [time.monotonic()]

        def all_sent():
            if time.monotonic() - last_sweep[0] > 5:  # the beat sweeps again (60 s in production)
                sweep(web)
                last_sweep[0] = time.monotonic()
            return all(r.status == "sent" for r in outbox(app, game_id))
        wait_until(all_sent, 60, "the mail owed from the outage to go out")
        # and the web process's dispatcher works again without a sweep
        state = client.get(f"/api/play/{secrets[0]}").get_json()
        seat = state["to_act"][0]
        seat_state = client.get(f"/api/play/{secrets[seat]}").get_json()
        response = client.post(f"/api/play/{secrets[seat]}",
                               json={"action": {"type": "stay"}, "seq": seat_state["seq"]})
        assert response.status_code == 200
        wait_until(lambda: all(r.status == "sent" for r in outbox(app, game_id)), 30,
                   "a mail dispatched directly after the outage")
    finally:
        worker.stop()
        services(web).db.dispose()
    all_sent_once_each(app, smtp.sink, game_id)


def test_a_hung_broker_costs_the_dispatcher_one_short_timeout_not_one_per_mail(app, env, own_redis):
    """A broker that accepts connections but never answers (SIGSTOP): a new game owes four
    mails; the dispatcher gives up on the batch at the first time-out (2 s), not after 4 x 2 s."""
    web = create_app(from_env({**env, "CHASQUI_REDIS_URL": own_redis.url}))
    dispatch = services(web).dispatch
    try:
        dispatch([])  # nothing owed: no connection needed
        own_redis.pause()
        started = time.monotonic()
        dispatch([101, 102, 103, 104])
        elapsed = time.monotonic() - started
        assert elapsed < 3.5, f"dispatching four rows took {elapsed:.1f}s with a hung broker"
    finally:
        own_redis.resume()
        services(web).db.dispose()


def test_a_hung_broker_holds_a_request_for_at_most_one_short_timeout(app, env, own_redis):
    """The whole request, not just the dispatcher: the rate limiter's counters live in the same
    Redis, so its storage needs short socket time-outs too (service/web/limits.py)."""
    web = create_app(from_env({**env, "CHASQUI_REDIS_URL": own_redis.url}))
    client = web.test_client()
    try:
        create_game(client)  # warm the connection pools while the broker answers
        own_redis.pause()
        started = time.monotonic()
        game_id, _ = create_game(client, seed=8)
        elapsed = time.monotonic() - started
        assert len(outbox(app, game_id)) == 4 and event_count(app, game_id) == 1
        assert elapsed < 5.0, f"creating a game took {elapsed:.1f}s with a hung broker"
    finally:
        own_redis.resume()
        services(web).db.dispose()
