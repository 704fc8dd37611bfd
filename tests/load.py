"""Busy-evening load on a real threaded HTTP server: many players pressing at once.

Shared by the SQLite (embedded default) and PostgreSQL load tests, so both databases face
the very same traffic.  Threads start together on a barrier and are joined with generous
bounds; nothing waits on a short sleep."""
from __future__ import annotations

import http.client
import json
import threading
from collections import Counter
from dataclasses import dataclass, field

from sqlalchemy import select

from service.store.models import EventRow
from service.store.events import verify_chain, load as load_events


class ServedApp:
    """The Flask app behind a real threaded HTTP server (werkzeug's, as ``./chasqui run``
    serves), in a thread."""

    def __init__(self, app):
        from werkzeug.serving import make_server

        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.server.daemon_threads = True
        self.port = self.server.server_port
        # shutdown() waits for serve_forever to look at its flag, once per poll interval
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,),
                                       daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.thread.join(10)

    def request(self, method: str, path: str, body=None, timeout=120) -> tuple[int, object]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            conn.request(method, path, body=None if body is None else json.dumps(body),
                         headers=headers)
            response = conn.getresponse()
            raw = response.read()
            try:
                return response.status, json.loads(raw or b"null")
            except ValueError:
                return response.status, raw.decode(errors="replace")[:300]
        finally:
            conn.close()

    def post_json(self, path, body, timeout=120):
        return self.request("POST", path, body, timeout)

    def get_json(self, path, timeout=120):
        return self.request("GET", path, None, timeout)


def all_at_once(work, count: int, join_seconds: float = 300) -> list[BaseException]:
    """Run ``work(i)`` in ``count`` threads released together by a barrier; returns what
    any of them raised."""
    barrier = threading.Barrier(count)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait(60)
            work(i)
        except BaseException as error:  # noqa: BLE001  reported to the test
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(join_seconds)
    assert not any(thread.is_alive() for thread in threads), "a player never got an answer"
    return errors


def identical_posts(served: ServedApp, secret: str, count: int = 50) -> Counter:
    """``count`` identical POSTs of one move, all at once: statuses and their bodies."""
    results: list[tuple[int, object]] = []
    errors = all_at_once(lambda _i: results.append(served.post_json(
        f"/api/play/{secret}", {"action": {"type": "stay"}, "seq": 1})), count)
    assert not errors, errors[:3]
    assert all(isinstance(body, dict) and body.get("error")
               for status, body in results if status != 200), results[:3]
    return Counter(status for status, _ in results)


@dataclass
class Evening:
    """What the players of a busy evening were answered."""
    posts: Counter = field(default_factory=Counter)
    gets: Counter = field(default_factory=Counter)
    accepted: Counter = field(default_factory=Counter)  # (game, seat) -> moves taken
    server_errors: list = field(default_factory=list)
    refusals: list = field(default_factory=list)  # (status, the action was offered, answer)

    def refusals_of_offered_moves(self) -> Counter:
        """The statuses refusing a move the seat's page offered: a race lost, never a fault."""
        return Counter(status for status, offered, _ in self.refusals if offered)

    def refusals_of_made_up_moves(self) -> Counter:
        """The statuses refusing a move posted by a seat that was offered none."""
        return Counter(status for status, offered, _ in self.refusals if not offered)


def busy_evening(served: ServedApp, games: list[tuple[str, list[str]]],
                 rounds: int = 12) -> Evening:
    """Every seat of every game, at once: look at the game (GET), choose the first legal
    action on the seq it saw (POST), ``rounds`` times.  A seat that need not act still
    posts (a refusal, as a stale tab would get)."""
    evening = Evening()
    lock = threading.Lock()
    seats = [(game_id, seat, secret) for game_id, secrets in games
             for seat, secret in enumerate(secrets)]

    def play(i: int) -> None:
        game_id, seat, secret = seats[i]
        for _ in range(rounds):
            status, view = served.get_json(f"/api/play/{secret}")
            with lock:
                evening.gets[status] += 1
                if status >= 500:
                    evening.server_errors.append(("GET", status, view))
            if status != 200:
                continue
            offered = bool(view["legal_actions"])
            actions = view["legal_actions"] or [{"type": "stay"}]
            status, answer = served.post_json(f"/api/play/{secret}",
                                              {"action": actions[0], "seq": view["seq"]})
            with lock:
                evening.posts[status] += 1
                if status == 200:
                    evening.accepted[(game_id, seat)] += 1
                elif status >= 500:
                    evening.server_errors.append(("POST", status, answer))
                else:
                    evening.refusals.append((status, offered, answer))

    errors = all_at_once(play, len(seats))
    assert not errors, errors[:3]
    return evening


def assert_no_fault(evening: Evening, games) -> None:
    """What every busy evening must show: no 5xx, every look answered, every refused move the
    page offered a lost race (409), and every game past its first decision."""
    assert evening.server_errors == [], evening.server_errors[:3]
    assert set(evening.posts) <= {200, 400, 409}, evening.posts
    assert set(evening.gets) == {200}, evening.gets
    assert set(evening.refusals_of_offered_moves()) <= {409}, evening.refusals[:3]
    assert set(evening.refusals_of_made_up_moves()) <= {400, 409}
    assert sum(evening.accepted.values()) >= 4 * len(games)


def players_moves(session, game_id: str) -> Counter:
    """MoveMade events by the seat whose player made them (bots and timeouts excluded)."""
    return Counter(int(actor.split(":")[1]) for actor in session.scalars(
        select(EventRow.actor).where(EventRow.game_id == game_id, EventRow.kind == "MoveMade",
                                     EventRow.actor.like("seat:%"))))


def one_event_per_decision(db, evening: Evening, games) -> None:
    """Each accepted POST made exactly one event, and every chain still verifies."""
    with db.reading() as session:
        for game_id, secrets in games:
            moves = players_moves(session, game_id)
            for seat in range(len(secrets)):
                assert moves[seat] == evening.accepted[(game_id, seat)], (game_id, seat)
            assert verify_chain(game_id, load_events(session, game_id)).ok
