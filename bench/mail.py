"""Mail throughput: outbox rows rendered and delivered per second by one Celery worker, against
the same worker's rate for a no-op task (baseline, same run).

A throwaway PostgreSQL database gets G Incan Gold games (4 start mails each, left in the
outbox); one ``celery worker --pool=solo`` (as in the integration tests) on a throwaway queue
of the machine's Redis first drains N no-op tasks (Celery's built-in ``celery.accumulate``),
then the mail, dispatched as the web process does it after each game's commit (one
``chasqui.deliver_many`` task per game since issue 9's batching; one ``chasqui.deliver`` task
per row before): a task locks its rows, replays the game to their seq, renders text + HTML
from templates and sends by SMTP to a local aiosmtpd that accepts everything.  The mail of
``--warm`` more games is sent first, untimed (a worker compiles its templates and fills its
caches once in its life); besides the wall-clock rates, the worker's own CPU per no-op task and
per mail (Linux ``/proc``) is printed: on a shared host it is the steadier figure.

    python -m bench.mail [--games 100] [--noop 1000] [--warm 3]
"""
from __future__ import annotations

import argparse
import logging
import os
import platform
import secrets
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from aiosmtpd.controller import Controller
from sqlalchemy import func, select

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


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU the process has used (Linux ``/proc``; None elsewhere).  On a shared,
    busy host the wall-clock rates swing with everyone else's load; the worker's own CPU per
    task is the steadier figure of what a mail costs it."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--noop", type=int, default=1000)
    parser.add_argument("--warm", type=int, default=3,
                        help="games whose mail is sent before timing (templates compiled)")
    args = parser.parse_args()

    import redis as redis_lib
    from celery import Celery

    from bench.http import free_port
    from service.app import create_app
    from service.config import from_env
    from service.games import create_game
    from service.models import OutboxRow
    from tests.services_available import fresh_postgres_database, redis_url

    url, drop = fresh_postgres_database()
    broker = redis_url()
    queue = f"chasqui-bench-{secrets.token_hex(4)}"
    sink = Accept()
    smtp_port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    env = {"CHASQUI_DATABASE_URL": url, "CHASQUI_REDIS_URL": broker, "CHASQUI_QUEUE": queue,
           "CHASQUI_SMTP_URL": f"smtp://127.0.0.1:{smtp_port}",
           "CHASQUI_BASE_URL": "http://bench.test", "CHASQUI_SECRET_KEY": "bench"}
    app = create_app(from_env(env), upgrade=True)
    # The sink is the bench's, not the system's: its five INFO lines per mail cost the host CPU
    # the worker needs (the bench process shares the machine with the worker and PostgreSQL).
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    svc = app.extensions["chasqui"]
    worker = None
    log = Path(f"/tmp/{queue}.log")
    try:
        ids: list[int] = []
        events: list[list[int]] = []  # one dispatch per commit, as the web process does
        for g in range(args.warm + args.games):
            with svc.db.unit_of_work() as session:
                _, outcome = create_game(session, "incan_gold", [
                    {"name": f"P{i}", "email": f"p{i}@bench.test"} for i in range(4)],
                    g, {}, "admin", svc.clock(), svc.settings.mail_domain)
            ids += outcome.outbox_ids
            events.append(list(outcome.outbox_ids))
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "--pool=solo",
             "--loglevel=INFO", "-Q", queue, "--without-heartbeat", "--without-gossip",
             "--without-mingle"],
            cwd=ROOT, env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
            stdout=log.open("wb"), stderr=subprocess.STDOUT)
        wait(lambda: "ready" in log.read_text(errors="replace"), 60, "the worker")
        client = Celery("bench", broker=broker, set_as_current=False)

        def sent() -> int:
            with svc.db.reading() as session:
                return session.scalar(select(func.count()).select_from(OutboxRow)
                                      .where(OutboxRow.status == "sent"))
        # Warm-up, untimed: a worker compiles its templates and fills its caches once in its
        # life; neither the baseline nor the mail should pay that inside the timing.
        warm = sum(len(event) for event in events[:args.warm])
        for event in events[:args.warm]:
            svc.dispatch(event)
        wait(lambda: sent() >= warm, 120, "the warm-up mail")
        ids, events = ids[warm:], events[args.warm:]
        sink.count = 0

        cpu_ready = cpu_seconds(worker.pid)
        started = time.monotonic()
        for i in range(args.noop):
            client.send_task("celery.accumulate", args=[i], queue=queue)
        ended = wait(lambda: log.read_text(errors="replace").count("succeeded") >= args.noop,
                     300, "the no-op tasks")
        noop_rate = args.noop / (ended - started)
        cpu_noop = cpu_seconds(worker.pid)
        started = time.monotonic()
        for event in events:
            svc.dispatch(event)
        # The relay's count first (free: it is this process's), then the rows marked sent,
        # polled more slowly: a COUNT every 10 ms took PostgreSQL CPU from the worker on a
        # small host, which the no-op baseline (watching the log) never paid.
        wait(lambda: sink.count >= len(ids), 600, "the relay")
        ended = wait(lambda: sent() >= warm + len(ids), 600, "the mail", pause=0.005)
        mail_rate = len(ids) / (ended - started)
        cpu_mail = cpu_seconds(worker.pid)
        assert sink.count >= len(ids)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(20)
        controller.stop()
        svc.db.engine.dispose()
        redis_lib.Redis.from_url(broker).delete(queue)
        drop()
        log.unlink(missing_ok=True)
    print(f"# mail  {platform.python_implementation()} {platform.python_version()}  "
          f"{os.cpu_count()} CPUs  {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC  "
          "one worker, --pool=solo, Redis broker, local aiosmtpd")
    print(f"no-op task (celery.accumulate)   {noop_rate:8.0f} tasks/s  ({args.noop} tasks)")
    print(f"render + deliver one mail        {mail_rate:8.0f} mails/s  ({len(ids)} mails)")
    print(f"ratio: mails/s = {mail_rate / noop_rate:.2f} x no-op tasks/s "
          f"({1e3 / mail_rate:.1f} ms per mail vs {1e3 / noop_rate:.1f} ms per no-op task)")
    if None not in (cpu_ready, cpu_noop, cpu_mail):
        per_noop = (cpu_noop - cpu_ready) / args.noop
        per_mail = (cpu_mail - cpu_noop) / len(ids)
        print(f"worker CPU: {per_mail * 1e3:.2f} ms per mail vs {per_noop * 1e3:.2f} ms per "
              f"no-op task (CPU ratio {per_noop / per_mail:.2f} x)")


if __name__ == "__main__":
    main()
