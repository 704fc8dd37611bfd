"""After commit: hand the new outbox rows to whoever delivers them.

With Redis configured, each row id becomes a Celery task by name (the service never imports
the workers: imports go workers → service only).  A broker outage is logged and ignored: the
rows are committed, and the beat sweep delivers them once the broker is back.  Without Redis
(the embedded default) rows are delivered in-process, right away."""
from __future__ import annotations

import logging
from typing import Callable, Iterable

log = logging.getLogger(__name__)

DELIVER_TASK = "chasqui.deliver"


class CeleryDispatcher:
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

    def __call__(self, outbox_ids: Iterable[int]) -> None:
        outbox_ids = list(outbox_ids)
        for done, outbox_id in enumerate(outbox_ids):
            try:
                self.client.send_task(DELIVER_TASK, args=[outbox_id], queue=self.queue,
                                      retry=False)
            except Exception as error:  # noqa: BLE001  the sweep will deliver it
                # Give up on the rest of this batch at the first failure: a hung broker costs
                # one socket time-out per request, not one per mail (a new game owes 4-5).
                log.warning("could not queue outbox %s (%s); the sweep will deliver %s",
                            outbox_id, error, outbox_ids[done:])
                return


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
