"""With Redis and a real Celery worker process: a move's webhook post goes to the worker
(``chasqui.deliver_webhooks``), which posts it to the receiver (docs/webhooks.md)."""
from __future__ import annotations

import pytest

from service.application import webhooks as channel
from service.web.extensions import services
from tests.conftest import secret_from_url
from tests.integration.conftest import ADMIN
from tests.integration.test_faults import wait_until
from tests.service.webhook_kit import receiver  # noqa: F401

pytestmark = pytest.mark.integration


@pytest.fixture
def env(env):
    """The deployed processes' environment, with the receiver's host on the allow-list."""
    return {**env, "CHASQUI_WEBHOOK_HTTP_HOSTS": "127.0.0.1"}


def test_the_worker_posts_a_moves_webhook_to_the_receiver(app, worker, receiver):
    client = app.test_client()
    body = {"game": "incan_gold", "seed": 9,
            "players": [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(3)]}
    response = client.post("/api/games", json=body, headers={"Authorization": f"Bearer {ADMIN}"})
    assert response.status_code == 201, response.get_json()
    game_id = response.get_json()["id"]
    secrets = [secret_from_url(s["play_url"]) for s in response.get_json()["seats"]]
    svc = services(app)
    with svc.db.unit_of_work() as session:
        channel.add(session, svc.settings, game_id, "slack", receiver.url(), False, "en",
                    channel.ORGANISER, svc.clock())
    for secret in secrets:
        seq = client.get(f"/api/play/{secret}").get_json()["seq"]
        assert client.post(f"/api/play/{secret}",
                           json={"action": {"type": "stay"}, "seq": seq}).status_code == 200
    wait_until(lambda: receiver.posts, 60, "the worker's post")
    slack, = receiver.bodies()
    assert "Waiting for P0, P1, P2." in slack["text"]
