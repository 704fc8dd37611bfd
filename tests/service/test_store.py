"""The event store: hash chain, tamper evidence, immutability, optimistic appends.
Run on SQLite and on the real PostgreSQL."""
from __future__ import annotations

import threading
from datetime import datetime, timezone

import pytest
from sqlalchemy import text

from tests.conftest import migrated_sqlite
from tests.services_available import truncate_all

from service.store import events as store
from service.store.db import Database
from service.store.models import GameRow

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    if request.param == "sqlite":
        database = Database(migrated_sqlite(tmp_path / "store.sqlite3"))
    else:
        database = Database(request.getfixturevalue("postgres_url"))
        database.upgrade()
    yield database
    if request.param == "postgresql":
        with database.engine.begin() as conn:
            truncate_all(conn)
    database.dispose()


def new_game(db, game_id="g1", moves=3):
    with db.unit_of_work() as session:
        session.add(GameRow(id=game_id, game="incan_gold", status="active", created_at=NOW,
                            updated_at=NOW, head_seq=0))
        session.flush()
        prev = store.GENESIS
        for seq in range(1, moves + 1):
            prev = store.append(session, game_id, seq, prev, "MoveMade",
                                {"seat": seq % 3, "action": {"type": "stay"}}, f"seat:{seq % 3}", NOW).hash
    return game_id


def load(db, game_id):
    with db.reading() as session:
        return store.load(session, game_id)


def test_hash_chain_links_every_event_and_verifies(db):
    events = load(db, new_game(db))
    assert events[0].prev_hash == store.GENESIS
    assert all(b.prev_hash == a.hash for a, b in zip(events, events[1:]))
    assert store.verify_chain("g1", events).ok


def test_an_edited_event_row_is_detected(db):
    new_game(db)
    with db.engine.begin() as conn:
        if db.engine.dialect.name == "postgresql":
            conn.execute(text("ALTER TABLE events DISABLE TRIGGER events_immutable"))
        else:
            conn.execute(text("DROP TRIGGER events_no_update"))
        conn.execute(text("UPDATE events SET actor = 'seat:9' WHERE seq = 2"))
        if db.engine.dialect.name == "postgresql":
            conn.execute(text("ALTER TABLE events ENABLE TRIGGER events_immutable"))
    report = store.verify_chain("g1", load(db, "g1"))
    assert not report.ok and report.broken_at == 2 and "hash" in report.reason


def test_the_database_refuses_update_and_delete_of_events(db):
    new_game(db)
    for statement in ("UPDATE events SET actor = 'x' WHERE seq = 1", "DELETE FROM events WHERE seq = 1"):
        with pytest.raises(Exception, match="immutable"):
            with db.engine.begin() as conn:
                conn.execute(text(statement))
    assert len(load(db, "g1")) == 3


def test_appending_a_taken_seq_is_a_conflict(db):
    new_game(db)
    with pytest.raises(store.Conflict):
        with db.unit_of_work() as session:
            store.append(session, "g1", 3, "x" * 64, "MoveMade", {}, "seat:0", NOW)
    assert len(load(db, "g1")) == 3


def test_concurrent_appends_of_the_same_seq_have_exactly_one_winner(db):
    new_game(db)
    head = load(db, "g1")[-1]
    barrier = threading.Barrier(8)
    results = []

    def writer(i):
        barrier.wait()
        try:
            with db.unit_of_work() as session:
                store.append(session, "g1", 4, head.hash, "MoveMade", {"seat": i}, f"seat:{i}", NOW)
            results.append("won")
        except store.Conflict:
            results.append("conflict")
        except Exception as error:  # noqa: BLE001  a server error: counted, and it fails below
            results.append(f"error:{type(error).__name__}")

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict"] * 7 + ["won"], results  # never "database is locked"
    events = load(db, "g1")
    assert len(events) == 4 and store.verify_chain("g1", events).ok


def test_an_append_is_undone_when_its_unit_of_work_fails_later(db):
    """The event, its outbox rows and projections commit together or not at all — on SQLite
    too, where the driver's own transaction handling would let RELEASE SAVEPOINT commit."""
    new_game(db)
    head = load(db, "g1")[-1]
    with pytest.raises(RuntimeError):
        with db.unit_of_work() as session:
            store.append(session, "g1", 4, head.hash, "MoveMade", {"seat": 0}, "seat:0", NOW)
            raise RuntimeError("something after the append failed")
    assert len(load(db, "g1")) == 3


class DriverError(Exception):
    """What a database driver raises: an error with PostgreSQL's SQLSTATE code."""

    def __init__(self, sqlstate):
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


@pytest.mark.parametrize("sqlstate", ["40P01", "40001"])  # deadlock detected, could not serialize
def test_a_unit_of_work_the_database_aborted_for_a_race_is_a_conflict_and_writes_nothing(db, sqlstate):
    """Two writers of one game that wait for each other (a vacation switch and the sweep's
    timeout of that seat): the one PostgreSQL aborts is told the game moved on, as a writer
    that lost the seq is, never a server error; nothing of its transaction stays."""
    from sqlalchemy.exc import OperationalError

    with pytest.raises(store.Conflict, match="moved on"):
        with db.unit_of_work() as session:
            session.add(GameRow(id="raced", game="incan_gold", status="active", head_seq=0,
                                created_at=NOW, updated_at=NOW))
            session.flush()
            raise OperationalError("UPDATE deadlines", {}, DriverError(sqlstate))
    with db.reading() as session:
        assert session.get(GameRow, "raced") is None


def test_a_unit_of_work_that_failed_otherwise_keeps_its_database_error(db):
    from sqlalchemy.exc import OperationalError

    with pytest.raises(OperationalError):
        with db.unit_of_work():
            raise OperationalError("SELECT 1", {}, DriverError("08006"))  # connection failure


def test_a_commands_write_with_a_taken_seq_writes_none_of_its_events_or_rows(db):
    """A command's one write (``move_writes``: one statement on PostgreSQL, its statements one
    by one on SQLite, in one transaction) is all or nothing: when another command took the
    first of its seqs, neither its later event nor its game row nor its mail is written."""
    from service.store import move_writes
    from service.store.models import OutboxRow

    new_game(db, moves=2)
    events = load(db, "g1")
    first, first_values = store.new_event("g1", 3, events[-1].hash, "MoveMade", {"n": 3},
                                          "seat:0", NOW)
    _second, second_values = store.new_event("g1", 4, first.hash, "MoveMade", {"n": 4},
                                             "seat:1", NOW)
    with db.unit_of_work() as session:  # another command took seq 3 first
        store.append(session, "g1", 3, events[-1].hash, "MoveMade", {"other": True}, "x", NOW)
    with pytest.raises(store.Conflict), db.unit_of_work() as session:
        move_writes.execute(session, move_writes.Write(
            "g1", (session.get(GameRow, "g1"), "finished", 4, NOW), [first_values, second_values],
            outbox=[{"game_id": "g1", "seat": 0, "kind": "game_over", "seq": 4,
                     "to_addr": "p0@example.com", "status": "pending", "attempts": 0,
                     "next_attempt_at": NOW, "created_at": NOW, "message_id": "<g1.4.0@x>"}]))
    assert [e.seq for e in load(db, "g1")] == [1, 2, 3]
    with db.reading() as session:
        assert session.get(GameRow, "g1").status == "active"
        assert session.query(OutboxRow).count() == 0
