"""Snapshots: a cache of replayed states (migration 0003, service/store/snapshots.py) that
``games.load`` starts from.  A snapshot must equal the full replay, must be ignored after a
change of the engine's rules version, and must not be used past a rollback to before it."""
from __future__ import annotations

import json
import random
from datetime import datetime, timezone

import pytest
from sqlalchemy import select

from engine import canonical_json
from service.store import snapshots
from service.store import events as store
from service.application.games import create_game, submit_move
from service.store.loading import load
from service.store.history import rebuild
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


@pytest.fixture(params=[2, 3], ids=["version 2", "version 3"])
def rewound_game(request, db, monkeypatch):
    """A game of schema version 2 (a rewind gives back the state it went to) or 3 (a rewind
    also reshuffles what nobody has seen)."""
    monkeypatch.setattr(store, "SCHEMA_VERSION", request.param)
    with db.unit_of_work() as session:
        game_id, _ = create_game(session, "incan_gold", PLAYERS, 11, {}, "admin", NOW, "it")
    return game_id


def assert_rewound_to(db, game_id: str, to_seq: int) -> None:
    """The load equals the full replay, and that is the state right after ``to_seq`` as
    every seat sees it (exactly that state in a game that does not reshuffle)."""
    with db.reading() as session:
        loaded = load(session, game_id)
    assert canonical_json(loaded.state) == full_replay(db, game_id)
    then = json.loads(full_replay(db, game_id, to_seq))
    for seat in (None, *range(len(PLAYERS))):
        assert loaded.game.view(loaded.state, seat) == loaded.game.view(then, seat)
    if loaded.first.payload["schema_version"] < 3:
        assert loaded.state == then


def test_every_snapshot_equals_the_full_replay_and_load_agrees_after_every_move(db, game_id):
    chooser = random.Random(3)
    seen: dict[int, str] = {}
    while play_moves(db, game_id, 1, chooser):
        assert loaded_state(db, game_id) == full_replay(db, game_id)
        seen.update((row.seq, canonical_json(row.state)) for row in stored(db, game_id))
    head = len(store_events(db, game_id))
    assert len(seen) >= head // 5 - 1, (len(seen), head)
    for seq, state in seen.items():
        assert state == full_replay(db, game_id, upto=seq), seq
    assert all(b - a >= 5 for a, b in zip(sorted(seen), sorted(seen)[1:]))


def test_a_game_keeps_only_its_newest_snapshots_and_loads_before_them_still_agree(db, game_id):
    """Pruning: the newest ``KEEP`` of the current rules version stay; a load at an older seq
    (an audit) replays from GameCreated and equals the full replay."""
    chooser = random.Random(8)
    play_moves(db, game_id, 12, chooser)
    with db.unit_of_work() as session:  # a snapshot of code no longer running here
        session.execute(snapshots.snapshots.insert().values(
            game_id=game_id, seq=3, rules_version="old-rules", state={"stale": True},
            created_at=NOW))
    assert play_moves(db, game_id, 25, chooser) == 25
    rows = stored(db, game_id)
    version = {r.rules_version for r in rows}
    assert len(version) == 1 and "old-rules" not in version
    assert len(rows) == snapshots.KEEP
    head = store_events(db, game_id)[-1].seq
    assert rows[-1].seq > head - 5
    for upto in (2, rows[0].seq - 1, rows[0].seq, head):
        with db.reading() as session:
            assert canonical_json(load(session, game_id, upto=upto).state) == \
                full_replay(db, game_id, upto=upto), upto


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


def test_a_rollback_to_before_a_snapshot_is_replayed_in_full(db, rewound_game):
    game_id = rewound_game
    play_moves(db, game_id, 12, random.Random(8))
    events = store_events(db, game_id)
    assert stored(db, game_id), "a snapshot should exist by now"
    with db.unit_of_work() as session:
        store.append(session, game_id, events[-1].seq + 1, events[-1].hash, "RolledBack",
                     {"to_seq": 3}, "admin", NOW)
    assert_rewound_to(db, game_id, 3)


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


def test_a_rewind_after_the_snapshot_still_starts_from_it_and_equals_the_replay(db, rewound_game):
    game_id = rewound_game
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
    assert_rewound_to(db, game_id, base)


def test_a_stale_link_from_before_the_snapshot_is_judged_on_every_event(db, game_id):
    """is_fresh and the stale message reach back past the snapshot: the log reads the rest."""
    from service.application.games import StaleMove, is_fresh
    play_moves(db, game_id, 13, random.Random(2))
    with db.unit_of_work() as session:
        loaded = load(session, game_id)
        seat = loaded.game.to_act(loaded.state)[0]
        assert not is_fresh(loaded, seat, 2)
        action = loaded.game.legal_actions(loaded.state, seat)[0]
        with pytest.raises(StaleMove, match="moved on"):
            submit_move(session, game_id, seat, action, 2, f"seat:{seat}", NOW, "it")


# --- the process cache of decoded snapshots ------------------------------------------------

def plant_head_snapshot(db, game_id: str) -> tuple[int, str]:
    """A (correct) snapshot at the head, so a load applies no move on top of it."""
    head = store_events(db, game_id)[-1].seq
    with db.unit_of_work() as session:
        loaded = load(session, game_id)
    with db.unit_of_work() as session:
        snapshots.save(session, game_id, head, loaded.game.rules_version, loaded.state)
    return head, loaded.game.rules_version


def test_the_process_cache_never_hands_out_a_state_a_command_mutated(db, game_id):
    play_moves(db, game_id, 12, random.Random(4))
    snapshots.CACHE.clear()
    with db.unit_of_work() as session:
        first = load(session, game_id)
        rules = first.game.rules_version
        base = first.events.tail[0].seq
        assert snapshots.CACHE.get(game_id, rules)[0] == base  # filled by the load
        first.state.clear()  # what a careless command could do to its working copy
        first.state["mutated"] = True
    for _ in range(2):  # twice from the cache: each load gets its own tree
        with db.reading() as session:
            again = load(session, game_id)
            assert again.events.tail[0].seq == base
            assert canonical_json(again.state) == full_replay(db, game_id)
            again.state["mutated"] = True


def test_a_cached_snapshot_is_used_only_while_it_is_the_stored_one(db, game_id, monkeypatch):
    """The cache is really used (a planted cache entry shows), is missed as soon as the stored
    snapshot's text changes (its digest), and is missed after a rules-version change."""
    play_moves(db, game_id, 7, random.Random(6))
    head, rules = plant_head_snapshot(db, game_id)
    snapshots.CACHE.clear()
    loaded_state(db, game_id)  # fills the cache from the stored snapshot
    seq, digest, _ = snapshots.CACHE.get(game_id, rules)
    assert seq == head
    snapshots.CACHE.put(game_id, rules, seq, digest, {"from": "cache"})
    assert loaded_state(db, game_id) == canonical_json({"from": "cache"})  # a hit
    with db.unit_of_work() as session:  # the stored snapshot changes: a miss, the new text
        session.execute(snapshots.snapshots.update().where(
            snapshots.snapshots.c.game_id == game_id, snapshots.snapshots.c.seq == head
        ).values(state={"planted": True}))
    assert loaded_state(db, game_id) == canonical_json({"planted": True})
    snapshots.CACHE.put(game_id, rules, seq, digest, {"from": "cache"})
    with db.reading() as session:
        game = load(session, game_id, upto=head - 1).game  # (an older load: not cached)
    monkeypatch.setattr(game, "rules_version", rules + "-next")
    assert loaded_state(db, game_id) == full_replay(db, game_id)


# --- the play page's undo check --------------------------------------------------------------

def reference_undo_label(db, game_id: str, seat: int) -> str | None:
    """The undo check as it was: every event read, the game replayed up to the last move."""
    from service.store.history import INFO_EVENTS, effective_moves
    events = store_events(db, game_id)
    game, state = rebuild(events)
    with db.reading() as session:
        status = load(session, game_id).row.status
    moves = effective_moves(events)
    if status != "active" or game.outcome(state) is not None or not moves:
        return None
    last, me = moves[-1], f"seat:{seat}"
    if last.kind != "MoveMade" or last.payload.get("seat") != seat or last.actor != me:
        return None
    if any(e.kind not in INFO_EVENTS and (e.actor != me or e.kind not in ("MoveMade", "Undone"))
           for e in events[last.seq:]):
        return None
    _, before = rebuild([e for e in events if e.seq < last.seq])  # rewinds' reshuffles too
    if before.get("epoch") != state.get("epoch"):
        return None
    return last.payload.get("label") or "your last move"


def test_the_undo_check_agrees_with_the_full_replay_and_reads_only_the_tail(db, game_id):
    """After every move of a game (and some undos), for every seat: the play page's check
    gives what the full replay gives, and from a snapshot it reads no event before the tail."""
    from service.application.admin_commands import undo_label, undo_move
    chooser, checked, lean = random.Random(12), 0, 0
    while play_moves(db, game_id, 1, chooser):
        with db.reading() as session:
            loaded = load(session, game_id)
            labels = [undo_label(loaded, seat, session) for seat in range(len(PLAYERS))]
            if not loaded.events.complete and loaded.before_last is not None:
                lean += 1  # (when the load applied the last move, nothing more was read)
        assert labels == [reference_undo_label(db, game_id, s) for s in range(len(PLAYERS))]
        checked += sum(label is not None for label in labels)
        if labels[0] is not None and chooser.random() < 0.5:
            with db.unit_of_work() as session:
                undo_move(session, game_id, 0, loaded.seq, NOW, "it")
    assert checked >= 5 and lean >= 5, (checked, lean)


def test_the_undo_check_loads_the_state_before_a_move_that_a_snapshot_covers(db, game_id):
    """A snapshot taken right after the seat's move: the load applied no move, so the state
    before it is loaded (from an older snapshot) rather than the game replayed; tried on a
    move that may be taken back and on one that revealed something (a new epoch)."""
    from service.application.admin_commands import undo_label
    chooser, seen = random.Random(1), set()
    for _ in range(300):
        if not play_moves(db, game_id, 1, chooser):
            break
        with db.reading() as session:
            loaded = load(session, game_id)
        seat = loaded.head.payload.get("seat")
        if loaded.head.kind != "MoveMade" or loaded.seq <= 7:
            continue
        expected = reference_undo_label(db, game_id, seat)
        revealed = (json.loads(full_replay(db, game_id)).get("epoch")
                    != json.loads(full_replay(db, game_id, loaded.seq - 1)).get("epoch"))
        case = "undoable" if expected is not None else "revealed" if revealed else None
        if case is None or case in seen:
            continue
        seen.add(case)
        plant_head_snapshot(db, game_id)
        with db.reading() as session:
            loaded = load(session, game_id)
            assert loaded.events.tail[0].seq == loaded.seq and loaded.before_last is None
            assert undo_label(loaded, seat, session) == expected, case
            assert undo_label(loaded, seat) == expected, case  # no session: the replay
        if len(seen) == 2:
            return
    pytest.fail(f"only {seen} found")
