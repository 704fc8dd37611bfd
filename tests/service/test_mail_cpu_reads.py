"""Issue 9, round 6, on PostgreSQL: a batch's lock statement also brings its games and seats
and relaxes its commit (``service/mail/reads.py``), and the deadline, language and "sent"
statements run as driver text (``service/mail/sql.py``).  The mails are those the ORM's own
reads make, byte for byte, and the statements read what their SQLAlchemy forms read."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import event, select, text, update

from service.mail import delivery

from service.mail import reads as mail_reads

from service.mail import sql as mail_sql

from service.mail import kit as mailkit
from service.web.app import create_app
from service.store.loading import load
from service.mail.compose import _DEADLINES, build_message
from service.store.models import GameRow, OutboxRow, SeatRow
from service.store.db import execute_core
from tests.conftest import make_settings
from tests.service.test_mail_every_kind import corpus  # noqa: F401  (a fixture)
from tests.services_available import truncate_all
from service.web.extensions import services


@pytest.fixture
def app(tmp_path, clock, postgres_url):
    """The corpus's app (tests/conftest.py's), on PostgreSQL."""
    app = create_app(make_settings(tmp_path, CHASQUI_DATABASE_URL=postgres_url), clock=clock,
                     upgrade=True)
    app.config["TESTING"] = True
    yield app
    db = services(app).db
    with db.engine.begin() as conn:
        truncate_all(conn)
    db.engine.dispose()


class Keeping:
    """A relay that keeps the bytes of every mail it is handed."""

    def __init__(self):
        self.sent: dict[str, bytes] = {}

    def send(self, message, _session=None, _now=None):
        self.sent[message["Message-ID"]] = message.as_bytes()


def owed_again(svc) -> list[int]:
    """Every outbox row of the corpus (delivered in-process as it was made) pending again."""
    with svc.db.unit_of_work() as session:
        session.execute(update(OutboxRow).values(status="pending", attempts=0))
        return list(session.scalars(select(OutboxRow.id).order_by(OutboxRow.id)))


def test_batches_on_postgresql_send_the_mails_the_orms_reads_make(app, corpus):
    svc = services(app)
    ids = owed_again(svc)
    expected = {}
    with app.app_context(), svc.db.reading() as session:
        for row in session.scalars(select(OutboxRow).order_by(OutboxRow.id)):
            expected[row.message_id] = build_message(
                svc.settings, load(session, row.game_id, upto=row.seq), row).as_bytes()
    relay = Keeping()
    with app.app_context():
        for start in range(0, len(ids), 7):  # batches across games and seqs
            statuses = delivery.deliver_many(svc.db, svc.settings, ids[start:start + 7],
                                             svc.clock(), relay)
            assert set(statuses.values()) == {"sent"}
    assert len(expected) > 30
    assert relay.sent == expected


def test_the_lock_brings_each_game_and_its_seats_as_the_orm_reads_them(app, corpus):
    svc = services(app)
    ids = owed_again(svc)
    with svc.db.unit_of_work() as session:
        batch = mail_reads.lock_batch(session, ids)
        assert [row.id for row in batch.rows] == ids
        assert set(batch.games) == set(batch.seats) == set(corpus)
        assert session.execute(text("SHOW synchronous_commit")).scalar() == "off"
        assert all(row in session and not session.is_modified(row) for row in batch.rows)
    with svc.db.reading() as session:  # the ORM's own objects of the same rows
        for made in [*batch.rows, *batch.games.values()]:
            read = session.get(type(made), made.id)
            assert {k: (v, type(v)) for k, v in vars(made).items() if not k.startswith("_")} == {
                k: (v, type(v)) for k, v in vars(read).items() if not k.startswith("_")}
    with svc.db.unit_of_work() as session:
        batch = mail_reads.lock_batch(session, ids)
        for game_id in corpus:
            assert session.get(GameRow, game_id) is batch.games[game_id]
            rows = session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                                   .order_by(SeatRow.seat)).all()
            assert [[getattr(s, name) for name in mail_reads.SEAT_COLUMNS]
                    for s in batch.seats[game_id]] == [
                [getattr(s, name) for name in mail_reads.SEAT_COLUMNS] for s in rows]


def test_a_batch_reads_no_game_or_seat_row_besides_its_lock(app, corpus):
    svc = services(app)
    ids = owed_again(svc)
    statements: list[str] = []

    def seen(_conn, _cursor, statement, *_):
        statements.append(" ".join(statement.split()))

    event.listen(svc.db.engine, "before_cursor_execute", seen)
    try:
        with app.app_context():
            delivery.deliver_many(svc.db, svc.settings, ids[:4], svc.clock(), Keeping())
    finally:
        event.remove(svc.db.engine, "before_cursor_execute", seen)
    # The lock (with the game, seats and commit setting), the events, the deadlines (the
    # corpus's games have no clock: none asked), the languages and the one "sent" UPDATE.
    assert [s.split(" ", 2)[:2] for s in statements] == [
        ["SELECT", "outbox.id,"], ["SELECT", "events.seq,"], ["SELECT", "0::INTEGER"],
        ["UPDATE", "outbox"]], statements
    assert not any(" FROM games" in s or "SET LOCAL" in s for s in statements)


def test_the_workers_statements_read_on_postgresql_what_their_sqlalchemy_forms_read(
        app, corpus):
    svc = services(app)
    with svc.db.unit_of_work() as session:
        seats = session.scalars(select(SeatRow).order_by(SeatRow.game_id, SeatRow.seat)).all()
        keys = [(s.game_id, s.seat) for s in seats]
        addresses = sorted({s.email.lower() for s in seats})
        deadlines = session.execute(text("SELECT game_id, seat, decision_key FROM deadlines")).all()
        for n in (1, 2, 5, len(keys)):
            params = {"keys": keys[:n], "addresses": addresses[:n]}
            assert sorted(mail_sql.rows(session, mailkit._LANGUAGES, params)) == sorted(
                tuple(r) for r in execute_core(session, mailkit._LANGUAGES.core, params))
        for game_id, seat, key in deadlines[:5] + [(corpus[0], 0, "none")]:
            params = {"game_id": game_id, "seats": [seat, seat + 1], "keys": [key, "other"]}
            assert mail_sql.rows(session, _DEADLINES, params) == [
                tuple(r) for r in execute_core(session, _DEADLINES.core, params)]
        ids = list(session.scalars(select(OutboxRow.id).order_by(OutboxRow.id)))[:3]
        now = svc.clock() + timedelta(days=1)
        assert mail_sql.rowcount(session, delivery._MARK_SENT, {"ids": ids + [-1], "now": now}) == 3
        assert session.execute(select(OutboxRow.status, OutboxRow.sent_at)
                               .where(OutboxRow.id.in_(ids))).all() == [("sent", now)] * 3
        session.rollback()


def test_a_driver_error_is_raised_as_sqlalchemys_and_the_session_rolls_back(app):
    from sqlalchemy.exc import DBAPIError

    svc = services(app)
    broken = mail_sql.Statement(None, "SELECT no_such_column FROM outbox WHERE id IN {ids}",
                                lists=("ids",))
    with pytest.raises(DBAPIError):
        with svc.db.unit_of_work() as session:
            mail_sql.rows(session, broken, {"ids": [1]})
    with svc.db.reading() as session:  # the connection went back to the pool usable
        assert mail_sql.rows(session, mailkit._LANGUAGES, {"keys": [("x", 0)],
                                                           "addresses": ["x@y"]}) == []


def test_list_parameters_are_written_as_sqlalchemy_writes_expanding_ones():
    statement = mail_sql.Statement(
        None, "SELECT 1 WHERE a = {a:VARCHAR} AND b IN {b:INTEGER} AND (c, d) IN {cd}",
        lists=("b", "cd"))
    assert statement.postgres({"a": "x", "b": [1, 2], "cd": [("p", 1), ("q", 2)]}) == (
        "SELECT 1 WHERE a = %s::VARCHAR AND b IN (%s::INTEGER, %s::INTEGER) "
        "AND (c, d) IN ((%s, %s), (%s, %s))", ["x", 1, 2, "p", 1, "q", 2])
    assert statement.postgres({"a": "y", "b": [], "cd": [("p", 1)]}) == (
        "SELECT 1 WHERE a = %s::VARCHAR AND b IN (NULL) AND (c, d) IN ((%s, %s))",
        ["y", "p", 1])


class Failing(Keeping):
    """A relay that bounces the first mail and is unwell at the third."""

    def send(self, message, _session=None, _now=None):
        from service.mail.transport import PermanentFailure, TemporaryFailure

        if not self.sent:
            self.sent["bounced"] = b""
            raise PermanentFailure("550 no such user")
        if len(self.sent) == 2:
            raise TemporaryFailure("451 try later")
        super().send(message)


def test_the_rows_read_by_hand_record_bounces_and_retries_as_orm_rows_do(app, corpus):
    svc = services(app)
    ids = owed_again(svc)[:5]
    now = svc.clock()
    with app.app_context():
        statuses = delivery.deliver_many(svc.db, svc.settings, ids, now, Failing())
    assert [statuses[i] for i in ids] == ["bounced", "sent", "pending", "pending", "pending"]
    with svc.db.reading() as session:
        rows = {r.id: r for r in session.scalars(select(OutboxRow).where(OutboxRow.id.in_(ids)))}
    assert (rows[ids[0]].status, rows[ids[0]].attempts) == ("bounced", 1)
    assert rows[ids[0]].last_error == "550 no such user"
    assert (rows[ids[1]].status, rows[ids[1]].attempts, rows[ids[1]].sent_at) == ("sent", 1, now)
    assert (rows[ids[2]].attempts, rows[ids[2]].last_error) == (1, "451 try later")
    assert rows[ids[2]].next_attempt_at == now + delivery.backoff(1)
    assert [rows[i].attempts for i in ids[3:]] == [0, 0]  # not tried: left to the sweep
