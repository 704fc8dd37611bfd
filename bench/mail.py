"""Mail throughput: outbox rows rendered and delivered per second by one Celery worker, against
the same worker's rate for a no-op task (baseline, same run).

A throwaway PostgreSQL database gets G Incan Gold games (4 start mails each, left in the
outbox).  One Celery worker on a throwaway queue of the machine's Redis drains N no-op tasks
(Celery's built-in ``celery.accumulate``), then the mail, dispatched as the web process does
it after each game's commit (one ``chasqui.deliver_many`` task per game:
batching): a task locks its rows, replays the game to their seq, renders text + HTML from
templates and sends by SMTP to a local aiosmtpd that accepts everything.

Both workloads are queued in full before they are timed (on a side list of Redis that is then
renamed to the worker's queue at once), so the rates are the worker's own, not how fast this
process can publish.  The mail of ``--warm`` more games is sent first, untimed (a worker
compiles its templates and fills its caches once in its life).  Besides the wall-clock rates,
the worker's CPU per no-op task and per mail (Linux ``/proc``, the worker and its pool's
children) is printed: on a shared host it is the steadier figure.

Each pair runs with two worker settings: as deployed (the ``worker:`` line of the Procfile,
read from it: the prefork pool, ``WORKER_CONCURRENCY`` children, log level INFO) and
``--pool=solo`` (one process, as in the integration tests and the earlier rounds).  Both run
without heartbeat, gossip and mingle (cluster chatter that is not per task).

Rounds alternate which workload runs first; with two or more, the median of the same-run
ratios is printed (a host that speeds up or slows down during a run favours neither).

    python -m bench.mail [--games 100] [--noop 1000] [--warm 3] [--setting procfile|solo|both]
                         [--rounds 3]
"""
from __future__ import annotations

import argparse
import logging
import os
import platform
import secrets
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from aiosmtpd.controller import Controller
from sqlalchemy import func, select

from bench.processes import procfile_command, tree_cpu_seconds
from service.web.extensions import services

ROOT = Path(__file__).resolve().parent.parent


class Accept:
    def __init__(self):
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        return "250 OK"


def wait(predicate, timeout: float, what: str, pause: float = 0.01) -> float:
    started = time.monotonic()
    while not predicate():
        if time.monotonic() - started > timeout:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(pause)
    return time.monotonic()


def procfile_options() -> list[str]:
    """The options after ``worker`` on the Procfile's ``worker:`` line."""
    words = procfile_command("worker")
    if "worker" not in words:
        raise SystemExit(f"the Procfile's worker line does not run a Celery worker: {' '.join(words)}")
    return words[words.index("worker") + 1:]


SETTINGS = {"procfile": ("as deployed (Procfile worker: celery worker {options})", procfile_options),
            "solo": ("celery worker {options} (one process: the earlier rounds)",
                     lambda: ["--pool=solo", "--loglevel=INFO"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--noop", type=int, default=1000)
    parser.add_argument("--warm", type=int, default=3,
                        help="games whose mail is sent before timing (templates compiled)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds per setting, each with new games and a new worker, "
                             "alternating which workload runs first; the median is printed")
    parser.add_argument("--setting", choices=["procfile", "solo", "both"], default="both",
                        help="the worker's setting (default: each in turn)")
    args = parser.parse_args()

    from bench.http import free_port
    from service.web.app import create_app
    from service.core.config import from_env
    from tests.services_available import fresh_postgres_database, redis_url

    url, drop = fresh_postgres_database()
    broker = redis_url()
    sink = Accept()
    smtp_port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    env = {"CHASQUI_DATABASE_URL": url, "CHASQUI_REDIS_URL": broker,
           "CHASQUI_SMTP_URL": f"smtp://127.0.0.1:{smtp_port}",
           "CHASQUI_BASE_URL": "http://bench.test", "CHASQUI_SECRET_KEY": "bench"}
    app = create_app(from_env({**env, "CHASQUI_QUEUE": "unused"}), upgrade=True)
    # The sink is the bench's, not the system's: its five INFO lines per mail cost the host CPU
    # the worker needs (the bench process shares the machine with the worker and PostgreSQL).
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    svc = services(app)
    results = {}
    try:
        for setting in (list(SETTINGS) if args.setting == "both" else [args.setting]):
            title, options = SETTINGS[setting]
            options = options()
            results[title.format(options=" ".join(options))] = [
                measure(svc, env, sink, options, args, mail_first=bool(round_ % 2))
                for round_ in range(args.rounds)]
    finally:
        controller.stop()
        svc.db.engine.dispose()
        drop()
    print(f"# mail  {platform.python_implementation()} {platform.python_version()}  "
          f"{os.cpu_count()} CPUs  {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC  "
          f"load {os.getloadavg()[0]:.1f}  one worker, Redis broker, local aiosmtpd")
    for title, rounds in results.items():
        print(f"## {title}")
        for r in rounds:
            report(r, args)
        if len(rounds) > 1:
            rates = sorted(r["mail_rate"] / r["noop_rate"] for r in rounds)
            line = (f"{len(rounds)} rounds: rate ratio median {statistics.median(rates):.2f} x "
                    f"(from {rates[0]:.2f} to {rates[-1]:.2f})")
            cpus = sorted(r["cpu_noop"] / r["cpu_mail"] for r in rounds
                          if r["cpu_noop"] is not None and r["cpu_mail"] is not None)
            if cpus:
                line += (f"; CPU ratio median {statistics.median(cpus):.2f} x "
                         f"({cpus[0]:.2f} to {cpus[-1]:.2f})")
            print(line)


def report(r: dict, args) -> None:
    print(f"no-op task (celery.accumulate)   {r['noop_rate']:8.0f} tasks/s  ({args.noop} tasks)")
    print(f"render + deliver one mail        {r['mail_rate']:8.0f} mails/s  ({r['mails']} mails)")
    print(f"ratio: mails/s = {r['mail_rate'] / r['noop_rate']:.2f} x no-op tasks/s "
          f"({1e3 / r['mail_rate']:.1f} ms per mail vs {1e3 / r['noop_rate']:.1f} ms per "
          "no-op task)")
    if r["cpu_noop"] is not None and r["cpu_mail"] is not None:
        print(f"worker CPU: {r['cpu_mail'] * 1e3:.2f} ms per mail vs {r['cpu_noop'] * 1e3:.2f} "
              f"ms per no-op task (CPU ratio {r['cpu_noop'] / r['cpu_mail']:.2f} x)")


def measure(svc, env: dict, sink: Accept, options: list[str], args, mail_first: bool) -> dict:
    """One worker with ``options`` on a queue of its own: warm-up, the no-op tasks and the
    mail (the mail first when ``mail_first``)."""
    import redis as redis_lib
    from celery import Celery

    from service.mail.dispatch import CeleryDispatcher
    from service.application.games import create_game
    from service.store.models import OutboxRow

    queue = f"chasqui-bench-{secrets.token_hex(4)}"
    filling = f"{queue}-filling"  # queued in full here, then renamed to ``queue`` at once
    redis = redis_lib.Redis.from_url(env["CHASQUI_REDIS_URL"])
    log = Path(f"/tmp/{queue}.log")
    worker = None
    try:
        events: list[list[int]] = []  # one dispatch per commit, as the web process does
        for g in range(args.warm + args.games):
            with svc.db.unit_of_work() as session:
                _, outcome = create_game(session, "incan_gold", [
                    {"name": f"P{i}", "email": f"p{i}@bench.test"} for i in range(4)],
                    g, {}, "admin", svc.clock(), svc.settings.mail_domain)
            events.append(list(outcome.owed.mail))
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", *options,
             "-Q", queue, "--without-heartbeat", "--without-gossip", "--without-mingle"],
            cwd=ROOT, env={**os.environ, **env, "CHASQUI_QUEUE": queue, "PYTHONPATH": str(ROOT)},
            stdout=log.open("wb"), stderr=subprocess.STDOUT)
        wait(lambda: "ready" in log.read_text(errors="replace"), 60, "the worker")

        def sent() -> int:
            with svc.db.reading() as session:
                return session.scalar(select(func.count()).select_from(OutboxRow)
                                      .where(OutboxRow.status == "sent"))

        def release() -> float:
            """Hand the filled list to the worker in one step; returns the start time."""
            if redis.llen(queue):
                raise SystemExit(f"queue {queue} is not empty before the timing")
            started = time.monotonic()
            redis.rename(filling, queue)
            return started
        # Warm-up, untimed: a worker compiles its templates and fills its caches once in its
        # life; neither the baseline nor the mail should pay that inside the timing.
        warm_events, events = events[:args.warm], events[args.warm:]
        warm = sent() + sum(len(event) for event in warm_events)
        live = CeleryDispatcher(env["CHASQUI_REDIS_URL"], queue)
        for event in warm_events:
            live(event)
        wait(lambda: sent() >= warm, 120, "the warm-up mail")
        sink.count = 0

        client = Celery("bench", broker=env["CHASQUI_REDIS_URL"], set_as_current=False)
        done_before = len(warm_events)  # tasks the log shows as succeeded so far

        def noop() -> tuple[float, float | None]:
            for i in range(args.noop):
                client.send_task("celery.accumulate", args=[i], queue=filling)
            cpu_ready = tree_cpu_seconds(worker.pid)
            started = release()
            ended = wait(lambda: log.read_text(errors="replace").count("succeeded") >= args.noop
                         + done_before, 300, "the no-op tasks")
            cpu_done = tree_cpu_seconds(worker.pid)
            return args.noop / (ended - started), _per(cpu_ready, cpu_done, args.noop)

        def mail() -> tuple[float, float | None]:
            filler = CeleryDispatcher(env["CHASQUI_REDIS_URL"], filling)
            for event in events:
                filler(event)
            cpu_before_mail = tree_cpu_seconds(worker.pid)
            started = release()
            # The relay's count first (free: it is this process's), then the rows marked sent,
            # polled more slowly: a COUNT every 10 ms took PostgreSQL CPU from the worker on a
            # small host, which the no-op baseline (watching the log) never paid.
            wait(lambda: sink.count >= mails, 600, "the relay")
            ended = wait(lambda: sent() >= warm + mails, 600, "the mail", pause=0.005)
            cpu_mail = tree_cpu_seconds(worker.pid)
            assert sink.count >= mails
            return mails / (ended - started), _per(cpu_before_mail, cpu_mail, mails)

        mails = sum(len(event) for event in events)
        if mail_first:  # a host that speeds up or slows down during a run favours neither
            mail_rate, cpu_mail = mail()
            done_before += len(events)
            noop_rate, cpu_noop = noop()
        else:
            noop_rate, cpu_noop = noop()
            mail_rate, cpu_mail = mail()
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(20)
        redis.delete(queue, filling)
        log.unlink(missing_ok=True)
    return {"noop_rate": noop_rate, "mail_rate": mail_rate, "mails": mails,
            "cpu_noop": cpu_noop, "cpu_mail": cpu_mail}


def _per(before: float | None, after: float | None, count: int) -> float | None:
    """CPU seconds per task between two readings; None when either could not be read."""
    return None if before is None or after is None else (after - before) / count


if __name__ == "__main__":
    main()
