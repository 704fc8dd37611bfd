"""On PostgreSQL a command writes its projection rows (deadline cancel, seat clocks,
new deadlines, notified seats, the game row, the outbox) in one statement
(``service.store.move_writes``); SQLite writes them one statement at a time.  The same game played
on both must leave exactly the same rows: clocks, deadlines, seats, game row and mail."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select

from service.application import deadlines

from service.application import vacation
from service.core.config import from_env
from service.application.games import create_game, submit_move
from service.store.loading import load
from service.store.models import (DeadlineRow, GameRow, MailPreferenceRow, OutboxRow, SeatClockRow,
                            SeatRow)
from tests.conftest import migrated_app
from tests.services_available import truncate_all
from service.web.extensions import services

pytestmark = pytest.mark.integration

DOMAIN = "chasqui.it"
START = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)  # a Monday


def _app(url: str):
    return migrated_app(from_env({"CHASQUI_DATABASE_URL": url, "CHASQUI_BASE_URL": "http://c.it",
                                  "CHASQUI_SECRET_KEY": "k", "CHASQUI_ADMIN_TOKEN": "a",
                                  "CHASQUI_LOCAL_MAILBOX": "on"}))


def _play(app) -> tuple[str, list[int]]:
    """A clocked 4-seat game: one seat wants no turn mail, one goes on vacation and comes back
    by moving, reminders and timeouts fire, moves are made until the game ends."""
    db = services(app).db
    now = START
    outbox: list[int] = []
    with app.app_context():
        with db.unit_of_work() as session:
            players = [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(4)]
            game_id, outcome = create_game(session, "incan_gold", players, 7, {}, "admin", now,
                                           DOMAIN, clock={"per_decision_hours": 30,
                                                          "reminder_hours": [12, 2]})
            outbox += outcome.owed.mail
            session.add(MailPreferenceRow(game_id=game_id, seat=2, mode="digest", updated_at=now))
        for step in range(400):
            now += timedelta(hours=5)
            if step == 3:
                with db.unit_of_work() as session:
                    loaded = load(session, game_id)
                    outbox += vacation.start(session, loaded, 1, now, DOMAIN, "seat:1",
                                             False).mail
            if step % 7 == 6:  # let the clock run: reminders, then a timeout
                now += timedelta(hours=20)
                outbox += deadlines.sweep(db, now, DOMAIN).mail
            with db.unit_of_work() as session:
                loaded = load(session, game_id)
                if loaded.game.outcome(loaded.state) is not None:
                    break
                to_act = loaded.game.to_act(loaded.state)
                if not to_act:
                    break
                seat = to_act[step % len(to_act)]
                legal = loaded.game.legal_actions(loaded.state, seat)
                action = legal[(step // 3) % len(legal)]
                outcome = submit_move(session, game_id, seat, action, loaded.seq, f"seat:{seat}",
                                      now, DOMAIN)
                outbox += outcome.owed.mail
    return game_id, outbox


def _rows(app, game_id: str) -> dict:
    db = services(app).db
    with db.reading() as session:
        def rows(model, *columns, order):
            return [tuple(getattr(r, c) for c in columns) for r in session.scalars(
                select(model).where(model.game_id == game_id).order_by(*order))]
        game = session.get(GameRow, game_id)
        return {
            "game": (game.status, game.head_seq, _utc(game.updated_at)),
            "seats": rows(SeatRow, "seat", "notified_key", "decision_seq", order=[SeatRow.seat]),
            "clocks": [(s, b, k, _utc(a), _utc(d), _utc(v), u) for s, b, k, a, d, v, u in rows(
                SeatClockRow, "seat", "bank_seconds", "decision_key", "started_at", "due_at",
                "vacation_since", "vacation_used_seconds", order=[SeatClockRow.seat])],
            "deadlines": sorted((s, k, key, _utc(d), st) for s, k, key, d, st in rows(
                DeadlineRow, "seat", "kind", "decision_key", "due_at", "status",
                order=[DeadlineRow.id])),
            "outbox": [(s, k, q, a, st, m.replace(game_id, "G")) for s, k, q, a, st, m in rows(
                OutboxRow, "seat", "kind", "seq", "to_addr", "status", "message_id",
                order=[OutboxRow.id])],
        }


def _utc(moment):
    return None if moment is None else moment.replace(tzinfo=timezone.utc) \
        if moment.tzinfo is None else moment.astimezone(timezone.utc)


def test_one_statement_writes_leave_the_same_rows_as_one_by_one(tmp_path, postgres_url):
    lite = _app(f"sqlite:///{tmp_path / 'lite.sqlite3'}")
    pg = _app(postgres_url)
    try:
        lite_id, lite_outbox = _play(lite)
        pg_id, pg_outbox = _play(pg)
        on_sqlite, on_postgres = _rows(lite, lite_id), _rows(pg, pg_id)
        assert on_postgres["game"][0] == "finished"
        assert any(k.startswith("reminder") for _s, k, *_ in on_postgres["deadlines"])
        assert any(st == "cancelled" for *_x, st in on_postgres["deadlines"])
        assert on_postgres == on_sqlite
        assert len(pg_outbox) == len(lite_outbox) == len(on_postgres["outbox"])
        with services(pg).db.reading() as session:  # ids returned in row order
            ids = session.scalars(select(OutboxRow.id).where(OutboxRow.game_id == pg_id)
                                  .order_by(OutboxRow.id)).all()
        assert sorted(pg_outbox) == list(ids)
    finally:
        services(lite).db.dispose()
        db = services(pg).db
        with db.engine.begin() as conn:
            truncate_all(conn)
        db.dispose()
