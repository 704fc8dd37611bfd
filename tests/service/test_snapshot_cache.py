"""The process cache of decoded snapshots (service/store/snapshots.py, ``StateCache``) and
``snapshots.apply``: the pieces of the load that need no database."""
from __future__ import annotations

from engine import get_game
from service.store import snapshots
from service.store.events import GENESIS, Event


def test_every_hit_is_a_new_tree_equal_to_what_was_put():
    cache = snapshots.StateCache(4)
    state = {"board": [[1, 2], {"a": [3]}], "epoch": 2}
    cache.put("g", "1", 10, "d", state)
    state["board"][0].append(99)  # the caller goes on mutating its own copy
    first = cache.thaw(cache.get("g", "1"))
    first["board"][1]["a"].append(4)
    second = cache.thaw(cache.get("g", "1"))
    assert second == {"board": [[1, 2], {"a": [3]}], "epoch": 2}
    assert second is not first and second["board"] is not first["board"]


def test_a_game_keeps_only_its_newest_put_and_the_least_recently_used_game_goes_first():
    cache = snapshots.StateCache(2)
    cache.put("a", "1", 10, "x", {"n": 10})
    cache.put("a", "1", 20, "y", {"n": 20})
    assert cache.get("a", "1")[:2] == (20, "y")
    cache.put("b", "1", 5, "z", {})
    cache.get("a", "1")  # a was used last: b goes when c comes
    cache.put("c", "1", 5, "z", {})
    assert cache.get("b", "1") is None and cache.get("a", "1") and cache.get("c", "1")
    assert cache.get("a", "2") is None  # another rules version is another key


def test_newest_names_the_rules_version_of_the_games_last_put():
    """One entry per game: a put under a new rules version replaces the game's old entry."""
    cache = snapshots.StateCache(2)
    assert cache.newest("a") is None
    cache.put("a", "1", 10, "x", {"n": 10})
    assert cache.newest("a") == ("1", cache.get("a", "1"))
    cache.put("a", "2", 20, "y", {"n": 20})
    version, item = cache.newest("a")
    assert (version, item[:2]) == ("2", (20, "y")) and cache.thaw(item) == {"n": 20}
    assert cache.get("a", "1") is None
    cache.put("b", "1", 5, "z", {})
    cache.put("c", "1", 5, "z", {})  # a was used least recently
    assert cache.newest("a") is None


def test_a_cache_of_size_zero_holds_nothing():
    cache = snapshots.StateCache(3)
    cache.put("a", "1", 10, "x", {})
    cache.resize(0)
    cache.put("b", "1", 10, "x", {})
    assert cache.get("a", "1") is None and cache.get("b", "1") is None


def test_apply_reports_the_epoch_just_before_the_last_move():
    game = get_game("incan_gold")
    state = game.setup(["A", "B", "C"], 7, {})
    epochs, moves, seq = [], [], 1
    while len(moves) < 12:  # every seat stays in: each full round reveals a card
        for seat in game.to_act(state):
            action = next(a for a in game.legal_actions(state, seat) if a["type"] == "stay")
            epochs.append(state.get("epoch"))
            game.apply_in_place(state, seat, action)
            seq += 1
            moves.append(Event(seq, "MoveMade", {"seat": seat, "action": action}, f"seat:{seat}",
                               None, GENESIS, GENESIS))
            if game.outcome(state) is not None or not game.to_act(state):
                break
    replayed = game.setup(["A", "B", "C"], 7, {})
    assert snapshots.apply(game, replayed, moves, 0) == (moves[-1].seq, epochs[-1])
    assert replayed == state
    assert snapshots.apply(game, replayed, [], 0) is None
    assert len(set(epochs)) > 1  # the epoch did move: the test can tell them apart
