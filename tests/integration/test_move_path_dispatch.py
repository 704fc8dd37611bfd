"""With a Redis broker the dispatcher pushes the task message itself (one LPUSH)
instead of publishing through Celery.  The message must be the one ``send_task`` stores, so
the worker runs it the same way (the mail tests here run a real worker on it), and a dead
broker must still cost one short time-out, logged, never an error."""
from __future__ import annotations

import base64
import json
import secrets
import time

import pytest
import redis

from service.mail.dispatch import DELIVER_MANY_TASK, CeleryDispatcher

pytestmark = pytest.mark.integration

PER_TASK = {"id", "root_id", "correlation_id", "delivery_tag", "origin", "reply_to"}


def _stored(client: redis.Redis, queue: str) -> dict:
    message = json.loads(client.rpop(queue))
    message["body"] = json.loads(base64.b64decode(message["body"]))
    for part in (message, message["headers"], message["properties"]):
        for key in PER_TASK & set(part):
            part[key] = "*"
    return message


def test_the_pushed_message_is_the_one_celery_would_have_queued(redis_url):
    queue = f"chasqui-it-{secrets.token_hex(4)}"
    client = redis.Redis.from_url(redis_url)
    dispatcher = CeleryDispatcher(redis_url, queue)
    try:
        dispatcher([3, 4, 5])
        pushed = _stored(client, queue)
        dispatcher.client.send_task(DELIVER_MANY_TASK, args=[[3, 4, 5]], queue=queue, retry=False)
        published = _stored(client, queue)
        assert pushed == published
        assert pushed["body"][0] == [[3, 4, 5]] and client.llen(queue) == 0
    finally:
        client.delete(queue)


def test_an_unreachable_broker_costs_one_short_attempt_and_raises_nothing():
    dispatcher = CeleryDispatcher("redis://127.0.0.1:1/0", "chasqui-nowhere")
    started = time.monotonic()
    dispatcher(list(range(1, 100)))  # three batches: logged once, the sweep delivers them
    assert time.monotonic() - started < 2.5
