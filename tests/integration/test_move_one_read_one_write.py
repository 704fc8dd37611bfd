"""Issue 9: on PostgreSQL a player's move is one read statement (``move_reads``) and one write
statement (``move_writes``, its events included), in autocommit.  These tests check that the
one read sees exactly what the ORM path reads, that the one write is all or nothing (a taken
seq writes no event and no projection, even when the command made several events), that the
move falls back to the ORM path when the one read cannot serve, and that a returning
vacationer's move ends the vacation in the same statement."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from psycopg.pq import TransactionStatus
from sqlalchemy import event, select, text

from service.store import move_reads

from service.store import move_writes

from service.store import snapshots

from service.store import events as store

from service.application import vacation
from service.web.app import create_app
from service.core.config import from_env
from service.store.loading import load
from service.store.models import (DeadlineRow, EventRow, GameRow, MailPreferenceRow, OutboxRow,
                            SeatClockRow)
from service.application.moves import _resolve, make_move
from service.store.events import Conflict
from tests.conftest import ADMIN_TOKEN, FrozenClock, secret_from_url
from tests.services_available import truncate_all
from service.web.extensions import services

pytestmark = pytest.mark.integration

START = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def clock():
    return FrozenClock(START)


@pytest.fixture
def app(postgres_url, clock):
    snapshots.CACHE.clear()
    app = create_app(from_env({
        "CHASQUI_DATABASE_URL": postgres_url, "CHASQUI_BASE_URL": "http://chasqui.test",
        "CHASQUI_SECRET_KEY": "one-read-secret", "CHASQUI_ADMIN_TOKEN": ADMIN_TOKEN,
        "CHASQUI_RATE_LIMIT": "off"}), clock=clock, upgrade=True)
    yield app
    db = services(app).db
    with db.engine.begin() as conn:
        truncate_all(conn)
    db.dispose()
    snapshots.CACHE.clear()


def new_game(client, seed=5, clock_settings=None) -> tuple[str, list[str]]:
    body = {"game": "incan_gold", "seed": seed,
            "players": [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(4)]}
    if clock_settings:
        body["clock"] = clock_settings
    response = client.post("/api/games", json=body,
                           headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert response.status_code == 201
    created = response.get_json()
    return created["id"], [secret_from_url(s["play_url"]) for s in created["seats"]]


def play(client, secrets, moves: int, clock=None) -> dict:
    """``moves`` "stay" moves, every seat that must act in turn; the last answer."""
    answer = {"seq": 1, "to_act": [0, 1, 2, 3]}
    made = 0
    while made < moves:
        for seat in list(answer["to_act"]):
            if clock is not None:
                clock.advance(timedelta(minutes=7))
            response = client.post(f"/api/play/{secrets[seat]}",
                                   json={"action": {"type": "stay"}, "seq": answer["seq"]})
            assert response.status_code == 200, response.get_json()
            answer = response.get_json()
            made += 1
            if made == moves or not answer["to_act"]:
                break
        assert answer["outcome"] is None, "the test needs a game still going"
    return answer


def test_the_one_read_sees_what_the_orm_path_reads(app, clock):
    """Game row, seats, clocks, mail modes, events from the newest snapshot and the replayed
    state: the same through ``move_reads`` as through the ORM query and ``load``."""
    client = app.test_client()
    game_id, secrets = new_game(client, clock_settings={"per_decision_hours": 30})
    play(client, secrets, 2 * snapshots.EVERY + 3, clock)
    svc = services(app)
    with svc.db.unit_of_work() as session:  # a turn-mail mode for one seat
        session.add(MailPreferenceRow(game_id=game_id, seat=2, mode="digest", updated_at=START))
    with svc.db.reading() as session:
        orm = _resolve(session, svc.settings.secret_key, secrets[1])
        orm_loaded = load(session, game_id, seats=orm.seats)
        game_row = session.get(GameRow, game_id)
        expected_game = {name: getattr(game_row, name) for name in
                         ("id", "game", "status", "created_at", "updated_at", "head_seq")}
        expected_seats = [{name: getattr(s, name) for name in
                           ("game_id", "seat", "name", "email", "nonce", "notified_key",
                            "decision_seq", "bot")} for s in orm.seats]
        expected_events = list(orm_loaded.events)
    with svc.db.reading() as session:
        one = _resolve(session, svc.settings.secret_key, secrets[1], events=True)
        assert one.read is not None, "the one read serves a game at its head"
        loaded = load(session, game_id, seats=one.seats, read=one.read)
        assert {name: getattr(one.game_row, name) for name in expected_game} == expected_game
        assert [{name: getattr(s, name) for name in expected_seats[0]}
                for s in one.seats] == expected_seats
        assert {seat: c.values() for seat, c in one.clocks.items()} == {
            seat: c.values() for seat, c in orm.clocks.items()}
        assert one.modes == orm.modes
        assert one.read.base is not None and one.read.base > 1, "it started from a snapshot"
        assert list(loaded.events) == expected_events
        assert loaded.state == orm_loaded.state
        assert loaded.before_last == orm_loaded.before_last


def test_a_move_is_one_read_and_one_write(app):
    client = app.test_client()
    _game_id, secrets = new_game(client)
    play(client, secrets, 3)  # warm: the game's snapshot cadence is not at this move
    statements: list[str] = []
    svc = services(app)
    dispatched: list[int] = []
    svc.dispatch = dispatched.extend  # the mail it owes is delivered elsewhere (a worker)

    def record(_conn, _cursor, statement, *_args):
        statements.append(statement)
    for engine in svc.db.engines:  # the moves' own pool too
        event.listen(engine, "before_cursor_execute", record)
    try:
        answer = client.get(f"/api/play/{secrets[3]}").get_json()
        statements.clear()
        response = client.post(f"/api/play/{secrets[3]}",
                               json={"action": {"type": "stay"}, "seq": answer["seq"]})
    finally:
        for engine in svc.db.engines:
            event.remove(engine, "before_cursor_execute", record)
    assert response.status_code == 200
    assert len(statements) == 2, statements
    assert "FROM events e" in statements[0] and "FROM seats s" in statements[0]
    assert statements[1].startswith("WITH w0 AS (INSERT INTO events")


def test_a_taken_seq_writes_nothing_even_with_several_events(app):
    """The events are a plain INSERT in the statement: one seq taken fails it all, so no event
    of the command (nor any projection) is left behind, in autocommit as in a transaction."""
    client = app.test_client()
    game_id, _secrets = new_game(client)
    db = services(app).db
    with db.reading() as session:
        head = session.get(GameRow, game_id).head_seq
        head_hash = store.load(session, game_id)[-1].hash
    first, first_values = store.new_event(game_id, head + 1, head_hash, "MoveMade",
                                          {"seat": 0, "action": {"type": "stay"}}, "seat:0", START)
    _second, second_values = store.new_event(game_id, head + 2, first.hash, "MoveMade",
                                             {"seat": 1, "action": {"type": "stay"}}, "seat:1",
                                             START)
    with db.engine.begin() as conn:  # another command took seq head + 1 first
        conn.execute(EventRow.__table__.insert(), [{**first_values}])
    with db.autocommit() as session:
        writes = move_writes.Writes(game_id)
        writes.events = [first_values, second_values]
        writes.game = (session.get(GameRow, game_id), "active", head + 2, START)
        writes.outbox = [{"game_id": game_id, "seat": 1, "kind": "turn", "seq": head + 2,
                          "to_addr": "p1@example.com", "status": "pending", "attempts": 0,
                          "next_attempt_at": START, "created_at": START,
                          "message_id": f"<{game_id}.{head + 2}.1.turn@chasqui.test>"}]
        with pytest.raises(Conflict):
            writes.execute(session)
    with db.reading() as session:
        seqs = session.scalars(select(EventRow.seq).where(EventRow.game_id == game_id)).all()
        assert sorted(seqs) == list(range(1, head + 2)), "no event head + 2 without its parent"
        assert session.get(GameRow, game_id).head_seq == head
        assert session.scalars(select(OutboxRow).where(OutboxRow.seq == head + 2)).all() == []


def test_a_snapshot_of_other_rules_makes_the_move_read_the_orm_way(app):
    client = app.test_client()
    game_id, secrets = new_game(client)
    answer = play(client, secrets, snapshots.EVERY + 2)
    db = services(app).db
    with db.engine.begin() as conn:  # a newer snapshot, written by other rules
        conn.execute(text("INSERT INTO snapshots (game_id, seq, rules_version, state, created_at) "
                          "SELECT game_id, seq + 1, 'other-rules', state, created_at FROM "
                          "snapshots WHERE game_id = :g ORDER BY seq DESC LIMIT 1"), {"g": game_id})
    with db.reading() as session:
        assert move_reads.read(session, game_id, lambda name: "1") is None
    seat = answer["to_act"][0]
    response = client.post(f"/api/play/{secrets[seat]}",
                           json={"action": {"type": "stay"}, "seq": answer["seq"]})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["seq"] == answer["seq"] + 1
    with db.reading() as session:
        assert session.get(GameRow, game_id).head_seq == answer["seq"] + 1
        replayed = load(session, game_id)
        assert replayed.state == snapshots.rebuild(session, game_id, list(replayed.events),
                                                   write=False, use=False)[1]


def test_a_projection_behind_its_events_makes_the_move_read_the_orm_way(app):
    client = app.test_client()
    game_id, secrets = new_game(client)
    db = services(app).db
    with db.engine.begin() as conn:
        conn.execute(text("UPDATE games SET head_seq = 0 WHERE id = :g"), {"g": game_id})
    with db.reading() as session:
        assert move_reads.read(session, game_id, lambda name: "1") is None
    response = client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 1})
    assert response.status_code == 200, response.get_json()
    with db.reading() as session:
        assert session.get(GameRow, game_id).head_seq == 2, "the move's write set it right"


def test_a_vacationers_move_ends_the_vacation_in_the_same_statement(app, clock):
    """Timekeeping: moving ends one's own vacation; its pending vacation_end deadline is
    cancelled with the move's other rows, not by a statement of its own."""
    client = app.test_client()
    game_id, secrets = new_game(client, clock_settings={"per_decision_hours": 30})
    svc = services(app)
    with svc.db.unit_of_work() as session:
        loaded = load(session, game_id)
        vacation.start(session, loaded, 2, clock(), svc.settings.mail_domain, "seat:2", auto=False)
    with svc.db.reading() as session:
        ends = session.scalars(select(DeadlineRow).where(
            DeadlineRow.game_id == game_id, DeadlineRow.kind == "vacation_end")).all()
        assert [d.status for d in ends] == ["pending"]
        seq = session.get(GameRow, game_id).head_seq
    clock.advance(timedelta(hours=3))
    svc.dispatch = [].extend  # the mail it owes is delivered elsewhere (a worker)
    statements: list[str] = []

    def record(_conn, _cursor, statement, *_args):
        statements.append(statement)
    for engine in svc.db.engines:  # the moves' own pool too
        event.listen(engine, "before_cursor_execute", record)
    try:
        response = client.post(f"/api/play/{secrets[2]}",
                               json={"action": {"type": "stay"}, "seq": seq})
    finally:
        for engine in svc.db.engines:
            event.remove(engine, "before_cursor_execute", record)
    assert response.status_code == 200, response.get_json()
    assert len(statements) == 2, statements  # the read, and the write that ends the vacation
    assert "kind = 'vacation_end'" in statements[1]
    with svc.db.reading() as session:
        ends = session.scalars(select(DeadlineRow).where(
            DeadlineRow.game_id == game_id, DeadlineRow.kind == "vacation_end")).all()
        assert [d.status for d in ends] == ["cancelled"]
        clock_row = session.get(SeatClockRow, (game_id, 2))
        assert clock_row.vacation_since is None
        assert clock_row.vacation_used_seconds == 3 * 3600


def test_an_autocommit_command_cannot_leave_orm_changes_unwritten(app):
    """``Database.autocommit`` closes its session without a commit: an ORM object added and
    never flushed would be lost without a word, so the session refuses to end that way."""
    db = services(app).db
    with pytest.raises(RuntimeError, match="unwritten"):
        with db.autocommit() as session:
            session.add(GameRow(id="never-written", game="incan_gold", status="active",
                                created_at=START, updated_at=START, head_seq=1))
    with db.reading() as session:
        assert session.get(GameRow, "never-written") is None


def test_moves_run_on_connections_that_stay_in_autocommit(app):
    """The moves' pool is its own, in autocommit from the start: no connection is switched to
    autocommit for one move and back when it returns (and the units of work of every other
    command keep their transactions)."""
    db = services(app).db
    with db.autocommit() as session:
        assert session.connection().connection.driver_connection.autocommit
        session.execute(text("SELECT 1"))
    with db.unit_of_work() as session:
        connection = session.connection().connection.driver_connection
        assert not connection.autocommit
        session.execute(text("SELECT 1"))
        assert connection.info.transaction_status == TransactionStatus.INTRANS


def test_a_snapshot_a_move_owes_is_part_of_its_one_write(app):
    """Issue 9: every ``EVERY`` events a move's load owes a snapshot.  It is written, with the
    pruning to the newest ``KEEP``, by the move's one write statement: every move stays two
    statements, and each kept snapshot is the state a full replay gives at its seq."""
    client = app.test_client()
    game_id, secrets = new_game(client)
    svc = services(app)
    svc.dispatch = [].extend
    statements: list[str] = []

    def record(_conn, _cursor, statement, *_args):
        statements.append(statement)
    moves = 4 * snapshots.EVERY + 2
    for engine in svc.db.engines:
        event.listen(engine, "before_cursor_execute", record)
    try:
        answer = play(client, secrets, moves)
    finally:
        for engine in svc.db.engines:
            event.remove(engine, "before_cursor_execute", record)
    assert len(statements) == 2 * moves
    assert sum("INSERT INTO snapshots" in s for s in statements) >= 3
    with svc.db.reading() as session:
        kept = session.execute(select(snapshots.snapshots.c.seq, snapshots.snapshots.c.state)
                               .where(snapshots.snapshots.c.game_id == game_id)
                               .order_by(snapshots.snapshots.c.seq)).all()
        assert len(kept) == snapshots.KEEP
        assert answer["seq"] - kept[-1].seq <= snapshots.EVERY
        for seq, state in kept:
            _game, replayed, _ = snapshots.rebuild(session, game_id, store.load(session, game_id, seq),
                                                   write=False, use=False)
            assert state == replayed, f"the snapshot at {seq} is the replayed state"


def test_a_move_opens_no_orm_session_and_a_rarer_need_still_gets_one(app, monkeypatch):
    """``StatementSession``: the move's two statements need no ORM ``Session``; whatever else
    asks for one (a query the ORM way, the events a page fetches after the move, on a closed
    command) gets a real one on the autocommit engine."""
    from service.store import statement_session
    client = app.test_client()
    game_id, secrets = new_game(client)
    opened: list[int] = []

    class Counted(statement_session.Session):
        def __init__(self, *args, **kwargs):
            opened.append(1)
            super().__init__(*args, **kwargs)
    monkeypatch.setattr(statement_session, "Session", Counted)
    play(client, secrets, snapshots.EVERY + 3)
    assert opened == [], "no ORM session for a move"
    db = services(app).db
    with db.autocommit() as session:
        assert session.execute(text("SELECT 1")).scalar_one() == 1
        assert session.get(GameRow, game_id).head_seq > snapshots.EVERY
    assert opened == [1]
    svc = services(app)
    svc.dispatch = [].extend
    answer = client.get(f"/api/play/{secrets[0]}").get_json()
    seat = answer["to_act"][0]
    outcome = make_move(svc, secrets[seat], {"type": "stay"}, answer["seq"])
    events = outcome.loaded.events.all()  # after the command: fetched through a new session
    assert [e.seq for e in events] == list(range(1, outcome.seq + 1))
    assert opened == [1, 1]


def test_a_moves_one_event_and_one_clock_store_what_the_orm_path_stores(app, clock, tmp_path):
    """Round 7 of issue 9: a move's single event and single changed clock go to the one write
    as plain parameters, not as JSON record sets.  The same game played on the ORM path
    (SQLite, the statements one by one) must leave the same event texts and times and the same
    clocks and deadlines; both hash chains must hold."""
    from tests.conftest import make_settings

    def rows(application, game_id):
        db = services(application).db
        with db.engine.connect() as conn:
            events = conn.execute(text(
                "SELECT seq, kind, CAST(payload AS TEXT), actor, recorded_at FROM events "
                "WHERE game_id = :g AND seq > 1 ORDER BY seq"), {"g": game_id}).all()
            clocks = conn.execute(text(
                "SELECT seat, bank_seconds, decision_key, started_at, due_at, vacation_since, "
                "vacation_used_seconds FROM seat_clocks WHERE game_id = :g ORDER BY seat"),
                {"g": game_id}).all()
            deadlines = conn.execute(text(
                "SELECT seat, kind, decision_key, due_at, status FROM deadlines "
                "WHERE game_id = :g ORDER BY seat, kind, decision_key, due_at, status"),
                {"g": game_id}).all()
        with db.reading() as session:
            assert store.verify_chain(game_id, store.load(session, game_id)).ok
        return ([(s, k, p, a, _utc(t)) for s, k, p, a, t in events],
                [tuple(_utc(v) for v in clock_row) for clock_row in clocks],
                [tuple(_utc(v) for v in deadline_row) for deadline_row in deadlines])

    lite_clock = FrozenClock(START)
    lite = create_app(make_settings(tmp_path, CHASQUI_RATE_LIMIT="off"), clock=lite_clock,
                      upgrade=True)
    played = []
    for application, its_clock in ((app, clock), (lite, lite_clock)):
        client = application.test_client()
        game_id, secrets = new_game(client)
        play(client, secrets, 11, its_clock)  # plain moves (one clock) and round ends (four)
        played.append(rows(application, game_id))
    postgres, orm = played
    assert len(postgres[0]) == 11 and any(row[1] for row in postgres[1])
    assert postgres == orm
    services(lite).db.dispose()


def _utc(value):
    """SQLite gives times back as text without their zone (a raw query); PostgreSQL as times."""
    if isinstance(value, str) and len(value) >= 19 and value[4] == "-" and value[10] == " ":
        value = datetime.fromisoformat(value)
    if isinstance(value, datetime):
        return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value
    return value
