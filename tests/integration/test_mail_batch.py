"""Mail in batches with a real worker, broker, database and relay: one task carries
one event's mails, and a worker killed in the middle of a batch loses no mail and changes
none (the batch's rows stay pending; the sweep sends them again, the same bytes)."""
from __future__ import annotations

import pytest

from tests.integration.conftest import Worker
from tests.integration.test_faults import (all_sent_once_each, create_game, kill_mid_send,
                                           outbox, sweep, wait_until)

pytestmark = pytest.mark.integration


def test_a_worker_delivers_one_events_mails_with_one_task(app, env, smtp, tmp_path):
    log = tmp_path / "worker.log"
    worker = Worker(env, log).start()
    try:
        game_id, _ = create_game(app.test_client(), players=5)
        smtp.sink.wait_for(lambda: len(smtp.sink.received()) == 5, what="the five start mails")
        wait_until(lambda: all(r.status == "sent" for r in outbox(app, game_id)), 30,
                   "the rows to be marked sent")
        wait_until(lambda: "succeeded" in log.read_text(errors="replace"), 60, "the task's end")
    finally:
        worker.stop()
    text = log.read_text(errors="replace")
    assert text.count("chasqui.deliver_many[") == 2, "received and succeeded, once"
    assert "chasqui.deliver[" not in text
    assert "5 sent" in text
    all_sent_once_each(app, smtp.sink, game_id)


def test_killing_the_worker_mid_batch_leaves_the_batch_to_the_sweep_unchanged(
        app, env, smtp, tmp_path):
    """The relay keeps the message, then waits before its 250: the kill lands after the relay
    has a mail of the batch but before the worker marked anything sent."""
    smtp.sink.delay = 3.0
    workers = []
    try:
        workers.append(Worker(env, tmp_path / "worker-0.log").start())
        game_id, _ = create_game(app.test_client())
        killed = kill_mid_send(workers[0], smtp.sink)
        rows = outbox(app, game_id)
        assert killed in {r.message_id for r in rows}
        assert all(r.status == "pending" and r.sent_at is None and r.attempts == 0 for r in rows)

        smtp.sink.delay = 0
        workers.append(Worker(env, tmp_path / "worker-1.log").start())
        assert set(sweep(app)) == {r.id for r in rows}  # what the beat does every minute
        wait_until(lambda: all(r.status == "sent" for r in outbox(app, game_id)), 60,
                   "every row of the killed batch to be sent")
    finally:
        for worker in workers:
            worker.stop()
    all_sent_once_each(app, smtp.sink, game_id)
    assert killed in smtp.sink.duplicates(), "the killed send reached the relay and was repeated"
