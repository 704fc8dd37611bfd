"""Rollbacks that hand nobody the future: in a game of schema version 3 every rewind
(``RolledBack``, ``Undone``) reshuffles what nobody has seen, keyed by the rewind's own seq,
and the live state, a full replay and a replay from a snapshot all agree.  Earlier games
rewind exactly as they always did."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import GAMES, clone, get_game
from service.store import events as event_store, fairness, snapshots
from service.store.events import GENESIS, Event
from service.store.history import rebuild, reshuffles
from service.store.loading import load
from service.store.randomness import reshuffle_key
from tests.service.test_admin_support import everyone_agrees, move, post_form, site_admin, svc
from tests.service.test_admin_undo import undo


def created(name: str, players: int, seed: int, version: int) -> Event:
    payload = {"game": name, "players": [f"P{i}" for i in range(players)], "options": {},
               "schema_version": version}
    return Event(1, "GameCreated", payload, "system", None, GENESIS, GENESIS, {"seed": str(seed)})


def played(name: str, seed: int, version: int, length: int):
    """Random moves and rewinds, with the live state kept as the service means it: a rewind
    goes back to the state after ``to_seq`` and, from version 3 on, reshuffles it with the
    rewind's key.  Returns (events, state after each seq)."""
    game = get_game(name)
    chooser = random.Random(seed)
    first = created(name, game.min_players, seed, version)
    events, after = [first], {1: game.setup(first.payload["players"], seed, {})}
    live = clone(after[1])
    for seq in range(2, length + 2):
        if game.outcome(live) is not None:
            break
        if seq > 2 and chooser.random() < 0.2:
            to_seq = chooser.randrange(1, seq)
            kind = chooser.choice(["RolledBack", "Undone"])
            events.append(Event(seq, kind, {"to_seq": to_seq}, "admin:1", None, "", ""))
            live = clone(after[to_seq])
            if version >= 3:
                game.reshuffle_unseen(live, reshuffle_key(seed, seq))
        else:
            seat = chooser.choice(game.to_act(live))
            action = chooser.choice(game.legal_actions(live, seat))
            game.apply_in_place(live, seat, action)
            events.append(Event(seq, "MoveMade", {"seat": seat, "action": action},
                                f"seat:{seat}", None, "", ""))
        after[seq] = clone(live)
    return events, after


def assert_snapshots_replay_to(events: list[Event], after: dict, seed: int) -> None:
    """From a snapshot at any seq, the steps after it give the state a full replay gives."""
    game = get_game(events[0].payload["game"])
    head = events[-1].seq
    for base in range(2, head + 1):
        steps = snapshots.moves_since(events[base:], base, reshuffles(events[0]))
        if steps is None:
            continue  # a rewind to before the snapshot: the load replays in full
        state = clone(after[base])
        snapshots.apply(game, state, steps, seed)
        assert state == after[head], f"snapshot at seq {base}"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2 ** 64),
       version=st.sampled_from([2, 3]), length=st.integers(5, 60))
def test_random_rollbacks_keep_replay_and_snapshots_equal_to_the_live_state(name, seed, version,
                                                                            length):
    events, after = played(name, seed, version, length)
    assert rebuild(events)[1] == after[events[-1].seq]
    assert_snapshots_replay_to(events, after, seed)


def test_a_rollback_in_a_game_of_version_2_gives_back_the_state_it_went_back_to():
    events, after = played("incan_gold", 7, 2, 0)
    for seat in range(3):
        action = {"type": "stay"}
        events.append(Event(len(events) + 1, "MoveMade", {"seat": seat, "action": action},
                            f"seat:{seat}", None, "", ""))
    events.append(Event(5, "RolledBack", {"to_seq": 1}, "admin:1", None, "", ""))
    assert rebuild(events)[1] == after[1]


def test_a_rollback_in_a_game_of_version_3_reshuffles_with_its_own_seq():
    events, after = played("incan_gold", 7, 3, 0)
    events.append(Event(2, "RolledBack", {"to_seq": 1}, "admin:1", None, "", ""))
    game, state = rebuild(events)
    expected = clone(after[1])
    game.reshuffle_unseen(expected, reshuffle_key(7, 2))
    assert state == expected and state["deck"] != after[1]["deck"]


# --- through the service ------------------------------------------------------------------------

@pytest.fixture
def version_3(monkeypatch):
    """Games created now are of schema version 3 (what the service writes from now on)."""
    monkeypatch.setattr(event_store, "SCHEMA_VERSION", 3)


def loaded(app, game_id):
    with svc(app).db.reading() as session:
        return load(session, game_id)


def cards_turned(state: dict) -> list[str]:
    paths = [h["path"] for h in state["history"]] + [state["path"]]
    return [card["card"] for path in paths for card in path]


def everyone_stays(client, secrets, seq: int, turns: int) -> int:
    for _ in range(turns):
        for seat in range(3):
            assert move(client, secrets[seat], "stay", seq).status_code == 200
            seq += 1
    return seq


def test_a_rollback_past_a_reveal_turns_other_cards_and_changes_no_view(app, client, new_game,
                                                                         version_3):
    site_admin(app, client)
    data, secrets = new_game(players=3, seed=42)
    start = loaded(app, data["id"])
    assert start.events[0].payload["schema_version"] == 3
    seq = everyone_stays(client, secrets, 1, 3)  # three cards turned, seen by every seat
    seen = cards_turned(loaded(app, data["id"]).state)
    response = post_form(client, data["id"], "rollback", to_seq="1", reason="a slip", seq=str(seq))
    assert response.status_code == 303
    everyone_agrees(app, client, data["id"], secrets)
    seq += 4  # the proposal and three consents; the rollback is then the head
    rewound = loaded(app, data["id"])
    for seat in (None, 0, 1, 2):  # the rollback itself changed nothing anyone sees
        assert rewound.game.view(rewound.state, seat) == start.game.view(start.state, seat)
    assert sorted(rewound.state["deck"]) == sorted(start.state["deck"])
    everyone_stays(client, secrets, seq + 1, 3)
    again = loaded(app, data["id"])
    assert cards_turned(again.state) != seen
    assert rebuild(list(again.events))[1] == again.state


def test_a_players_undo_reshuffles_nothing_anyone_sees(app, client, new_game, version_3):
    data, secrets = new_game(players=3, seed=42)
    before = loaded(app, data["id"])
    assert move(client, secrets[0], "stay", 1).status_code == 200
    assert undo(client, secrets[0], seq=2).status_code == 303
    after = loaded(app, data["id"])
    assert after.events[-1].kind == "Undone"
    for seat in (None, 0, 1, 2):
        assert after.game.view(after.state, seat) == before.game.view(before.state, seat)
    assert after.state["deck"] != before.state["deck"]


def test_the_verifier_replays_a_rollbacks_reshuffle_as_the_service_did(app, client, new_game,
                                                                         version_3):
    """Everyone leaves at the first card of each round, a rollback in round 2: the rounds
    after it are shuffled with its key, and the record of the finished game verifies."""
    site_admin(app, client)
    data, secrets = new_game(players=3, seed=42)
    seq = 1
    for _ in range(2):
        for seat in range(3):
            assert move(client, secrets[seat], "leave", seq).status_code == 200
            seq += 1
    plain = loaded(app, data["id"]).state
    response = post_form(client, data["id"], "rollback", to_seq="4", reason="a slip", seq=str(seq))
    assert response.status_code == 303
    everyone_agrees(app, client, data["id"], secrets)
    seq += 5  # the proposal, three consents, the rollback
    game = loaded(app, data["id"])
    while game.game.outcome(game.state) is None:
        for seat in game.game.to_act(game.state):
            assert move(client, secrets[seat], "leave", seq).status_code == 200
            seq += 1
        game = loaded(app, data["id"])
    assert cards_turned(game.state)[:2] == cards_turned(plain)[:2]
    assert cards_turned(game.state)[2:] != cards_turned(plain)[2:]
    record = client.get(f"/play/{secrets[0]}/record.json").get_json()
    verdict = fairness.check_record(record)
    assert [c for c in verdict.checks if not c.ok] == [] and verdict.ok
