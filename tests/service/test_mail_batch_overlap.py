"""With an SMTP relay, a batch builds its next mail while the relay answers
the previous one.  The mails still go one at a time and in order, a row is marked only from its
own send's answer, after it came, and a relay that is unwell still stops the batch before the
next mail goes out."""
from __future__ import annotations

import queue
import threading
import time

import pytest

from service.mail import delivery
from service.mail.delivery import backoff
from service.store.loading import load
from service.mail.compose import build_message
from service.store.events import utc
from service.mail.transport import PermanentFailure, TemporaryFailure
from tests.service.test_mail_batch import Relay, delivered, flattened, queued, rows, svc  # noqa: F401  (queued: a fixture)


class OverlappingRelay(Relay):
    """A relay a batch may talk to from another thread, as it does to ``SmtpTransport``;
    it notes when each send starts and ends, and from which thread."""

    overlapping = True

    def __init__(self, answers=None, slow: float = 0.0):
        super().__init__(answers)
        self.slow = slow
        self.timeline: list[tuple] = []
        self.threads: set[str] = set()
        self.lock = threading.Lock()

    def send(self, message, session=None, now=None):
        assert session is None, "a send in another thread must not touch the session"
        mid = message["Message-ID"]
        with self.lock:
            self.timeline.append(("send", mid))
            self.threads.add(threading.current_thread().name)
        time.sleep(self.slow)
        try:
            super().send(message, session, now)
        finally:
            with self.lock:
                self.timeline.append(("answered", mid))


def test_an_overlapped_batch_sends_in_order_from_one_thread_and_marks_each_row_after_its_answer(
        app, new_game, queued, clock, monkeypatch):
    new_game(players=4, clock={"per_decision_hours": 24, "bank_max_hours": 72})
    [batch] = queued
    relay = OverlappingRelay(slow=0.05)
    real_noted = delivery._noted  # where a batch records each send's outcome

    def noted_record(row, outcome, now):
        with relay.lock:
            relay.timeline.append(("marked", row.message_id))
        return real_noted(row, outcome, now)
    monkeypatch.setattr(delivery, "_noted", noted_record)
    statuses = delivered(app, batch, clock(), relay)
    assert list(statuses.values()) == ["sent"] * 4
    assert len(relay.threads) == 1 and threading.current_thread().name not in relay.threads
    mids = [r.message_id for r in rows(app)]
    assert [mid for what, mid in relay.timeline if what == "send"] == mids
    for mid in mids:
        answered = relay.timeline.index(("answered", mid))
        assert relay.timeline.index(("marked", mid)) > answered
    for earlier, later in zip(mids, mids[1:]):  # one mail at a time on the wire
        assert relay.timeline.index(("answered", earlier)) < relay.timeline.index(("send", later))
    with app.app_context(), svc(app).db.reading() as session:  # the bytes of a mail built alone
        for row in rows(app):
            loaded = load(session, row.game_id, upto=row.seq)
            row = session.merge(row)
            assert flattened(build_message(svc(app).settings, loaded, row)) == relay.sent[
                row.message_id]


def test_an_overlapped_batch_stops_at_a_temporary_failure_before_the_next_mail_goes_out(
        app, new_game, queued, clock):
    new_game(players=4)
    [batch] = queued
    relay = OverlappingRelay({2: TemporaryFailure("451 4.3.0 try again later")})
    statuses = delivered(app, batch, clock(), relay)
    first, second, *untried = rows(app)
    assert statuses[first.id] == first.status == "sent" and first.attempts == 1
    assert statuses[second.id] == second.status == "pending" and second.attempts == 1
    assert utc(second.next_attempt_at) == clock() + backoff(1)
    assert all(r.status == "pending" and r.attempts == 0 for r in untried)
    assert relay.tries == 2, "the third mail was built, but never handed to the relay"


def test_an_overlapped_batch_records_a_bounce_and_goes_on(app, new_game, queued, clock):
    new_game(players=3)
    [batch] = queued
    relay = OverlappingRelay({1: PermanentFailure("550 5.1.1 no such user")})
    statuses = delivered(app, batch, clock(), relay)
    assert list(statuses.values()) == ["bounced", "sent", "sent"]
    assert [r.attempts for r in rows(app)] == [1, 1, 1]


def test_a_relay_error_of_no_known_kind_leaves_the_whole_batch_pending(
        app, new_game, queued, clock):
    new_game(players=3)
    [batch] = queued
    relay = OverlappingRelay({2: RuntimeError("the relay library broke")})
    with pytest.raises(RuntimeError):  # it must reach the task, which is then retried
        delivered(app, batch, clock(), relay)
    assert [(r.status, r.attempts) for r in rows(app)] == [("pending", 0)] * 3


def test_the_sender_thread_outlives_an_error_and_sends_the_next_batch_in_a_batch_of_its_own(
        app, new_game, queued, clock):
    """The sends go to one thread through a plain queue; an error raised in
    it reaches its own batch only, and the same thread sends the next batch's mail."""
    new_game(players=3)
    new_game(players=4)
    broken, healthy = queued
    failing = OverlappingRelay({2: RuntimeError("the relay library broke")})
    with pytest.raises(RuntimeError):
        delivered(app, broken, clock(), failing)
    relay = OverlappingRelay()
    assert list(delivered(app, healthy, clock(), relay).values()) == ["sent"] * 4
    assert relay.threads == failing.threads and len(relay.threads) == 1
    assert [(r.status, r.attempts) for r in rows(app, broken)] == [("pending", 0)] * 3
    assert [mid for what, mid in relay.timeline if what == "send"] == [
        r.message_id for r in rows(app, healthy)]


def test_a_forked_process_gets_a_sender_thread_of_its_own(monkeypatch):
    """A child forked after its parent made the sender thread has no such
    thread; its first batch must make its own rather than queue sends nobody takes."""
    parents = delivery._sender()
    assert delivery._sender() is parents
    monkeypatch.setattr(delivery, "_SENDER", delivery._SENDER)  # the parent's, afterwards
    monkeypatch.setattr(delivery.os, "getpid", lambda: -1)  # as seen from a forked child
    childs = delivery._sender()
    assert childs is not parents and delivery._sender() is childs
    answers = queue.SimpleQueue()
    childs.put((answers, OverlappingRelay(), "not a message", None))
    outcome, error = answers.get(timeout=60)  # a thread took it (and the relay refused it)
    assert outcome is None and error is not None
