"""A real local HTTP receiver for webhook posts, and helpers shared by the webhook tests.
No tests in here."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sqlalchemy import select

from service.application import webhooks as channel
from service.store.models import WebhookDeliveryRow, WebhookRow
from service.web.extensions import services
from tests.conftest import make_settings, migrated_app


class Receiver:
    """An http.server on 127.0.0.1 in a thread: records every POST (path, headers, body) and
    answers the next status of ``answers`` (204 once they run out).  A post is recorded
    before its answer is sent, and a delivery waits for the answer, so a test reads the
    record right after the delivery returns: no waiting."""

    def __init__(self):
        self.posts: list[dict] = []
        self.answers: list[int] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.posts.append({"path": self.path, "headers": dict(self.headers),
                                       "body": body})
                status = receiver.answers.pop(0) if receiver.answers else 204
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # shutdown() waits for serve_forever to look at its flag, once per poll interval
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,),
                                       daemon=True)
        self.thread.start()

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def bodies(self, path: str | None = None) -> list[dict]:
        return [json.loads(p["body"]) for p in self.posts if path is None or p["path"] == path]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    found = Receiver()
    yield found
    found.close()


@pytest.fixture
def app(tmp_path, clock):
    """The app with the receiver's host on the operator's http allow-list."""
    app = migrated_app(make_settings(tmp_path, CHASQUI_WEBHOOK_HTTP_HOSTS="127.0.0.1"),
                       clock=clock)
    app.config["TESTING"] = True
    yield app
    services(app).db.dispose()


def add_hook(app, game_id: str, url: str, style: str = "json", talk: bool = False,
             by: str = channel.ORGANISER):
    """Add a hook as its page would; returns (hook id, secret or None)."""
    svc = services(app)
    with svc.db.unit_of_work() as session:
        hook, secret = channel.add(session, svc.settings, game_id, style, url, talk, "en", by,
                                   svc.clock())
        return hook.id, secret


def posts_of(app, hook_id: int) -> list[WebhookDeliveryRow]:
    with services(app).db.reading() as session:
        return list(session.scalars(select(WebhookDeliveryRow)
                                    .where(WebhookDeliveryRow.hook_id == hook_id)
                                    .order_by(WebhookDeliveryRow.id)))


def hook_row(app, hook_id: int) -> WebhookRow:
    with services(app).db.reading() as session:
        return session.get(WebhookRow, hook_id)


def move(client, secret: str, kind: str = "stay") -> dict:
    seq = client.get(f"/api/play/{secret}").get_json()["seq"]
    response = client.post(f"/api/play/{secret}", json={"action": {"type": kind}, "seq": seq})
    assert response.status_code == 200, response.get_json()
    return response.get_json()
