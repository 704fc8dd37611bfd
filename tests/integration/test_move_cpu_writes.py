"""A command's write on PostgreSQL is one statement (``move_writes``) without changing
what it writes: every row of every kind, values read back exactly, outbox ids in row order;
and a Core read in the unit of work sees its pending ORM changes."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import event, select

from service.store import move_writes
from service.application.games import create_game
from service.store.models import DeadlineRow, GameRow, OutboxRow, SeatClockRow, SeatRow
from service.store.timekeeping import Clock, ClockChanges
from service.web.extensions import services

pytestmark = pytest.mark.integration

START = datetime(2026, 11, 30, 9, 0, 0, 123456, tzinfo=timezone.utc)
LIMA = timezone(timedelta(hours=-5))


def _statements(app) -> list[tuple[str, object]]:
    seen: list[tuple[str, object]] = []

    def record(_conn, _cursor, statement, parameters, _context, _many):
        seen.append((statement, parameters))
    event.listen(services(app).db.engine, "before_cursor_execute", record)
    return seen


def _new_game(db, players: int = 8) -> str:
    with db.unit_of_work() as session:
        game_id, _ = create_game(
            session, "incan_gold",
            [{"name": f"P{i}", "email": f"jugador{i}@ñandú.example"} for i in range(players)],
            7, {}, "admin", START, "c.it", clock={"per_decision_hours": 30,
                                                  "reminder_hours": [12, 2]})
    return game_id


def test_a_game_start_owing_eight_mails_is_one_statement(pg_app):
    db = services(pg_app).db
    seen = _statements(pg_app)
    game_id = _new_game(db)
    writes = [(sql, params) for sql, params in seen if "INSERT INTO outbox" in sql]
    assert len(writes) == 1
    sql, params = writes[0]
    assert "INSERT INTO seat_clocks" in sql and "INSERT INTO deadlines" in sql
    with db.reading() as session:
        outbox = session.scalars(select(OutboxRow).where(OutboxRow.game_id == game_id)
                                 .order_by(OutboxRow.id)).all()
        assert [(r.seat, r.kind, r.seq, r.to_addr, r.status, r.attempts) for r in outbox] == [
            (i, "start", 1, f"jugador{i}@ñandú.example", "pending", 0) for i in range(8)]
        assert all(r.next_attempt_at == START and r.created_at == START for r in outbox)
        clocks = session.scalars(select(SeatClockRow).where(SeatClockRow.game_id == game_id)
                                 .order_by(SeatClockRow.seat)).all()
        assert [(c.seat, c.started_at, c.due_at, c.vacation_since) for c in clocks] == [
            (i, START, START + timedelta(hours=30), None) for i in range(8)]
        deadlines = session.scalars(select(DeadlineRow).where(DeadlineRow.game_id == game_id)).all()
        assert sorted((d.seat, d.kind, d.due_at) for d in deadlines) == [  # the next alarm
            (i, "reminder:12", START + timedelta(hours=30 - 12)) for i in range(8)]
        seats = session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)).all()
        assert {(s.notified_key is not None, s.decision_seq) for s in seats} == {(True, 1)}


def test_written_values_read_back_exactly_and_ids_come_back_in_row_order(pg_app):
    db = services(pg_app).db
    game_id = _new_game(db, players=3)
    moment = datetime(2026, 12, 1, 7, 8, 9, 654321, tzinfo=LIMA)  # not UTC, microseconds
    with db.unit_of_work() as session:
        clock = Clock(game_id, 1, 7, "ключ 🗝", moment, None, moment - timedelta(days=1), 86399)
        ids = move_writes.execute(session, move_writes.Write(
            game_id, (session.get(GameRow, game_id), "paused", 9, moment),
            clocks=ClockChanges(cancel_seats=[1], changed=[clock]),
            outbox=[{"game_id": game_id, "seat": seat, "kind": "turn", "seq": 9,
                     "to_addr": f"o'brien{seat}@example.org", "status": "pending", "attempts": 0,
                     "next_attempt_at": moment, "created_at": moment,
                     "message_id": f"<{game_id}.9.{seat}.turn@c.it>"} for seat in (2, 0, 1)]))
    with db.reading() as session:
        row = session.get(SeatClockRow, (game_id, 1))
        assert (row.bank_seconds, row.decision_key, row.started_at, row.due_at,
                row.vacation_since, row.vacation_used_seconds) == (
            7, "ключ 🗝", moment, None, moment - timedelta(days=1), 86399)
        game = session.get(GameRow, game_id)
        assert (game.status, game.head_seq, game.updated_at) == ("paused", 9, moment)
        assert [session.get(OutboxRow, i).seat for i in ids] == [2, 0, 1]
        assert session.get(OutboxRow, ids[0]).to_addr == "o'brien2@example.org"
        assert {d.status for d in session.scalars(select(DeadlineRow).where(
            DeadlineRow.game_id == game_id, DeadlineRow.seat == 1))} == {"cancelled"}


def test_a_core_read_sees_pending_changes_and_shares_the_transaction(pg_app):
    db = services(pg_app).db
    game_id = _new_game(db, players=3)
    by_id = select(GameRow.__table__.c.status).where(GameRow.__table__.c.id == game_id)
    with db.unit_of_work() as session:
        session.get(GameRow, game_id).status = "paused"  # pending, not yet flushed
        assert session.execute(by_id).scalar_one() == "paused"
        session.rollback()
        assert session.execute(by_id).scalar_one() == "active"
