"""With a Redis broker a commit's outbox rows become one Celery task, sent by name with
``send_task`` on the configured queue (the mail tests here run a real worker on it); a dead
broker costs one short time-out, logged, never an error."""
from __future__ import annotations

import base64
import json
import secrets
import time

import pytest
import redis

from service.mail.dispatch import DELIVER_MANY_TASK, DELIVER_WEBHOOKS_TASK, CeleryDispatcher

pytestmark = pytest.mark.integration

PER_TASK = {"id", "root_id", "correlation_id", "delivery_tag", "origin", "reply_to"}


def _stored(client: redis.Redis, queue: str) -> dict:
    message = json.loads(client.rpop(queue))
    message["body"] = json.loads(base64.b64decode(message["body"]))
    for part in (message, message["headers"], message["properties"]):
        for key in PER_TASK & set(part):
            part[key] = "*"
    return message


def test_a_commits_rows_are_one_deliver_many_task_on_the_configured_queue(redis_url):
    queue = f"chasqui-it-{secrets.token_hex(4)}"
    client = redis.Redis.from_url(redis_url)
    dispatcher = CeleryDispatcher(redis_url, queue)
    try:
        dispatcher([3, 4, 5])
        message = _stored(client, queue)
        assert message["headers"]["task"] == DELIVER_MANY_TASK
        assert message["body"][0] == [[3, 4, 5]] and client.llen(queue) == 0
    finally:
        client.delete(queue)


def test_a_commits_webhook_posts_are_one_deliver_webhooks_task_beside_its_mail(redis_url):
    """The posts are handed over apart from the mail, in the payload the workers take
    (a list of post ids), so a task queued by an older web process is handled the same."""
    queue = f"chasqui-it-{secrets.token_hex(4)}"
    client = redis.Redis.from_url(redis_url)
    dispatcher = CeleryDispatcher(redis_url, queue)
    try:
        dispatcher([3, 4], [7, 8])
        posts, mail = _stored(client, queue), _stored(client, queue)
        assert (posts["headers"]["task"], posts["body"][0]) == (DELIVER_WEBHOOKS_TASK, [[7, 8]])
        assert (mail["headers"]["task"], mail["body"][0]) == (DELIVER_MANY_TASK, [[3, 4]])
        assert client.llen(queue) == 0
    finally:
        client.delete(queue)


def test_an_unreachable_broker_costs_one_short_attempt_and_raises_nothing():
    dispatcher = CeleryDispatcher("redis://127.0.0.1:1/0", "chasqui-nowhere")
    started = time.monotonic()
    dispatcher(list(range(1, 100)))  # three batches: logged once, the sweep delivers them
    assert time.monotonic() - started < 2.5
