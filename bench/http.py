"""Moves per second through gunicorn + PostgreSQL, against a baseline in the same run.

Two gunicorn servers with the same settings on a throwaway PostgreSQL database: Chasqui (``service.web.wsgi:app``, Redis dispatch to a throwaway queue, as
deployed) and a bare Flask + SQLAlchemy app whose one POST inserts one row
(``bench.bare_app``).  The same client threads (keep-alive HTTP) drive each for the same time;
Chasqui's requests are real Incan Gold moves (``POST /api/play/<secret>``: authorise, load the
events, replay, validate, append with the hash chain, write the outbox, commit, dispatch).

Each pair runs in two server settings: as deployed (the ``web:`` line of the Procfile, read
from it: sync workers, ``WEB_CONCURRENCY`` of them, with its access log, here to /dev/null)
and the setting of the earlier rounds (2 gthread workers x 4 threads), so that figures stay
comparable with both the deployment and earlier figures (in docs/performance.md's git log).

Besides the rates and latencies it prints, per request, the CPU milliseconds (Linux ``/proc``)
of the server's processes, of the PostgreSQL backends of the throwaway database and of the
client threads: all three share the same CPUs, so the ratio is the ratio of these sums.

    python -m bench.http [--seconds 8] [--clients 8] [--setting procfile|gthread|both]
                         [--rounds 1]
    python -m bench.http --in-process [--seconds 8]

``--in-process`` drives the same moves through Flask's test client in this one process (no
gunicorn, no HTTP) and reports what a busy, shared host blurs least: CPU milliseconds and SQL
statements per move (counted by an engine listener; BEGIN/COMMIT and pool pings are not
statements here).
"""
from __future__ import annotations

import argparse
import http.client
import json
import logging
import os
import platform
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from bench.processes import (cmdline, cpu_seconds, procfile_command, run_seconds,
                              tree_cpu_seconds)
from service.web.extensions import services

ROOT = Path(__file__).resolve().parent.parent
ADMIN = "bench-admin"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def backends_of(database: str) -> list[int]:
    """The PostgreSQL backends serving ``database`` (their command line names it)."""
    if not os.path.isdir("/proc"):
        return []
    return [int(e) for e in os.listdir("/proc") if e.isdigit() and f" {database} " in cmdline(int(e))]


def cpu_split(server_pid: int, database: str) -> dict[str, float]:
    """CPU seconds so far of the server (gunicorn's master and workers), of the PostgreSQL
    backends serving ``database`` (their command line names it) and of this client process:
    where a request's CPU goes, which the same 2 CPUs all share.  Backends that ended in
    between are not counted (both runs keep theirs open: pooled connections)."""
    if not os.path.isdir("/proc"):
        return {}
    backends = backends_of(database)
    return {"server": tree_cpu_seconds(server_pid) or 0.0,
            "postgres": sum(cpu_seconds(pid) or 0.0 for pid in backends),
            "client": time.process_time()}


GTHREAD = ["--workers", "2", "--threads", "4", "--worker-class", "gthread"]


def procfile_options() -> list[str]:
    """The gunicorn options of the Procfile's ``web:`` line, without its bind and its app."""
    words = procfile_command("web")
    if words[0] != "gunicorn":
        raise SystemExit(f"the Procfile's web line does not run gunicorn: {' '.join(words)}")
    options, rest = [], iter(words[1:])
    for word in rest:
        if word in ("--bind", "-b"):
            next(rest)
        elif not word.startswith("-") and ":" in word:  # the app, e.g. service.web.wsgi:app
            continue
        else:
            options.append(word)
    return options


SETTINGS = {"procfile": ("as deployed (Procfile web: gunicorn {options})", procfile_options),
            "gthread": ("gunicorn {options} (the setting of earlier rounds)", lambda: GTHREAD)}


class Server:
    def __init__(self, target: str, env: dict, options: list[str]):
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{self.port}", *options,
             "--log-level", "warning", target],
            cwd=ROOT, env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL)  # the Procfile's access log ("-") is written, not shown
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                time.sleep(0.5)
                if self.process.poll() is None:  # the answer was ours, not another process's
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise SystemExit(f"{target} did not start on port {self.port} "
                         f"(exit code {self.process.returncode})")

    def stop(self):
        self.process.terminate()
        self.process.wait(20)


class Client:
    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method: str, path: str, body=None, headers=None):
        """(status, JSON body).  A connection the server dropped is answered as status 599,
        which the drivers count as an error, and the next call reconnects: one reset must
        not end the run (nor be retried blindly: a POST may have been carried out)."""
        try:
            self.conn.request(method, path, body=None if body is None else json.dumps(body),
                              headers={"Content-Type": "application/json", **(headers or {})})
            response = self.conn.getresponse()
            return response.status, json.loads(response.read() or b"null")
        except (ConnectionError, TimeoutError, http.client.HTTPException) as error:
            self.conn.close()
            return 599, {"error": repr(error)}


def chasqui_driver(port: int, stop_at: float, latencies: list, errors: list, client=None):
    client = client or Client(port)
    game = None
    while time.monotonic() < stop_at:
        if game is None or game["outcome"] is not None or not game["to_act"]:
            status, created = client.call("POST", "/api/games", {
                "game": "incan_gold", "players": [{"name": f"P{i}", "email": f"p{i}@example.com"}
                                                  for i in range(4)]},
                {"Authorization": f"Bearer {ADMIN}"})
            if status != 201:
                errors.append((status, created))
                continue
            secrets_ = [s["play_url"].rsplit("/play/", 1)[1] for s in created["seats"]]
            game = {"secrets": secrets_, "seq": 1, "to_act": [0, 1, 2, 3], "outcome": None}
        last = None
        for seat in list(game["to_act"]):
            path = f"/api/play/{game['secrets'][seat]}"
            started = time.perf_counter()
            status, body = client.call("POST", path, {"action": {"type": "stay"}, "seq": game["seq"]})
            latencies.append(time.perf_counter() - started)
            if status != 200:
                errors.append((status, body))
                status, last = client.call("GET", path)
                if status != 200:  # the game's state is unknown: go on with a new one
                    game = None
                break
            last = body
        if game is not None:
            game.update(seq=last["seq"], to_act=last["to_act"], outcome=last["outcome"])


def bare_driver(port: int, stop_at: float, latencies: list, errors: list):
    client = Client(port)
    seq = 0
    while time.monotonic() < stop_at:
        seq += 1
        started = time.perf_counter()
        status, body = client.call("POST", "/row", {"action": {"type": "stay"}, "seq": seq})
        latencies.append(time.perf_counter() - started)
        if status != 200:
            errors.append((status, body))


def drive(driver, port: int, seconds: float, clients: int, cpu=lambda: {}) -> dict:
    warm: list = []
    driver(port, time.monotonic() + 1.0, warm, [])  # warm up both gunicorn workers' pools
    latencies: list[float] = []
    errors: list = []
    stop_at = time.monotonic() + seconds
    cpu_before = cpu()
    started = time.monotonic()
    threads = [threading.Thread(target=driver, args=(port, stop_at, latencies, errors))
               for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    cpu_after = cpu()
    q = statistics.quantiles(latencies, n=100)
    return {"rate": len(latencies) / elapsed, "n": len(latencies), "errors": len(errors),
            "p50": q[49] * 1e3, "p99": q[98] * 1e3,
            "cpu": {k: (cpu_after[k] - cpu_before[k]) / len(latencies) * 1e3 for k in cpu_after}}


class InProcessClient:
    """``Client``'s interface on Flask's test client; measures the move requests only."""

    def __init__(self, app, database: str):
        self.client = app.test_client()
        self.database = database
        self.backends: list[int] = []
        self.measuring = False
        self.cpu = 0.0
        self.postgres = 0.0  # the backends' CPU seconds during the moves
        self.statements = 0
        self.counting = False

        from sqlalchemy import event

        def count(*_args):
            if self.counting:
                self.statements += 1
        event.listen(services(app).db.engine, "before_cursor_execute", count)

    def call(self, method: str, path: str, body=None, headers=None):
        move = self.measuring and method == "POST" and path.startswith("/api/play/")
        self.counting = move
        backends_before = self.postgres_seconds() if move else 0.0
        started = time.process_time()
        response = self.client.open(path, method=method, json=body, headers=headers)
        if move:
            self.cpu += time.process_time() - started
            self.postgres += self.postgres_seconds() - backends_before
        self.counting = False
        return response.status_code, response.get_json()

    def postgres_seconds(self) -> float:
        """The backends' run time so far; after a move that opened a backend, the list is
        read again (that move's own share of the new backend is then not counted)."""
        seconds = [run_seconds(pid) for pid in self.backends]
        if not self.backends or None in seconds:
            self.backends = backends_of(self.database)
            return sum(run_seconds(pid) or 0.0 for pid in self.backends)
        return sum(seconds)


def in_process(seconds: float) -> None:
    from service.web.app import create_app
    from service.core.config import from_env
    from tests.services_available import fresh_postgres_database, redis_url

    url, drop = fresh_postgres_database()
    queue = f"chasqui-bench-{secrets.token_hex(4)}"
    redis = redis_url()
    app = None
    try:
        app = create_app(from_env({
            "CHASQUI_DATABASE_URL": url, "CHASQUI_REDIS_URL": redis, "CHASQUI_QUEUE": queue,
            "CHASQUI_SMTP_URL": "smtp://127.0.0.1:1", "CHASQUI_BASE_URL": "http://bench.test",
            "CHASQUI_SECRET_KEY": "bench", "CHASQUI_ADMIN_TOKEN": ADMIN,
            "CHASQUI_RATE_LIMIT": "off"}), upgrade=True)
        logging.getLogger().setLevel(logging.WARNING)
        client = InProcessClient(app, url.rsplit("/", 1)[1])
        chasqui_driver(0, time.monotonic() + 1.0, [], [], client)  # warm up
        client.measuring = True
        latencies: list[float] = []
        errors: list = []
        chasqui_driver(0, time.monotonic() + seconds, latencies, errors, client)
    finally:
        if app is not None:
            services(app).db.dispose()
        import redis as redis_lib

        redis_lib.Redis.from_url(redis).delete(queue)
        drop()
    n = len(latencies)
    print(f"# http --in-process  {platform.python_implementation()} {platform.python_version()}  "
          f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC  load {os.getloadavg()[0]:.1f}  "
          f"{seconds:.0f} s, one thread, Flask test client, PostgreSQL, Redis dispatch")
    print(f"{n} moves ({len(errors)} errors): {statistics.mean(latencies) * 1e3:.2f} ms/move wall, "
          f"{client.cpu / n * 1e3:.2f} ms/move CPU, {client.statements / n:.2f} SQL statements/move, "
          f"{client.postgres / n * 1e3:.2f} ms/move of PostgreSQL CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--in-process", action="store_true",
                        help="one process, Flask test client: CPU and SQL statements per move")
    parser.add_argument("--rounds", type=int, default=1,
                        help="pairs per setting, alternating which side runs first; "
                             "with more than one, the median pair is printed too")
    parser.add_argument("--setting", choices=["procfile", "gthread", "both"], default="both",
                        help="the gunicorn setting of both servers (default: each in turn)")
    args = parser.parse_args()
    if args.in_process:
        in_process(args.seconds)
        return

    from service.store.db import Database
    from tests.services_available import fresh_postgres_database, redis_url

    url, drop = fresh_postgres_database()
    queue = f"chasqui-bench-{secrets.token_hex(4)}"
    redis = redis_url()
    env = {"CHASQUI_DATABASE_URL": url, "CHASQUI_REDIS_URL": redis, "CHASQUI_QUEUE": queue,
           "CHASQUI_SMTP_URL": "smtp://127.0.0.1:1", "CHASQUI_BASE_URL": "http://bench.test",
           "CHASQUI_SECRET_KEY": "bench", "CHASQUI_ADMIN_TOKEN": ADMIN, "BENCH_DATABASE_URL": url,
           "CHASQUI_RATE_LIMIT": "off"}  # one client address would hit the per-address limit
    settings = list(SETTINGS) if args.setting == "both" else [args.setting]
    servers = []
    results: dict[str, dict] = {}
    try:
        db = Database(url)
        db.upgrade()
        db.dispose()
        subprocess.run([sys.executable, "-c", "from bench.bare_app import create_table; "
                        "create_table()"], cwd=ROOT, check=True,  # not imported here: the
                       env={**os.environ, "BENCH_DATABASE_URL": url,  # client's heap stays small
                            "PYTHONPATH": str(ROOT)})
        database = url.rsplit("/", 1)[1]
        for setting in settings:
            title, options = SETTINGS[setting]
            options = options()
            results[title.format(options=" ".join(options))] = rounds = []
            for round_ in range(args.rounds):
                runs = [("bare Flask+SQLAlchemy insert", "bench.bare_app:app", bare_driver),
                        ("Chasqui move", "service.web.wsgi:app", chasqui_driver)]
                measured: dict[str, dict] = {}
                for name, target, driver in runs[::-1] if round_ % 2 else runs:
                    server = Server(target, env, options)  # odd rounds run the move first:
                    servers.append(server)  # a host that speeds up or slows down over the
                    measured[name] = drive(driver, server.port, args.seconds,  # run favours
                                           args.clients,  # neither side
                                           lambda: cpu_split(server.process.pid, database))
                    server.stop()
                rounds.append({name: measured[name] for name, _, _ in runs})
    finally:
        for server in servers:
            if server.process.poll() is None:
                server.stop()
        import redis as redis_lib

        redis_lib.Redis.from_url(redis).delete(queue)
        drop()
    print(f"# http  {platform.python_implementation()} {platform.python_version()}  "
          f"{os.cpu_count()} CPUs  {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC  "
          f"load {os.getloadavg()[0]:.1f}  {args.clients} keep-alive clients, "
          f"{args.seconds:.0f} s each")
    for title, rounds in results.items():
        print(f"## {title}")
        for measured in rounds:
            report(measured)
        if len(rounds) > 1:
            summary(rounds)


def ratios(results: dict[str, dict]) -> tuple[float, float | None]:
    """(moves/s over bare inserts/s, bare CPU per request over the move's, or None)."""
    base, move = results["bare Flask+SQLAlchemy insert"], results["Chasqui move"]
    cpu = (sum(base["cpu"].values()) / sum(move["cpu"].values())
           if all(r["cpu"] for r in results.values()) else None)
    return move["rate"] / base["rate"], cpu


def summary(rounds: list[dict[str, dict]]) -> None:
    """The median pair: one 8-second pair on a shared host can land 10 % either way."""
    rates = sorted(ratios(r)[0] for r in rounds)
    line = (f"{len(rounds)} pairs: rate ratio median {statistics.median(rates):.2f} x "
            f"(from {rates[0]:.2f} to {rates[-1]:.2f})")
    cpus = sorted(c for c in (ratios(r)[1] for r in rounds) if c is not None)
    if cpus:
        line += f"; CPU ratio median {statistics.median(cpus):.2f} x ({cpus[0]:.2f} to {cpus[-1]:.2f})"
    print(line)


def report(results: dict[str, dict]) -> None:
    print(f"{'':<30}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'requests':>10}{'errors':>8}")
    for name, r in results.items():
        print(f"{name:<30}{r['rate']:>9.0f}{r['p50']:>9.1f}{r['p99']:>9.1f}{r['n']:>10}{r['errors']:>8}")
    base, move = results["bare Flask+SQLAlchemy insert"], results["Chasqui move"]
    rate_ratio, cpu_ratio = ratios(results)
    if cpu_ratio is not None:
        print("CPU ms per request (Linux /proc): " + "; ".join(
            f"{name}: " + ", ".join(f"{k} {v:.2f}" for k, v in r["cpu"].items())
            + f", all {sum(r['cpu'].values()):.2f}" for name, r in results.items())
            + f" (CPU ratio {cpu_ratio:.2f} x)")
    print(f"ratio: Chasqui moves/s = {rate_ratio:.2f} x bare inserts/s; "
          f"p50 {move['p50'] / base['p50']:.1f} x")

if __name__ == "__main__":
    main()
