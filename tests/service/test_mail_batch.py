"""Mail in batches: the rows of one dispatch (one event's mails) are delivered by one
task, in one transaction with one replay per (game, seq), and each row ends exactly as a
delivery of its own would have left it."""
from __future__ import annotations

import email
import io
from email import policy
from datetime import timedelta
from email.generator import BytesGenerator

import pytest
from sqlalchemy import event, select

from service.mail import delivery
from service.mail.delivery import backoff, deliver, deliver_many, due_ids
from service.mail.dispatch import BATCH, DELIVER_MANY_TASK, CeleryDispatcher
from service.store.loading import load
from service.mail.compose import build_message
from service.store.models import MailPreferenceRow, OutboxRow
from service.store.events import utc
from service.mail.transport import PermanentFailure, TemporaryFailure
from service.web.extensions import services


def svc(app):
    return services(app)


def delivered(app, ids, now, relay) -> dict:
    """``deliver_many`` as the worker's task calls it: in an app context, with the app's
    database and settings; returns its statuses by outbox id."""
    with app.app_context():
        return deliver_many(svc(app).db, svc(app).settings, ids, now, relay)


def flattened(message) -> bytes:
    """What smtplib writes on the wire."""
    out = io.BytesIO()
    BytesGenerator(out).flatten(message, linesep="\r\n")
    return out.getvalue()


class Relay:
    """A transport that keeps what it was given; ``answers`` (by send number, from 1) make a
    send fail as a relay would."""

    def __init__(self, answers: dict | None = None):
        self.sent: dict[str, bytes] = {}
        self.tries = 0
        self.answers = answers or {}

    def send(self, message, session=None, now=None):
        self.tries += 1
        failure = self.answers.get(self.tries)
        if failure is not None:
            raise failure
        self.sent[message["Message-ID"]] = flattened(message)


@pytest.fixture
def queued(app):
    """The rows each commit hands over, kept instead of delivered."""
    batches: list[list[int]] = []
    svc(app).dispatch = lambda outbox_ids, post_ids=(): batches.append(list(outbox_ids))
    return batches


def rows(app, ids=None) -> list[OutboxRow]:
    with svc(app).db.reading() as session:
        query = select(OutboxRow).order_by(OutboxRow.id)
        if ids is not None:
            query = query.where(OutboxRow.id.in_(ids))
        return list(session.scalars(query))


def test_one_dispatch_is_one_batch_and_its_mails_are_the_bytes_of_one_by_one_delivery(
        app, client, new_game, queued, clock):
    new_game(players=4, clock={"per_decision_hours": 24, "bank_max_hours": 72})
    [start] = queued
    with svc(app).db.unit_of_work() as session:  # a time zone and a language of its own
        session.add(MailPreferenceRow(game_id=rows(app)[0].game_id, seat=1, mode="every",
                                      language="ja", timezone="Asia/Tokyo", updated_at=clock()))
    expected = {}
    with app.app_context(), svc(app).db.reading() as session:
        for row in session.scalars(select(OutboxRow).where(OutboxRow.id.in_(start))):
            loaded = load(session, row.game_id, upto=row.seq)
            expected[row.message_id] = flattened(build_message(svc(app).settings, loaded, row))
    relay = Relay()
    statuses = delivered(app, start, clock(), relay)
    assert statuses == {i: "sent" for i in start}
    assert relay.sent == expected
    seat_1 = email.message_from_bytes(relay.sent[rows(app)[1].message_id], policy=policy.default)
    assert " JST (" in seat_1.get_body(("plain",)).get_content(), "its own time zone, read in batch"
    assert all(r.status == "sent" and r.attempts == 1 and r.sent_at is not None for r in rows(app))


def test_a_batch_replays_each_game_once_and_its_statements_do_not_grow_with_its_rows(
        app, new_game, queued, clock, monkeypatch):
    new_game(players=3, seed=1)
    new_game(players=7, seed=2)
    small, large = queued
    loads = []
    real_load = delivery.load
    monkeypatch.setattr(delivery, "load", lambda *a, **k: loads.append(a[1]) or real_load(*a, **k))
    statements = []
    engine = svc(app).db.engine

    def count(*_args):
        statements.append(1)
    event.listen(engine, "before_cursor_execute", count)
    try:
        counts = []
        with app.app_context():
            for batch in (small, large):
                statements.clear()
                assert set(deliver_many(svc(app).db, svc(app).settings, batch, clock(),
                                        Relay()).values()) == {"sent"}
                counts.append(len(statements))
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(loads) == 2, "one replay per (game, seq)"
    assert counts[0] == counts[1], f"3 rows took {counts[0]} statements, 7 rows {counts[1]}"


def test_one_batch_may_hold_rows_of_several_games(app, new_game, queued, clock):
    new_game(players=3, seed=1)
    new_game(players=4, seed=2)
    relay = Relay()
    ids = [i for batch in queued for i in batch]
    assert delivered(app, ids, clock(), relay) == {i: "sent" for i in ids}
    assert set(relay.sent) == {r.message_id for r in rows(app)}


def test_a_temporary_failure_is_counted_on_its_row_and_the_untried_rows_wait_for_the_sweep(
        app, new_game, queued, clock):
    new_game(players=4)
    [batch] = queued
    relay = Relay({2: TemporaryFailure("451 4.3.0 try again later")})
    statuses = delivered(app, batch, clock(), relay)
    first, second, *untried = rows(app)
    assert statuses[first.id] == first.status == "sent"
    assert statuses[second.id] == second.status == "pending" and second.attempts == 1
    assert second.last_error.startswith("451")
    assert utc(second.next_attempt_at) == clock() + backoff(1)
    assert all(r.status == "pending" and r.attempts == 0 and r.last_error is None for r in untried)
    assert relay.tries == 2, "the relay is unwell: the rest of the batch is not tried"
    later = clock() + timedelta(seconds=61)
    assert due_ids(svc(app).db, later) == [r.id for r in untried]
    with app.app_context():  # the sweep's tasks: each row its own, as before batching
        for outbox_id in due_ids(svc(app).db, clock() + backoff(1) + timedelta(seconds=61)):
            deliver(svc(app).db, svc(app).settings, outbox_id, clock(), relay)
    assert all(r.status == "sent" for r in rows(app))


def test_a_bounce_is_recorded_on_its_row_and_the_batch_goes_on(app, new_game, queued, clock):
    new_game(players=3)
    [batch] = queued
    relay = Relay({1: PermanentFailure("550 5.1.1 no such user")})
    statuses = delivered(app, batch, clock(), relay)
    assert list(statuses.values()) == ["bounced", "sent", "sent"]
    bounced = rows(app)[0]
    assert bounced.attempts == 1 and bounced.last_error.startswith("550")


def test_rows_already_sent_or_gone_are_left_alone(app, new_game, queued, clock):
    new_game(players=3)
    [batch] = queued
    delivered(app, batch, clock(), Relay())
    relay = Relay()  # a task delivered twice (a redelivery after a lost ack)
    statuses = delivered(app, [*batch, 9999], clock(), relay)
    assert statuses == {**{i: "sent" for i in batch}, 9999: "locked-or-missing"}
    assert relay.tries == 0
    assert all(r.attempts == 1 for r in rows(app))


def test_a_mail_that_cannot_be_built_is_counted_on_its_own_row_and_the_others_go(
        app, new_game, queued, clock, monkeypatch):
    new_game(players=3)
    [batch] = queued
    real = delivery.build_message

    def broken_for_seat_1(settings, loaded, row, *args):
        if row.seat == 1:
            raise RuntimeError("a template bug")
        return real(settings, loaded, row, *args)
    monkeypatch.setattr(delivery, "build_message", broken_for_seat_1)
    statuses = delivered(app, batch, clock(), Relay())
    assert [statuses[i] for i in batch] == ["sent", "pending", "sent"]
    assert [r.attempts for r in rows(app)] == [1, 1, 1]
    broken = rows(app)[1]  # retried after the backoff, its error on the row for the admins
    assert utc(broken.next_attempt_at) == clock() + backoff(1)
    assert broken.last_error == "not sent: RuntimeError (the log has the details)"


def test_the_dispatcher_queues_one_task_per_batch():
    sent = []

    class Broker:
        def send_task(self, name, args, queue, retry):
            sent.append((name, args, queue))

    dispatcher = CeleryDispatcher.__new__(CeleryDispatcher)
    dispatcher.queue, dispatcher.client = "chasqui", Broker()
    dispatcher([5, 6, 7, 8])
    assert sent == [(DELIVER_MANY_TASK, [[5, 6, 7, 8]], "chasqui")]
    sent.clear()
    many = list(range(1, 2 * BATCH + 2))
    dispatcher(many)
    assert [args[0] for _, args, _ in sent] == [
        many[:BATCH], many[BATCH:2 * BATCH], many[2 * BATCH:]]
    sent.clear()
    dispatcher([])
    assert sent == []


def test_a_broker_outage_costs_the_dispatcher_one_try_for_all_its_batches():
    class Down:
        calls = 0

        def send_task(self, *args, **kwargs):
            Down.calls += 1
            raise ConnectionError("broker down")

    dispatcher = CeleryDispatcher.__new__(CeleryDispatcher)
    dispatcher.queue, dispatcher.client = "chasqui", Down()
    dispatcher(list(range(1, 3 * BATCH)))  # logged, not raised: the sweep delivers them
    assert Down.calls == 1


def test_the_rows_a_batch_sent_are_written_by_one_update_and_hold_the_written_values(
        app, new_game, queued, clock):
    """A send the relay took is only noted; ``_write_sent``'s one UPDATE
    writes every sent row (the commit's flush writes none of them again), and the rows'
    objects then hold what was written, with no change left for a flush."""
    new_game(players=4)
    [batch] = queued
    updates: list[str] = []
    engine = svc(app).db.engine

    def seen(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("UPDATE"):
            updates.append(statement)
    held: list[OutboxRow] = []
    real_write = delivery._write_sent

    def write(session, rows, now):
        real_write(session, rows, now)
        assert not any(session.is_modified(row) for row in rows)
        held.extend(rows)
    event.listen(engine, "before_cursor_execute", seen)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(delivery, "_write_sent", write)
            statuses = delivered(app, batch, clock(), Relay({2: PermanentFailure("550 no")}))
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert list(statuses.values()) == ["sent", "bounced", "sent", "sent"]
    # one UPDATE for the three sent rows, one (the flush's) for the bounce
    assert len(updates) == 2, updates
    stored = {r.id: r for r in rows(app, batch)}
    assert [r.id for r in held] == [batch[0], batch[2], batch[3]]
    for row in held:
        db_row = stored[row.id]
        assert (row.status, row.attempts, row.last_error) == ("sent", 1, None) == (
            db_row.status, db_row.attempts, db_row.last_error)
        assert utc(row.sent_at) == utc(db_row.sent_at) == clock()
    assert (stored[batch[1]].status, stored[batch[1]].attempts) == ("bounced", 1)
