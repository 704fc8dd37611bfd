"""After commit: hand the new outbox rows to whoever delivers them.

With Redis configured, the rows of one commit (one event's mails) become one Celery task by
name, ``chasqui.deliver_many`` (the service never imports the workers: imports go workers →
service only): one task, one transaction and one replay for all of them, where a task per
row cost a broker round trip and a lock transaction per mail.  ``chasqui.deliver`` (one row,
and the due rows of its (game, seq) with it) stays for tasks queued before and for the sweep.
A broker outage is logged and ignored: the rows are committed, and the beat sweep delivers
them once the broker is back.  Without Redis (the embedded default) rows are delivered
in-process, right away.

A command hands over its mail's outbox ids and its webhook post ids apart
(``application.games.Owed``); the posts go to the webhook delivery
(``chasqui.deliver_webhooks``, or in-process)."""
from __future__ import annotations

import logging
from typing import Callable, Iterable

log = logging.getLogger(__name__)

DELIVER_TASK = "chasqui.deliver"
DELIVER_MANY_TASK = "chasqui.deliver_many"
DELIVER_WEBHOOKS_TASK = "chasqui.deliver_webhooks"
# One task holds its rows' locks while it sends them all: a bound keeps one task short (a
# sweep may hand over hundreds of rows) and lets another worker take the next batch.
BATCH = 32


def batches(outbox_ids: Iterable[int], size: int = BATCH) -> list[list[int]]:
    ids = list(outbox_ids)
    return [ids[start:start + size] for start in range(0, len(ids), size)]


class CeleryDispatcher:
    """Queues ``chasqui.deliver_many`` tasks with Celery's ``send_task``.  ``client``: one
    Celery app per dispatcher, kept for the process's life, so its producer pool keeps the
    broker connection between commits; other senders use it too (the account mailer).

    The broker is asked with short time-outs and no retry, so an outage costs a request one
    short attempt, logged, not raised."""

    def __init__(self, broker_url: str, queue: str):
        from celery import Celery

        self.queue = queue
        self.client = Celery("chasqui-client", broker=broker_url, set_as_current=False)
        self.client.conf.update(
            broker_connection_retry=False,
            broker_connection_retry_on_startup=False,
            broker_connection_timeout=2,
            broker_transport_options={"socket_timeout": 2, "socket_connect_timeout": 2,
                                      "max_retries": 0},
        )

    def __call__(self, outbox_ids: Iterable[int], post_ids: Iterable[int] = ()) -> None:
        outbox_ids, posts = list(outbox_ids), list(post_ids)
        if posts:
            try:
                self.client.send_task(DELIVER_WEBHOOKS_TASK, args=[posts], queue=self.queue,
                                      retry=False)
            except Exception as error:  # noqa: BLE001  the sweep will deliver them
                log.warning("could not queue webhook posts %s (%s); the sweep will", posts, error)
        for batch in batches(outbox_ids):
            try:
                self.client.send_task(DELIVER_MANY_TASK, args=[batch], queue=self.queue,
                                      retry=False)
            except Exception as error:  # noqa: BLE001  the sweep will deliver it
                # Give up on the rest at the first failure: a hung broker costs one socket
                # time-out per request, not one per batch.
                log.warning("could not queue outbox %s (%s); the sweep will deliver %s",
                            batch, error, outbox_ids[outbox_ids.index(batch[0]):])
                return


class InlineDispatcher:
    """The embedded default: deliver now, in this process; failures stay pending."""

    def __init__(self, deliver: Callable[[int], str],
                 deliver_post: Callable[[int], str] | None = None):
        self.deliver, self.deliver_post = deliver, deliver_post

    def __call__(self, outbox_ids: Iterable[int], post_ids: Iterable[int] = ()) -> None:
        for outbox_id in outbox_ids:
            try:
                self.deliver(outbox_id)
            except Exception:  # noqa: BLE001  a mail problem must never undo a move
                log.exception("in-process delivery of outbox %s failed; left pending", outbox_id)
        for post_id in post_ids if self.deliver_post is not None else ():
            try:
                self.deliver_post(post_id)
            except Exception:  # noqa: BLE001  nor a channel's
                log.exception("in-process webhook post %s failed; left pending", post_id)
