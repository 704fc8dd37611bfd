"""On PostgreSQL: a batch's lock statement also brings its games and
relaxes its commit, and one more reads the seats of all its games
(``service/store/mail_reads.py``).  The mails are those a load of each row makes, byte for
byte, and a batch reads no game or seat row besides."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import event, select, text, update

from service.mail import delivery

from service.store import mail_reads
from service.store.loading import load
from service.mail.compose import build_message
from service.store.models import GameRow, OutboxRow, SeatRow
from tests.conftest import make_settings
from tests.service.test_mail_every_kind import corpus_app, played_once
from tests.services_available import fresh_postgres_database
from service.web.extensions import services


@pytest.fixture(scope="session")
def pg_corpus(tmp_path_factory):
    """tests/service/test_mail_every_kind.py's corpus, played once per session on a
    PostgreSQL database of its own: (that database's URL, the games); dropped afterwards."""
    url, drop = fresh_postgres_database()
    try:
        yield url, played_once(make_settings(tmp_path_factory.mktemp("pg-corpus"),
                                             CHASQUI_DATABASE_URL=url))
    finally:
        drop()


@pytest.fixture
def corpus(pg_corpus, tmp_path, clock):
    """An app on a new PostgreSQL database copied from the corpus's (``CREATE DATABASE …
    TEMPLATE``), dropped afterwards, and the corpus's games."""
    template, games = pg_corpus
    url, drop = fresh_postgres_database(template)
    try:
        with corpus_app(make_settings(tmp_path, CHASQUI_DATABASE_URL=url), clock, games) as made:
            yield made
    finally:
        drop()


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


def test_batches_on_postgresql_send_the_mails_the_orms_reads_make(corpus):
    app = corpus.app
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


def test_the_lock_brings_each_game_and_its_seats_as_the_orm_reads_them(corpus):
    app, games = corpus
    svc = services(app)
    ids = owed_again(svc)
    with svc.db.unit_of_work() as session:
        batch = mail_reads.lock_batch(session, ids)
        assert [row.id for row in batch.rows] == ids
        assert set(batch.games) == set(batch.seats) == set(games)
        assert session.execute(text("SHOW synchronous_commit")).scalar() == "off"
        assert all(row in session and not session.is_modified(row) for row in batch.rows)
    with svc.db.unit_of_work() as session:
        batch = mail_reads.lock_batch(session, ids)
        for game_id in games:
            assert session.get(GameRow, game_id) is batch.games[game_id]
            rows = session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                                   .order_by(SeatRow.seat)).all()
            assert batch.seats[game_id] == rows


def test_a_batch_reads_no_game_or_seat_row_besides_its_lock(corpus):
    app = corpus.app
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
    # The lock (with the game and the commit setting), the seats of the batch's games, the
    # events, the deadlines (the corpus's games have no clock: none asked), the languages and
    # the one "sent" UPDATE.
    assert [s.split(" ", 2)[:2] for s in statements] == [
        ["SELECT", "outbox.id,"], ["SELECT", "seats.game_id,"], ["SELECT", "events.seq,"],
        ["SELECT", "%(param_1)s::INTEGER"], ["UPDATE", "outbox"]], statements
    assert "set_config" in statements[0] and "JOIN games" in statements[0]
    assert not any(" FROM games" in s or "SET LOCAL" in s for s in statements)


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


def test_the_rows_read_by_hand_record_bounces_and_retries_as_orm_rows_do(corpus):
    app = corpus.app
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
