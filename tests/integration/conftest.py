"""Integration fixtures: the real PostgreSQL and Redis of this machine, a real Celery worker
process and a real SMTP server.  Under CI=true a missing service fails; elsewhere it skips."""
from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import migrated_app
from tests.services_available import truncate_all

from service.core.config import from_env
from tests.integration.smtp_sink import SmtpServer
from tests.services_available import redis_url as reachable_redis
from service.web.extensions import services

ROOT = Path(__file__).resolve().parents[2]
ADMIN = "it-admin-token"


@pytest.fixture(scope="session")
def redis_url():
    return reachable_redis()


@pytest.fixture
def smtp():
    with SmtpServer() as server:
        yield server


@pytest.fixture
def env(postgres_url, redis_url, smtp):
    """The environment a deployed process would get (one queue name per test)."""
    return {
        "CHASQUI_DATABASE_URL": postgres_url,
        "CHASQUI_REDIS_URL": redis_url,
        "CHASQUI_SMTP_URL": smtp.url,
        "CHASQUI_BASE_URL": "http://chasqui.it",
        "CHASQUI_SECRET_KEY": "integration-secret",
        "CHASQUI_ADMIN_TOKEN": ADMIN,
        "CHASQUI_QUEUE": f"chasqui-it-{secrets.token_hex(4)}",
    }


@pytest.fixture
def app(env):
    app = migrated_app(from_env(env))
    yield app
    db = services(app).db
    with db.engine.begin() as conn:
        truncate_all(conn)
    db.dispose()


def stop_process(process: subprocess.Popen | None) -> None:
    """Terminate a test's subprocess, killing it if it does not stop within 20 s."""
    if process and process.poll() is None:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


class Worker:
    """A real ``celery worker`` process, as the Procfile runs it."""

    def __init__(self, env: dict, log: Path):
        self.env = {**os.environ, **env, "PYTHONPATH": str(ROOT)}
        self.log = log
        self.process: subprocess.Popen | None = None

    def start(self):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "--pool=solo",
             "--loglevel=INFO", "-Q", self.env["CHASQUI_QUEUE"], "--without-heartbeat",
             "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=self.env, stdout=self.log.open("ab"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if "ready" in self.log.read_text(errors="replace"):
                return self
            if self.process.poll() is not None:
                raise AssertionError("worker died:\n" + self.log.read_text(errors="replace")[-3000:])
            time.sleep(0.2)
        raise AssertionError("worker did not start:\n" + self.log.read_text(errors="replace")[-3000:])

    def kill(self, sig=9):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(30)

    def stop(self):
        stop_process(self.process)


@pytest.fixture
def worker(env, tmp_path):
    w = Worker(env, tmp_path / "worker.log")
    w.start()
    yield w
    w.stop()
