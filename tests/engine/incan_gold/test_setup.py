"""Setup, deck contents, round start (ja "準備・セッティング", "ラウンドの準備"; notes)."""
from __future__ import annotations

from collections import Counter

import pytest

from engine import IllegalAction, canonical_json
from engine.games.incan_gold import data

from .helpers import GAME, find_seed


@pytest.mark.parametrize("players", range(3, 9))
def test_three_to_eight_players_can_start(players):
    """Rule (ja "ゲームの概要": プレイ人数 3人～8人): 3..8 players."""
    state = GAME.setup([f"P{i}" for i in range(players)], 5, {})
    assert len(state["players"]) == players
    assert GAME.min_players == 3 and GAME.max_players == 8


@pytest.mark.parametrize("players", [0, 1, 2, 9])
def test_other_player_counts_are_refused(players):
    """Rule (ja "ゲームの概要"): fewer than 3 or more than 8 players is not a game."""
    with pytest.raises(IllegalAction, match="3–8 players"):
        GAME.setup([f"P{i}" for i in range(players)], 5, {})


def test_unknown_option_is_refused():
    """Protocol: an unknown option is an error, never silently ignored."""
    with pytest.raises(IllegalAction, match="unknown option"):
        GAME.setup(["a", "b", "c"], 1, {"speed": "fast"})


def test_unknown_artifact_edition_is_refused():
    """Notes "Artifacts": only the 2018 and the classic (2006) editions exist."""
    with pytest.raises(IllegalAction, match="artifacts must be one of"):
        GAME.setup(["a", "b", "c"], 1, {"artifacts": "2030"})


def test_default_edition_is_2018_and_classic_is_an_option():
    """Notes: the Japanese text is the 2018/2020 edition; the 2006 rules are option 'classic'."""
    assert GAME.setup(["a", "b", "c"], 1, {})["options"] == {"artifacts": "2018"}
    assert GAME.setup(["a", "b", "c"], 1, {"artifacts": "classic"})["options"] == {
        "artifacts": "classic"}


def test_quest_deck_has_the_15_treasures_and_15_hazards():
    """Rule (notes "Quest deck"; ja "探検カード…30枚"): treasures 1,2,3,4,5,5,7,7,9,11,11,13,14,
    15,17 (124 gems, the 17 included) and 5 hazard kinds x 3."""
    counts = Counter(data.QUEST_DECK)
    treasures = sorted(data.CARDS[c]["value"] for c in data.QUEST_DECK
                       if data.CARDS[c]["type"] == "treasure")
    assert treasures == [1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17]
    assert sum(treasures) == 124 == data.TOTAL_TREASURE
    assert {k: counts[f"h:{k}"] for k in data.HAZARD_KINDS} == {
        "spiders": 3, "mummies": 3, "fire": 3, "snakes": 3, "rockfall": 3}
    assert len(data.QUEST_DECK) == 30


def test_round_one_deck_is_quest_deck_plus_artifact_5():
    """Rule (ja "ラウンドの準備"): the lowest temple card's artifact (5) is shuffled into the
    30 quest cards."""
    state = GAME.setup(["a", "b", "c"], 9, {})
    cards = state["deck"] + [c["card"] for c in state["path"]]
    assert Counter(cards) == Counter(list(data.QUEST_DECK) + ["a5"])


def test_nobody_decides_before_the_first_card():
    """Rule (ja "ターンの流れ": 最初のターンは「３. 探検を続けるプレイヤー」から開始する): the
    round opens by turning a card; only then does everyone choose."""
    state = find_seed(lambda s: s["path"][0]["type"] != "hazard")
    assert len(state["path"]) == 1
    assert GAME.to_act(state) == [0, 1, 2, 3]
    assert state["epoch"] == 1


def test_first_card_hazard_is_followed_at_once_by_the_next_card():
    """Rule (ja 【注意】ラウンド開始1枚目が「障害カード」; notes): a hazard as first card stays on
    the path and the next card is turned at once, without a decision."""
    state = find_seed(lambda s: s["round"] == 1 and s["path"][0]["type"] == "hazard"
                      and s["path"][1]["type"] != "hazard")
    assert len(state["path"]) == 2
    assert state["epoch"] == 2
    assert GAME.to_act(state) == [0, 1, 2, 3]


def test_first_card_hazard_then_other_hazard_only_one_extra_card():
    """Decision (docs): the extra card is turned once; if it is another kind, players decide."""
    state = find_seed(lambda s: s["round"] == 1 and len(s["path"]) == 2
                      and s["path"][1]["type"] == "hazard")
    assert [c["type"] for c in state["path"]] == ["hazard", "hazard"]
    assert GAME.to_act(state) == [0, 1, 2, 3]


def test_first_two_cards_same_hazard_end_the_round_at_once():
    """Rule (ja 障害カード 2枚目 + 【注意】): a repeat on the extra card ends the round before
    anyone decides; that copy is removed."""
    state = find_seed(lambda s: s["round"] == 2 and s["history"][0]["hazard"] is not None)
    first = state["history"][0]
    assert [c["type"] for c in first["path"]] == ["hazard", "hazard"]
    assert state["removed_hazards"] == [first["hazard"]]


def test_same_seed_same_game_and_other_seed_other_order():
    """Rule (engine.core): all chance comes from the seed; replay is exact."""
    a = GAME.setup(["a", "b", "c"], 42, {})
    b = GAME.setup(["a", "b", "c"], 42, {})
    assert canonical_json(a) == canonical_json(b)
    assert any(GAME.setup(["a", "b", "c"], s, {})["deck"] != a["deck"] for s in range(43, 46))


def test_classic_artifacts_enter_in_seeded_random_order():
    """Notes (2006 edition): artifacts are added at random, one per round."""
    orders = {tuple(GAME.setup(["a", "b", "c"], s, {"artifacts": "classic"})["artifacts_in_deck"]
                    + GAME.setup(["a", "b", "c"], s, {"artifacts": "classic"})["artifacts_to_come"])
              for s in range(12)}
    assert len(orders) > 1
    assert all(sorted(o) == ["x1", "x2", "x3", "x4", "x5"] for o in orders)


def test_2018_artifacts_enter_as_5_7_8_10_12():
    """Rule (ja "準備": 遺物「５」… 昇順で): artifact 5 in round 1, then 7, 8, 10, 12."""
    state = GAME.setup(["a", "b", "c"], 1, {})
    assert state["artifacts_in_deck"] + state["artifacts_to_come"] == [
        "a5", "a7", "a8", "a10", "a12"]
    assert [data.CARDS[c]["value"] for c in data.EDITIONS["2018"]["cards"]] == [5, 7, 8, 10, 12]
