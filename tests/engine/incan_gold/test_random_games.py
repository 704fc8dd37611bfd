"""Random legal games, 3..8 players, both editions: they end, conserve gems, replay exactly,
and a secret choice never shows in another seat's view before the reveal."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from engine import canonical_json

from .helpers import GAME
from tests.engine.playthrough import assert_replay_equals_live, play_random_game


def gems_revealed(state: dict) -> int:
    """Counted from the public record, independently of the engine's own counter."""
    paths = [h["path"] for h in state["history"]] + [state["path"]]
    return sum(c["value"] for path in paths for c in path if c["type"] == "treasure")


def assert_gems_conserved(state: dict) -> None:
    """Rule (ja: gems move only card -> carried -> tent, or back to the supply when lost):
    gems on cards + carried + tents + lost == gems revealed."""
    on_cards = sum(c["gems_left"] for c in state["path"])
    carried = sum(p["carrying"] for p in state["players"])
    tents = sum(p["tent"] for p in state["players"])
    lost = sum(h["gems_lost"] for h in state["history"])
    assert lost == state["gems_lost"]
    assert on_cards + carried + tents + lost == gems_revealed(state) == state["gems_revealed"]


def assert_choice_is_private(before: dict, after: dict, seat: int, action: dict) -> None:
    """Rule (ja 1: ひそかに握り … いっせーのせ): until the reveal, every other seat's view is
    byte-identical whichever choice ``seat`` made; no other seat's tent is ever shown."""
    if len(GAME.to_act(before)) == 1:
        return  # this choice was the last one: it triggered the reveal
    other = "leave" if action["type"] == "stay" else "stay"
    alt = GAME.apply(before, seat, {"type": other})
    assert alt["epoch"] == after["epoch"] == before["epoch"]
    for watcher in [None, *range(len(after["players"]))]:
        if watcher == seat:
            continue
        assert canonical_json(GAME.view(after, watcher)) == canonical_json(GAME.view(alt, watcher))


def assert_tents_hidden(state: dict) -> None:
    if GAME.outcome(state) is not None:
        return
    for watcher in [None, *range(len(state["players"]))]:
        shown = [p["tent"] is not None for p in GAME.view(state, watcher)["players"]]
        assert shown == [s == watcher for s in range(len(state["players"]))]


def check_move(game, before, after, seat, action):
    assert_gems_conserved(after)
    assert_choice_is_private(before, after, seat, action)
    assert_tents_hidden(after)
    assert after["epoch"] >= before["epoch"]
    assert after["phase"] == "over" or after["deck"], "the deck ran out"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 8), seed=st.integers(0, 2**31),
       edition=st.sampled_from(["2018", "classic"]))
def test_random_games_end_conserve_gems_keep_secrets_and_replay(players, seed, edition):
    """Rules: all of the above over whole games; protocol: replay == live, byte for byte."""
    options = {"artifacts": edition}
    state, moves = play_random_game("incan_gold", players, seed, options, check_move)
    assert_replay_equals_live("incan_gold", players, seed, options, state, moves)
    assert state["round"] == 5 and len(state["history"]) == 5
    result = GAME.outcome(state)
    assert set(result["scores"]) == set(range(players)) and result["winners"]
    claimed = sum(len(p["artifacts"]) for p in state["players"])
    assert claimed == state["artifacts_claimed"] <= 5


@settings(max_examples=40, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**31))
def test_if_nobody_ever_leaves_every_round_ends_on_a_repeated_hazard(players, seed):
    """Rule (ja 4; notes): with everyone staying, each round ends on a second hazard, that copy
    is removed (5 in all), gems are conserved, and the deck never runs out (docs decision)."""
    state = GAME.setup([f"P{i}" for i in range(players)], seed, {})
    while GAME.outcome(state) is None:
        assert state["deck"]
        for seat in GAME.to_act(state):
            GAME.apply_in_place(state, seat, {"type": "stay"})
        assert_gems_conserved(state)
    assert [h["ended_by"] for h in state["history"]] == ["hazard"] * 5
    assert len(state["removed_hazards"]) == 5
    assert all(p["tent"] == 0 and p["artifacts"] == [] for p in state["players"])
    assert state["gems_lost"] == state["gems_revealed"]


@settings(max_examples=30, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**31),
       edition=st.sampled_from(["2018", "classic"]))
def test_bot_games_conserve_gems_and_artifacts(players, seed, edition):
    """Rules: gems conserved and artifacts either claimed, lost on a path, or still in the deck
    when bots (who stay longer than random players) play whole games."""
    state = GAME.setup([f"P{i}" for i in range(players)], seed, {"artifacts": edition})
    while GAME.outcome(state) is None:
        for seat in GAME.to_act(state):
            GAME.apply_in_place(state, seat, GAME.bot_action(state, seat))
        assert_gems_conserved(state)
    claimed = sum(len(p["artifacts"]) for p in state["players"])
    lost = sum(h["artifacts_lost"] for h in state["history"])
    assert claimed + lost + len(state["artifacts_in_deck"]) == 5
