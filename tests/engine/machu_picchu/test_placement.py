"""Watchman's Hut and Royal Palace (zh.districts_night 守夜人小屋 / 王宫; zh.full 守卫屋及王宫)."""
import pytest

from engine import IllegalAction

from .helpers import GAME, act, goods, options, phase, started, turn_of


def test_watchmans_hut_costs_llama_pottery_for_terraces_and_3corn_coca_for_meadow():
    """zh.full 守卫屋: '支付驼羊、陶壶各1个…玉米田'; '支付3个玉米及1个古柯…放牧场'."""
    state = turn_of(started(), 0, "central_plaza")
    act(state, 0, type="move", to="watchmans_hut")
    assert options(state, 0) == [{"type": "place", "district": "corn_terraces"},
                                 {"type": "place", "district": "llama_meadow"},
                                 {"type": "done"}]
    act(state, 0, type="place", district="llama_meadow")
    assert state["players"][0]["goods"] == {"corn": 0, "llama": 1, "coca": 0, "pottery": 1,
                                            "cloth": 1}
    act(state, 0, type="place", district="corn_terraces")
    assert state["incas"]["corn_terraces"][0] == 2 and state["incas"]["llama_meadow"][0] == 1
    assert GAME.to_act(state) == [1]      # nothing more possible: the visit ended itself


def test_royal_palace_costs_the_two_other_goods():
    """zh.full 王宫: coca ← pottery+cloth, potters ← coca+cloth, weavers ← coca+pottery."""
    state = turn_of(started(), 0, "central_plaza")
    goods(state, 0, coca=2, pottery=2, cloth=2)
    act(state, 0, type="move", to="royal_palace")
    assert [a.get("district") for a in options(state, 0)] == [
        "coca_plantation", "potters_quarter", "weavers_quarter", None]
    act(state, 0, type="place", district="potters_quarter")
    assert state["players"][0]["goods"]["coca"] == 1 and state["players"][0]["goods"]["cloth"] == 1


def test_at_most_one_inca_per_district_per_visit():
    """zh.districts_night: '每回合每区只能放1个印加人'."""
    state = turn_of(started(), 0, "central_plaza")
    goods(state, 0, llama=3, pottery=3)
    act(state, 0, type="move", to="watchmans_hut")
    act(state, 0, type="place", district="corn_terraces")
    with pytest.raises(IllegalAction):
        act(state, 0, type="place", district="corn_terraces")
    act(state, 0, type="done")
    assert GAME.to_act(state) == [1]


def test_no_placement_when_the_supply_is_empty():
    """zh.full: '玩家若已将其所有工人放到游戏图板上，则不可再放置工人'."""
    state = turn_of(started(), 0, "central_plaza")
    state["incas"]["corn_terraces"][0] += state["players"][0]["supply"]
    state["players"][0]["supply"] = 0
    act(state, 0, type="move", to="watchmans_hut")
    assert phase(state) == "move" and GAME.to_act(state) == [1]
