"""Scaled out: two web processes (gunicorn) and two Celery workers against one
PostgreSQL and one Redis.  Four players play a whole game, each seat's requests alternating
between the two web processes and the seats of a simultaneous decision moving at the same
time; the game must come out as one consistent history, and every mail owed must go out once."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from service.store.loading import load
from service.store.events import verify_chain
from tests.conftest import secret_from_url
from tests.integration.conftest import ADMIN, ROOT, Worker, stop_process
from tests.integration.smtp_sink import free_port
from tests.integration.test_faults import all_sent_once_each, outbox, services, sweep, wait_until

pytestmark = pytest.mark.integration


class Gunicorn:
    """A web process as the Procfile runs it."""

    def __init__(self, env: dict, log: Path):
        self.port = free_port()
        self.env = {**os.environ, **env, "PYTHONPATH": str(ROOT)}
        self.log = log
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{self.port}",
             "--workers", "2", "--threads", "4", "--worker-class", "gthread",
             "service.web.wsgi:app"],
            cwd=ROOT, env=self.env, stdout=self.log.open("ab"), stderr=subprocess.STDOUT)

        def healthy():
            if self.process.poll() is not None:
                raise AssertionError("gunicorn died:\n" + self.log.read_text(errors="replace")[-3000:])
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as response:
                    return response.status == 200
            except OSError:
                return False
        wait_until(healthy, 60, "gunicorn to answer /healthz", 0.2)
        return self

    def stop(self):
        stop_process(self.process)


def call(base: str, method: str, path: str, body=None, admin=False):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if admin:
        request.add_header("Authorization", f"Bearer {ADMIN}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_a_game_played_across_two_web_processes_and_two_workers_stays_consistent(
        app, env, smtp, tmp_path):
    webs = [Gunicorn(env, tmp_path / f"web-{i}.log") for i in range(2)]
    workers = [Worker(env, tmp_path / f"worker-{i}.log") for i in range(2)]
    try:
        for process in webs + workers:
            process.start()
        players = [{"name": n, "email": f"{n.lower()}@example.org"} for n in ("Ana", "Ben", "Cai", "Dee")]
        status, created = call(webs[0].base, "POST", "/api/games",
                               {"game": "incan_gold", "seed": 99, "players": players}, admin=True)
        assert status == 201, created
        game_id = created["id"]
        secrets = [secret_from_url(s["play_url"]) for s in created["seats"]]
        accepted, conflicts, lock = [], [], threading.Lock()
        rounds = 0

        def play(seat: int, turn: int):
            chooser = random.Random(f"{seat}:{turn}")
            for attempt in range(20):
                web = webs[(seat + turn + attempt) % 2].base
                code, state = call(web, "GET", f"/api/play/{secrets[seat]}")
                assert code == 200, state
                if seat not in state["to_act"] or state["outcome"] is not None:
                    return
                actions = state["legal_actions"]
                leave = [a for a in actions if a.get("type") == "leave"]
                action = leave[0] if leave and chooser.random() < 0.3 else chooser.choice(actions)
                web = webs[(seat + turn + attempt + 1) % 2].base  # the move goes to the other one
                code, body = call(web, "POST", f"/api/play/{secrets[seat]}",
                                  {"action": action, "seq": state["seq"]})
                with lock:
                    (accepted if code == 200 else conflicts).append((seat, code, body))
                if code == 200:
                    return
                assert code == 409, (code, body)  # lost a race: reload and decide again
            raise AssertionError(f"seat {seat} never got its move in")

        while True:
            code, game = call(webs[rounds % 2].base, "GET", f"/api/games/{game_id}", admin=True)
            assert code == 200
            if game["status"] == "finished":
                break
            assert rounds < 300, "the game should have ended"
            threads = [threading.Thread(target=play, args=(seat, rounds)) for seat in game["to_act"]]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
            rounds += 1

        # one history, whichever process is asked
        views = [call(w.base, "GET", f"/api/games/{game_id}", admin=True)[1] for w in webs]
        assert views[0] == views[1]
        events = views[0]["events"]
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        assert len([e for e in events if e["kind"] == "MoveMade"]) == len(accepted)
        with services(app).db.reading() as session:
            loaded = load(session, game_id)
        assert verify_chain(game_id, loaded.events).ok
        assert loaded.game.outcome(loaded.state) is not None

        # every mail owed goes out, once, shared between the two workers
        sweep(app)  # rows whose task lost a race with a deploy would be picked up here
        wait_until(lambda: all(r.status == "sent" for r in outbox(app, game_id)), 90,
                   "every outbox row to be sent")
    finally:
        for process in webs + workers:
            process.stop()
    all_sent_once_each(app, smtp.sink, game_id)
    assert len(smtp.sink.received()) == len(outbox(app, game_id))
    done = [w.log.read_text(errors="replace").count("succeeded") for w in workers]
    assert all(n > 0 for n in done), f"both workers should have delivered some mail: {done}"
    print(f"moves={len(accepted)} races_lost={len(conflicts)} mails={len(outbox(app, game_id))} "
          f"per_worker={done}")
