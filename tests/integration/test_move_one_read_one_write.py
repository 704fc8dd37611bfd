"""On PostgreSQL a player's move is one transaction of three statements: the query
that checks its secret (with the seats, clocks and mail modes), the load's one read of the
events, and one write statement (``move_writes``, its events included).  These tests check
that the one write is all or nothing (a taken seq writes no event and no projection, even when
the command made several events), that a snapshot of other rules or a projection behind its
events still gives the right move, and that a returning vacationer's move ends the vacation
in the same statement."""
from __future__ import annotations

from contextlib import contextmanager
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import event, select, text

from service.store import move_writes

from service.store import snapshots

from service.store import events as store

from service.application import vacation
from service.core.config import from_env
from service.store.loading import load
from service.store.models import (DeadlineRow, EventRow, GameRow, MailPreferenceRow, OutboxRow,
                            SeatClockRow)
from service.store.events import Conflict
from service.store.timekeeping import ClockChanges
from tests.conftest import ADMIN_TOKEN, FrozenClock, migrated_app, secret_from_url
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
    app = migrated_app(from_env({
        "CHASQUI_DATABASE_URL": postgres_url, "CHASQUI_BASE_URL": "http://chasqui.test",
        "CHASQUI_SECRET_KEY": "one-read-secret", "CHASQUI_ADMIN_TOKEN": ADMIN_TOKEN,
        "CHASQUI_RATE_LIMIT": "off"}), clock=clock)
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


@contextmanager
def recorded(engine):
    """(statements, transactions) the engine runs inside the block: each statement's text,
    and "begin"/"commit" as transactions begin and commit."""
    statements: list[str] = []
    transactions: list[str] = []

    def statement(_conn, _cursor, text_, *_args):
        statements.append(" ".join(text_.split()))

    def begin(_conn):
        transactions.append("begin")

    def commit(_conn):
        transactions.append("commit")
    listeners = (("before_cursor_execute", statement), ("begin", begin), ("commit", commit))
    for name, listener in listeners:
        event.listen(engine, name, listener)
    try:
        yield statements, transactions
    finally:
        for name, listener in listeners:
            event.remove(engine, name, listener)


def test_a_move_is_one_transaction_of_two_reads_and_one_write(app):
    client = app.test_client()
    _game_id, secrets = new_game(client)
    play(client, secrets, 3)  # warm: the game's snapshot cadence is not at this move
    svc = services(app)
    svc.dispatch = [].extend  # the mail it owes is delivered elsewhere (a worker)
    answer = client.get(f"/api/play/{secrets[3]}").get_json()
    with recorded(svc.db.engine) as (statements, transactions):
        response = client.post(f"/api/play/{secrets[3]}",
                               json={"action": {"type": "stay"}, "seq": answer["seq"]})
    assert response.status_code == 200
    assert transactions == ["begin", "commit"]
    assert len(statements) == 3, statements
    assert "FROM seats JOIN games" in statements[0] and "FROM events" in statements[1]
    assert statements[2].startswith("WITH w0 AS (INSERT INTO events")


def test_a_taken_seq_writes_nothing_even_with_several_events(app):
    """The events are a plain INSERT in the statement: one seq taken fails it all, so no event
    of the command (nor any projection) is left behind."""
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
    with pytest.raises(Conflict), db.unit_of_work() as session:
        move_writes.execute(session, move_writes.Write(
            game_id, (session.get(GameRow, game_id), "active", head + 2, START),
            [first_values, second_values], ClockChanges(), [],
            [{"game_id": game_id, "seat": 1, "kind": "turn", "seq": head + 2,
              "to_addr": "p1@example.com", "status": "pending", "attempts": 0,
              "next_attempt_at": START, "created_at": START,
              "message_id": f"<{game_id}.{head + 2}.1.turn@chasqui.test>"}]))
    with db.reading() as session:
        seqs = session.scalars(select(EventRow.seq).where(EventRow.game_id == game_id)).all()
        assert sorted(seqs) == list(range(1, head + 2)), "no event head + 2 without its parent"
        assert session.get(GameRow, game_id).head_seq == head
        assert session.scalars(select(OutboxRow).where(OutboxRow.seq == head + 2)).all() == []


def test_a_move_after_a_snapshot_of_other_rules_replays_the_events(app):
    client = app.test_client()
    game_id, secrets = new_game(client)
    answer = play(client, secrets, snapshots.EVERY + 2)
    db = services(app).db
    with db.engine.begin() as conn:  # a newer snapshot, written by other rules
        conn.execute(text("INSERT INTO snapshots (game_id, seq, rules_version, state, created_at) "
                          "SELECT game_id, seq + 1, 'other-rules', state, created_at FROM "
                          "snapshots WHERE game_id = :g ORDER BY seq DESC LIMIT 1"), {"g": game_id})
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


def test_a_move_on_a_projection_behind_its_events_sets_it_right(app):
    client = app.test_client()
    game_id, secrets = new_game(client)
    db = services(app).db
    with db.engine.begin() as conn:
        conn.execute(text("UPDATE games SET head_seq = 0 WHERE id = :g"), {"g": game_id})
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
    with recorded(svc.db.engine) as (statements, _):
        response = client.post(f"/api/play/{secrets[2]}",
                               json={"action": {"type": "stay"}, "seq": seq})
    assert response.status_code == 200, response.get_json()
    assert len(statements) == 3, statements  # two reads, and the write that ends the vacation
    assert statements[2].count("UPDATE deadlines SET status") == 2  # decision's, vacation's
    with svc.db.reading() as session:
        ends = session.scalars(select(DeadlineRow).where(
            DeadlineRow.game_id == game_id, DeadlineRow.kind == "vacation_end")).all()
        assert [d.status for d in ends] == ["cancelled"]
        clock_row = session.get(SeatClockRow, (game_id, 2))
        assert clock_row.vacation_since is None
        assert clock_row.vacation_used_seconds == 3 * 3600


def test_a_snapshot_a_move_owes_is_written_in_its_transaction(app):
    """Every ``EVERY`` events a move's load owes a snapshot.  It is written, with the
    pruning to the newest ``KEEP``, in the move's transaction, two statements more than the
    move's three; each kept snapshot is the state a full replay gives at its seq."""
    client = app.test_client()
    game_id, secrets = new_game(client)
    svc = services(app)
    svc.dispatch = [].extend
    moves = 4 * snapshots.EVERY + 2
    with recorded(svc.db.engine) as (statements, transactions):
        answer = play(client, secrets, moves)
    written = sum(s.startswith("INSERT INTO snapshots") for s in statements)
    assert written >= 3
    assert len(statements) == 3 * moves + 2 * written
    assert transactions == ["begin", "commit"] * moves
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


def test_a_moves_one_event_and_one_clock_store_what_the_orm_path_stores(app, clock, tmp_path):
    """The same game played on PostgreSQL (the write as one statement) and on SQLite (the same
    statements one by one) must leave the same event texts and times and the same clocks and
    deadlines; both hash chains must hold."""
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
    lite = migrated_app(make_settings(tmp_path, CHASQUI_RATE_LIMIT="off"), clock=lite_clock)
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
