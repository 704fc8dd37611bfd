"""Turns: the secret choice, treasure, leaving, artifacts, hazards, round end
(ja "ターンの流れ" 1-4; notes)."""
from __future__ import annotations

from collections import Counter

import pytest

from engine import IllegalAction, canonical_json
from engine.games.incan_gold import data

from .helpers import GAME, LEAVE, STAY, everyone, staged


# ---------------------------------------------------------------- the secret choice

def test_everyone_inside_chooses_at_the_same_time():
    """Rule (ja 1.プレイヤーの決断): all players inside decide together."""
    state = staged(5, path=["t3"], next_cards=["t4"])
    assert GAME.to_act(state) == [0, 1, 2, 3, 4]
    for seat in range(5):
        assert [a["type"] for a in GAME.legal_actions(state, seat)] == ["stay", "leave"]
        assert all(a["label"] for a in GAME.legal_actions(state, seat))


def test_a_choice_waits_for_the_others_and_reveals_nothing():
    """Rule (ja 1: 全員の準備が整ったら…いっせーのせ): nothing happens until all have chosen."""
    state = staged(3, path=["t3"], next_cards=["t4"])
    epoch = state["epoch"]
    GAME.apply_in_place(state, 1, LEAVE)
    assert GAME.to_act(state) == [0, 2]
    assert state["epoch"] == epoch and state["players"][1]["in_temple"]
    assert len(state["path"]) == 1


def test_a_choice_is_final_until_the_reveal():
    """Decision (docs; ja 1: the piece is held in a closed fist until the call): a seat that has
    chosen cannot choose again this turn; the service's undo (same epoch) is the way back."""
    state = staged(3, path=["t3"], next_cards=["t4"])
    GAME.apply_in_place(state, 0, STAY)
    before = canonical_json(state)
    assert GAME.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="already chosen"):
        GAME.apply_in_place(state, 0, LEAVE)
    assert canonical_json(state) == before


def test_choices_are_revealed_when_the_last_one_inside_chooses():
    """Rule (ja 1): the reveal is simultaneous; epoch rises (hidden choices become known)."""
    state = staged(3, path=["t3"], next_cards=["t4"])
    epoch = state["epoch"]
    everyone(state, {0: "stay", 1: "leave", 2: "stay"})
    assert state["last_reveal"]["stayed"] == [0, 2] and state["last_reveal"]["left"] == [1]
    assert state["epoch"] == epoch + 2  # the reveal, then the next card


def test_a_seat_in_camp_cannot_act():
    """Rule (ja 2: キャンプに戻ったプレイヤーは、このラウンドが終わるまでは何もできない)."""
    state = staged(3, path=["t3"], next_cards=["t4"])
    everyone(state, {0: "stay", 1: "leave", 2: "stay"})
    assert GAME.to_act(state) == [0, 2]
    assert GAME.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="left the temple"):
        GAME.apply_in_place(state, 1, STAY)


@pytest.mark.parametrize("action", [{"type": "jump"}, {"type": "stay", "x": 1}, "stay", None])
def test_malformed_action_is_illegal_and_leaves_state_untouched(action):
    """Protocol: validate completely first; an IllegalAction changes nothing."""
    state = staged(3, path=["t3"], next_cards=["t4"])
    before = canonical_json(state)
    with pytest.raises(IllegalAction):
        GAME.apply_in_place(state, 0, action)
    assert canonical_json(state) == before


@pytest.mark.parametrize("seat", [-1, 3, "0", None, 1.0])
def test_unknown_seat_is_illegal(seat):
    """Protocol: a seat outside the game cannot act."""
    state = staged(3, path=["t3"], next_cards=["t4"])
    with pytest.raises(IllegalAction):
        GAME.apply_in_place(state, seat, STAY)
    assert GAME.legal_actions(state, seat) == []


def test_action_label_is_optional():
    """Protocol (engine.core.without_label): an action may be echoed with or without its label."""
    state = staged(3, path=["t3"], next_cards=["t4"])
    GAME.apply_in_place(state, 0, GAME.legal_actions(state, 0)[0])
    GAME.apply_in_place(state, 1, {"type": "stay", "label": "whatever"})
    assert GAME.to_act(state) == [2]


def test_decision_key_changes_each_turn_and_is_shared():
    """Protocol: one decision per turn; the key identifies it (round and turn)."""
    state = staged(3, path=["t3"], next_cards=["t4"])
    keys = {GAME.decision_key(state, s) for s in range(3)}
    assert keys == {"r1t1"}
    everyone(state, "stay")
    assert GAME.decision_key(state, 0) == "r1t2"


# ---------------------------------------------------------------- treasure

def test_treasure_is_split_evenly_and_the_rest_stays_on_the_card():
    """Rule (ja お宝カード, example): 4 inside, an 11 -> 2 each, 3 stay on the card."""
    state = staged(4, path=["t1"], next_cards=["t11"])
    everyone(state, "stay")
    assert [p["carrying"] for p in state["players"]] == [2, 2, 2, 2]
    assert state["path"][-1]["gems_left"] == 3


def test_treasure_is_split_only_among_those_still_inside():
    """Rule (ja 2 then 3): leavers go first; the new card is for those who stayed."""
    state = staged(4, path=["t1"], next_cards=["t9"])
    everyone(state, {0: "stay", 1: "stay", 2: "leave", 3: "leave"})
    assert [p["carrying"] for p in state["players"]] == [4, 4, 0, 0]
    assert state["path"][-1]["gems_left"] == 1


# ---------------------------------------------------------------- leaving

def test_leavers_pool_the_whole_path_and_split_it_evenly():
    """Rule (ja 2: 通路のカードの上に残されている宝石をすべて取り…均等に分ける; 分け切れなか
    った宝石は通路に戻す): 3+2=5 gems, 2 leavers -> 2 each, 1 stays on the path."""
    state = staged(4, path=[("t7", 3), ("t5", 2)], next_cards=["t4"], carrying=[1, 6, 6, 1])
    everyone(state, {0: "stay", 1: "leave", 2: "leave", 3: "stay"})
    assert state["players"][1]["tent"] == 8 and state["players"][2]["tent"] == 8
    assert sum(c["gems_left"] for c in state["path"][:2]) == 1
    assert state["last_reveal"]["share"] == 2


def test_leaving_banks_the_round_gems_in_the_tent():
    """Rule (ja 2: そのラウンド中に受け取った宝石を自分のテントの中に入れる)."""
    state = staged(3, path=[("t7", 1)], next_cards=["t4"], carrying=[2, 2, 2])
    everyone(state, {0: "leave", 1: "stay", 2: "stay"})
    assert state["players"][0] == {"in_temple": False, "carrying": 0, "tent": 3,
                                   "artifacts": [], "choice": None}


def test_a_lone_leaver_takes_every_artifact_on_the_path():
    """Rule (ja 2: 一人だけがキャンプに戻ったとき…全ての遺物カードを受け取る)."""
    state = staged(3, path=["a5", "t1", "a7"], next_cards=["t4"])
    everyone(state, {0: "stay", 1: "leave", 2: "stay"})
    assert state["players"][1]["artifacts"] == [5, 7]
    assert all(c["type"] != "artifact" for c in state["path"])
    assert state["last_reveal"]["artifacts"] == [5, 7]


def test_two_leavers_take_no_artifact_and_it_stays_on_the_path():
    """Rule (ja 2: 二人以上が戻ったときは、誰も受け取ることはできない)."""
    state = staged(4, path=["a5", "t1"], next_cards=["t4"])
    everyone(state, {0: "stay", 1: "leave", 2: "leave", 3: "stay"})
    assert state["players"][1]["artifacts"] == [] == state["players"][2]["artifacts"]
    assert state["path"][0]["type"] == "artifact"
    everyone(state, {0: "stay", 3: "leave"})
    assert state["players"][3]["artifacts"] == [5]


def test_round_ends_when_everyone_has_left():
    """Rule (ja 4: 全員がキャンプに戻ったとき…終了)."""
    state = staged(3, path=[("t5", 2)], next_cards=["t4"], carrying=[1, 1, 1])
    everyone(state, "leave")
    assert state["round"] == 2
    assert [p["tent"] for p in state["players"]] == [1, 1, 1]
    assert state["history"][0]["ended_by"] == "all_left"
    assert state["history"][0]["gems_lost"] == 2  # ja 4: 通路に残っていた宝石…宝石の山に戻す
    assert GAME.to_act(state) == [0, 1, 2]  # ja 4: next round, everyone sets out again
    assert all(p["in_temple"] for p in state["players"])


# ---------------------------------------------------------------- hazards

def test_first_hazard_of_a_kind_is_harmless():
    """Rule (ja 障害カード 1枚目: まだ何もおきない)."""
    state = staged(3, path=["t5"], next_cards=["h:fire"], carrying=[1, 1, 1])
    everyone(state, "stay")
    assert state["round"] == 1 and GAME.to_act(state) == [0, 1, 2]
    assert [p["carrying"] for p in state["players"]] == [1, 1, 1]


def test_second_hazard_of_a_kind_ends_the_round_and_those_inside_lose_their_gems():
    """Rule (ja 障害カード 2枚目: テント脇の宝石をすべて宝石の山に戻す; 同じ絵の障害カードが
    2枚出た時点で、このラウンドは終了)."""
    state = staged(3, path=["h:fire", ("t9", 0)], next_cards=["h:fire"], carrying=[3, 3, 3])
    everyone(state, {0: "leave", 1: "stay", 2: "stay"})
    assert state["round"] == 2
    assert state["players"][0]["tent"] == 3
    assert state["players"][1]["tent"] == 0 == state["players"][2]["tent"]
    assert state["history"][0] | {"path": None} == {
        "round": 1, "ended_by": "hazard", "hazard": "fire", "caught": [1, 2], "gems_lost": 6,
        "artifacts_lost": 0, "path": None}


def test_second_hazard_leaves_the_game_and_the_first_goes_back():
    """Rule (ja 4 / notes: that second card leaves the game for good, the first copy goes back
    into the deck): next round's deck holds 2 fire cards."""
    state = staged(3, path=["h:fire"], next_cards=["h:fire"])
    everyone(state, "stay")
    assert state["removed_hazards"] == ["fire"]
    cards = Counter(state["deck"] + [c["card"] for c in state["path"]])
    assert cards["h:fire"] == 2 and cards["h:snakes"] == 3


def test_drawn_unclaimed_artifact_is_lost_and_undrawn_one_stays_in_the_deck():
    """Rule (ja 4: 通路に遺物カードが残っていたら…取り除く; ja ラウンドの準備: 発見されなければ
    山札の中に残り): a5 drawn and unclaimed is gone; an undrawn a5 is still there in round 2."""
    lost = staged(3, path=["a5", "h:fire"], next_cards=["h:fire"])
    everyone(lost, "stay")
    cards = lost["deck"] + [c["card"] for c in lost["path"]]
    assert "a5" not in cards and "a7" in cards
    assert lost["history"][0]["artifacts_lost"] == 1

    kept = staged(3, path=["h:fire"], next_cards=["h:fire"])
    everyone(kept, "stay")
    cards = kept["deck"] + [c["card"] for c in kept["path"]]
    assert "a5" in cards and "a7" in cards


def test_path_gems_are_lost_at_round_end():
    """Rule (ja 4: 通路に残っていた宝石…をすべて宝石の山に戻す)."""
    state = staged(3, path=[("t7", 1), "h:snakes"], next_cards=["h:snakes"], carrying=[2, 2, 2])
    everyone(state, "stay")
    assert state["gems_lost"] == 7


def test_deck_cannot_run_out_before_a_hazard_repeats():
    """Decision (docs; ja is silent): at most 4 hazards are ever removed, so >= 11 hazards of 5
    kinds are in every round's deck and a kind repeats before the deck is empty."""
    assert data.HAZARD_COPIES * len(data.HAZARD_KINDS) - (data.ROUNDS - 1) > len(data.HAZARD_KINDS)


def test_start_player_passes_left_each_round():
    """Rule (notes: the start player passes to the left after each round)."""
    state = staged(3, path=["t1"], next_cards=["t2"])
    starts = [state["start_player"]]
    while GAME.outcome(state) is None:
        everyone(state, "leave")
        starts.append(state["start_player"])
    assert starts[:5] == [0, 1, 2, 0, 1]


def test_epoch_rises_on_every_card_and_every_reveal():
    """Protocol (engine.core epoch): drawing a card or revealing choices raises the epoch."""
    state = staged(3, path=["t1"], next_cards=["t2", "t3"])
    start = state["epoch"]
    GAME.apply_in_place(state, 0, STAY)
    GAME.apply_in_place(state, 1, STAY)
    assert state["epoch"] == start
    GAME.apply_in_place(state, 2, STAY)
    assert state["epoch"] == start + 2


def test_an_empty_deck_sends_those_inside_to_camp_with_their_gems():
    """Decision (docs; ja is silent, unreachable in play): were the deck empty when a card is
    due, those inside leave together, sharing the path like leavers of one turn."""
    state = staged(3, path=[("t5", 2)], next_cards=[], carrying=[1, 1, 1])
    state["deck"] = []
    everyone(state, {0: "leave", 1: "stay", 2: "stay"})
    assert state["round"] == 2
    assert [p["tent"] for p in state["players"]] == [3, 1, 1]
    assert state["history"][0]["ended_by"] == "deck_empty"
