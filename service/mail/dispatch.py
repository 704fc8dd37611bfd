"""After commit: hand the new outbox rows to whoever delivers them.

With Redis configured, the rows of one commit (one event's mails) become one Celery task by
name, ``chasqui.deliver_many`` (the service never imports the workers: imports go workers →
service only): one task, one transaction and one replay for all of them, where a task per
row cost a broker round trip and a lock transaction per mail (issue 9).  ``chasqui.deliver``
(one row, and the due rows of its (game, seq) with it) stays for tasks queued before and for
the sweep.  A broker outage is logged and ignored: the rows are committed, and the beat sweep
delivers them once the broker is back.  Without Redis (the embedded default) rows are
delivered in-process, right away."""
from __future__ import annotations

import base64
import json
import logging
import os
import socket
import uuid
from typing import Callable, Iterable

log = logging.getLogger(__name__)

DELIVER_TASK = "chasqui.deliver"
DELIVER_MANY_TASK = "chasqui.deliver_many"
# One task holds its rows' locks while it sends them all: a bound keeps one task short (a
# sweep may hand over hundreds of rows) and lets another worker take the next batch.
BATCH = 32


def batches(outbox_ids: Iterable[int], size: int = BATCH) -> list[list[int]]:
    ids = list(outbox_ids)
    return [ids[start:start + size] for start in range(0, len(ids), size)]


class CeleryDispatcher:
    """Queues ``chasqui.deliver_many`` tasks.  ``client`` is a Celery app (``send_task``: also
    used by other senders, e.g. the account mailer).

    With a ``redis://`` broker, the task message is pushed to the queue's Redis list directly
    (``_push``), which is what kombu's Redis transport does for a task routed by queue name:
    one LPUSH of the message envelope on the key named after the queue (priority 0).  Through
    ``send_task`` the same publish cost ~1-1.5 ms of CPU (producer pool, a new Redis client
    object per publish, the routing and header machinery); the LPUSH ~0.1 ms.  The message is
    Celery's task protocol 2 (headers, a ``[args, kwargs, embed]`` body; JSON, base64 in the
    envelope as kombu writes it), so the worker consumes it exactly like one ``send_task`` made
    (``tests/integration``: the mail tests run a real worker).  The Redis client has the same
    2 s socket and connect time-outs and no retry, so a broker outage still costs a request
    one short time-out and is logged, not raised.  Other broker URLs use ``send_task``."""

    def __init__(self, redis_url: str, queue: str):
        from celery import Celery

        self.queue = queue
        self.client = Celery("chasqui-client", broker=redis_url, set_as_current=False)
        self.client.conf.update(
            broker_connection_retry=False,
            broker_connection_retry_on_startup=False,
            broker_connection_timeout=2,
            broker_transport_options={"socket_timeout": 2, "socket_connect_timeout": 2,
                                      "max_retries": 0},
        )
        if redis_url.startswith(("redis://", "rediss://")):
            import redis
            from redis.retry import Retry
            from redis.backoff import NoBackoff

            self.redis = redis.Redis.from_url(redis_url, socket_timeout=2,
                                              socket_connect_timeout=2,
                                              retry=Retry(NoBackoff(), 0))
            self.origin = f"chasqui-web@{socket.gethostname()}:{os.getpid()}"
            self._send = self._push

    def _send(self, batch: list[int]) -> None:
        """Through Celery's publisher (any broker)."""
        self.client.send_task(DELIVER_MANY_TASK, args=[batch], queue=self.queue, retry=False)

    def _push(self, batch: list[int]) -> None:
        self.redis.lpush(self.queue, task_message(DELIVER_MANY_TASK, [batch], self.queue,
                                                  self.origin))

    def __call__(self, outbox_ids: Iterable[int]) -> None:
        outbox_ids = list(outbox_ids)
        for batch in batches(outbox_ids):
            try:
                self._send(batch)
            except Exception as error:  # noqa: BLE001  the sweep will deliver it
                # Give up on the rest at the first failure: a hung broker costs one socket
                # time-out per request, not one per batch.
                log.warning("could not queue outbox %s (%s); the sweep will deliver %s",
                            batch, error, outbox_ids[outbox_ids.index(batch[0]):])
                return


_EMBED = {"callbacks": None, "errbacks": None, "chain": None, "chord": None}


def task_message(name: str, args: list, queue: str, origin: str) -> bytes:
    """A Celery task message (protocol 2, JSON) in kombu's Redis envelope, routed to ``queue``
    with no exchange and priority 0: what ``send_task(name, args, queue=queue)`` stores."""
    task_id = str(uuid.uuid4())
    body = json.dumps([args, {}, _EMBED]).encode()
    return json.dumps({
        "body": base64.b64encode(body).decode(),
        "content-encoding": "utf-8",
        "content-type": "application/json",
        "headers": {
            "lang": "py", "task": name, "id": task_id, "shadow": None, "eta": None,
            "expires": None, "group": None, "group_index": None, "retries": 0,
            "timelimit": [None, None], "root_id": task_id, "parent_id": None,
            "argsrepr": repr(args), "kwargsrepr": "{}", "origin": origin,
            "ignore_result": None, "replaced_task_nesting": 0, "stamped_headers": None,
            "stamps": {},
        },
        "properties": {
            "correlation_id": task_id, "reply_to": None, "delivery_mode": 2,
            "delivery_info": {"exchange": "", "routing_key": queue}, "priority": 0,
            "body_encoding": "base64", "delivery_tag": str(uuid.uuid4()),
        },
    }).encode()


class InlineDispatcher:
    """The embedded default: deliver now, in this process; failures stay pending."""

    def __init__(self, deliver: Callable[[int], str]):
        self.deliver = deliver

    def __call__(self, outbox_ids: Iterable[int]) -> None:
        for outbox_id in outbox_ids:
            try:
                self.deliver(outbox_id)
            except Exception:  # noqa: BLE001  a mail problem must never undo a move
                log.exception("in-process delivery of outbox %s failed; left pending", outbox_id)
