"""Issue 9, snapshots: a cache of replayed states (migration 0003, service/snapshots.py) that
``games.load`` starts from.  A snapshot must equal the full replay, must be ignored after a
change of the engine's rules version, and must not be used past a rollback to before it."""
from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest
from sqlalchemy import select

from engine import canonical_json
from service import snapshots, store
from service.games import create_game, load, submit_move
from service.history import rebuild
from tests.integration.test_faults import services

pytestmark = pytest.mark.integration

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
PLAYERS = [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(4)]


def play_moves(db, game_id: str, count: int, chooser: random.Random) -> int:
    """Random legal moves through the service's command, one unit of work each."""
    made = 0
    for _ in range(count):
        with db.unit_of_work() as session:
            loaded = load(session, game_id)
            to_act = loaded.game.to_act(loaded.state)
            if not to_act or loaded.row.status != "active":
                return made
            seat = chooser.choice(to_act)
            action = chooser.choice(loaded.game.legal_actions(loaded.state, seat))
            submit_move(session, game_id, seat, action, loaded.seq, f"seat:{seat}", NOW, "it")
        made += 1
    return made


def full_replay(db, game_id: str, upto: int | None = None) -> str:
    with db.reading() as session:
        events = store.load(session, game_id)
    if upto is not None:
        events = [e for e in events if e.seq <= upto]
    return canonical_json(rebuild(events)[1])


def loaded_state(db, game_id: str) -> str:
    with db.reading() as session:
        return canonical_json(load(session, game_id).state)


def stored(db, game_id: str) -> list:
    with db.reading() as session:
        return list(session.execute(select(snapshots.snapshots).where(
            snapshots.snapshots.c.game_id == game_id).order_by(snapshots.snapshots.c.seq)))


@pytest.fixture
def db(app, monkeypatch):
    monkeypatch.setattr(snapshots, "EVERY", 5)  # many snapshots in a short game
    return services(app).db


@pytest.fixture
def game_id(db):
    with db.unit_of_work() as session:
        game_id, _ = create_game(session, "incan_gold", PLAYERS, 11, {}, "admin", NOW, "it")
    return game_id


def test_every_snapshot_equals_the_full_replay_and_load_agrees_after_every_move(db, game_id):
    chooser = random.Random(3)
    while play_moves(db, game_id, 1, chooser):
        assert loaded_state(db, game_id) == full_replay(db, game_id)
    rows = stored(db, game_id)
    head = len(store_events(db, game_id))
    assert len(rows) >= head // 5 - 1, (len(rows), head)
    for row in rows:
        assert canonical_json(row.state) == full_replay(db, game_id, upto=row.seq), row.seq
    assert all(b.seq - a.seq >= 5 for a, b in zip(rows, rows[1:]))


def store_events(db, game_id):
    with db.reading() as session:
        return store.load(session, game_id)


def test_load_starts_from_the_snapshot_and_a_rules_version_change_ignores_it(db, game_id,
                                                                              monkeypatch):
    play_moves(db, game_id, 12, random.Random(5))
    head = store_events(db, game_id)[-1].seq
    with db.reading() as session:
        game = load(session, game_id).game
    # a planted (wrong) snapshot at the head proves load really starts from it...
    with db.unit_of_work() as session:
        snapshots.save(session, game_id, head, game.rules_version, {"planted": True})
    assert loaded_state(db, game_id) == canonical_json({"planted": True})
    # ...and a new rules version misses it: the full replay again, and a fresh snapshot
    monkeypatch.setattr(game, "rules_version", game.rules_version + "-next")
    assert loaded_state(db, game_id) == full_replay(db, game_id) != canonical_json({"planted": True})
    with db.unit_of_work() as session:
        load(session, game_id)
    versions = {(r.seq, r.rules_version) for r in stored(db, game_id)}
    assert (head, game.rules_version) in versions


def test_a_rollback_to_before_a_snapshot_is_replayed_in_full(db, game_id):
    play_moves(db, game_id, 12, random.Random(8))
    events = store_events(db, game_id)
    assert stored(db, game_id), "a snapshot should exist by now"
    with db.unit_of_work() as session:
        store.append(session, game_id, events[-1].seq + 1, events[-1].hash, "RolledBack",
                     {"to_seq": 3}, "admin", NOW)
    assert loaded_state(db, game_id) == full_replay(db, game_id) == full_replay(db, game_id, 3)


def test_a_load_from_a_snapshot_reads_only_its_tail_and_the_rest_on_demand(db, game_id):
    """The lean load: GameCreated and the events from the snapshot on; anything older is read
    when asked for, and then every event is exactly what the store holds."""
    play_moves(db, game_id, 13, random.Random(2))
    everything = store_events(db, game_id)
    with db.unit_of_work() as session:
        loaded = load(session, game_id)
        log = loaded.events
        assert not log.complete and log.tail[0].seq > 1, log
        assert loaded.first == everything[0] and loaded.head == everything[-1]
        assert len(log) == loaded.seq == everything[-1].seq
        assert log[-1] == everything[-1] and log[0] == everything[0]
        start = log.tail[0].seq
        assert loaded.since(start) == everything[start:]  # from the tail: nothing read
        assert not log.complete
        assert loaded.since(1) == everything[1:]  # reaches back: the rest is read
        assert log.complete and list(log) == everything and log[:] == everything
    with db.reading() as session:  # and after the session is closed (a status page)
        late = load(session, game_id)
    assert late.events.all() == everything


def test_a_rewind_after_the_snapshot_still_starts_from_it_and_equals_the_replay(db, game_id):
    play_moves(db, game_id, 12, random.Random(8))
    with db.reading() as session:
        loaded = load(session, game_id)
        base = loaded.events.tail[0].seq
    assert base > 1
    events = store_events(db, game_id)
    with db.unit_of_work() as session:  # back to just after the snapshot's own seq
        store.append(session, game_id, events[-1].seq + 1, events[-1].hash, "RolledBack",
                     {"to_seq": base}, "admin", NOW)
    with db.reading() as session:
        loaded = load(session, game_id)
        assert loaded.events.tail[0].seq == base  # still the lean load
        assert canonical_json(loaded.state) == full_replay(db, game_id) == full_replay(db, game_id, base)


def test_a_stale_link_from_before_the_snapshot_is_judged_on_every_event(db, game_id):
    """is_fresh and the stale message reach back past the snapshot: the log reads the rest."""
    from service.games import StaleMove, is_fresh
    play_moves(db, game_id, 13, random.Random(2))
    with db.unit_of_work() as session:
        loaded = load(session, game_id)
        seat = loaded.game.to_act(loaded.state)[0]
        assert not is_fresh(loaded, seat, 2)
        action = loaded.game.legal_actions(loaded.state, seat)[0]
        with pytest.raises(StaleMove, match="moved on"):
            submit_move(session, game_id, seat, action, 2, f"seat:{seat}", NOW, "it")
