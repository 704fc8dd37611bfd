"""Game end and scoring (ja "ゲームの目的"; notes "End", "Artifacts")."""
from __future__ import annotations

from .helpers import GAME, everyone, staged


def finished(players: int = 3, tents=(0, 0, 0), artifacts=([], [], [])) -> dict:
    """A game played to its end (everyone leaves at once each round), then scored as given."""
    state = staged(players, path=["t1"], next_cards=["t2"])
    while GAME.outcome(state) is None:
        everyone(state, "leave")
    for player, tent, arts in zip(state["players"], tents, artifacts):
        player["tent"], player["artifacts"] = tent, list(arts)
    return state


def test_game_ends_after_five_rounds():
    """Rule (ja: ゲームは5ラウンド行う): after round 5 nobody acts and there is an outcome."""
    state = staged(3, path=["t1"], next_cards=["t2"])
    rounds = 0
    while GAME.outcome(state) is None:
        assert GAME.to_act(state)
        everyone(state, "leave")
        rounds += 1
    assert rounds == 5 and GAME.to_act(state) == [] and state["phase"] == "over"
    assert GAME.decision_key(state, 0) == "over"


def test_score_is_tent_plus_artifacts():
    """Rule (ja 遺物: カードに記された数字分の価値; ja 目的: 宝石の価値が一番多い)."""
    state = finished(tents=(20, 18, 3), artifacts=([], [5], [7, 12]))
    assert GAME.outcome(state) == {"scores": {0: 20, 1: 23, 2: 22}, "winners": [1]}


def test_tie_is_broken_by_number_of_artifacts():
    """Rule (notes "End": Tie: more artifacts wins)."""
    state = finished(tents=(12, 7, 0), artifacts=([], [5], [5, 7]))
    assert GAME.outcome(state)["winners"] == [2]


def test_tie_on_score_and_artifacts_is_shared():
    """Rule (notes "End": still tied: shared victory)."""
    state = finished(tents=(10, 5, 2), artifacts=([5], [10], [5, 7]))
    assert GAME.outcome(state)["winners"] == [0, 1]


def test_no_outcome_before_the_end():
    """Protocol: outcome is None while the game runs."""
    assert GAME.outcome(staged(3, path=["t1"], next_cards=["t2"])) is None


def test_classic_artifacts_first_three_claimed_worth_5_later_10():
    """Rule (notes, 2006 edition: first three claimed worth 5 each, 4th and 5th 10 each), valued
    in claim order, several at once in path order."""
    state = staged(3, options={"artifacts": "classic"},
                   path=["x1", "x2", "t1"], next_cards=["x3", "x4", "x5"])
    everyone(state, {0: "leave", 1: "stay", 2: "stay"})   # claims x1, x2; x3 is turned
    assert state["players"][0]["artifacts"] == [5, 5]
    everyone(state, {1: "stay", 2: "stay"})               # x4 turned
    everyone(state, {1: "leave", 2: "stay"})              # seat 1 claims x3, x4; x5 turned
    assert state["players"][1]["artifacts"] == [5, 10]
    everyone(state, {2: "leave"})
    assert state["players"][2]["artifacts"] == [10]


def test_2018_artifacts_are_worth_their_number():
    """Rule (ja 遺物カード: 5、7、8、10、12と記された…記された数字分の価値)."""
    state = staged(3, path=["a5", "a12"], next_cards=["t1"])
    everyone(state, {0: "leave", 1: "stay", 2: "stay"})
    assert state["players"][0]["artifacts"] == [5, 12]
