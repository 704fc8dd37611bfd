"""Temples (zh.full 神庙; decisions.md: Temples)."""
import pytest

from engine import IllegalAction

from .helpers import GAME, act, give_priest, goods, options, phase, started, turn_of


def test_first_entry_takes_the_stones_3_steps_each():
    """zh.full: '玩家每取得1个神庙基石，其斥候即沿印加之路前进3格'."""
    state = turn_of(started(), 0, "central_plaza")
    state["bonus"]["main_temple"] = 2
    act(state, 0, type="move", to="main_temple")
    assert state["players"][0]["scout"] == 1 + 6 and state["bonus"]["main_temple"] == 0


def test_sacrifices_go_round_the_table_from_the_entering_player():
    """zh.full: '由取得神庙基石者开始，玩家依顺时针方向轮流进行献祭'."""
    state = turn_of(started(3), 1, "central_plaza")
    act(state, 1, type="move", to="main_temple")
    order = []
    while phase(state) == "sacrifice":
        seat = GAME.to_act(state)[0]
        order.append(seat)
        act(state, seat, type="done")
    assert order == [1, 2, 0]


def test_main_temple_one_good_of_each_kind_2_steps_each_3_corn_is_a_kind():
    """zh.full 主祭: '献祭不同的物品(驼羊、古柯、陶壶、衣服、或3个玉米)，每献祭1种物品，其斥候
    沿印加之路前进2格 … 最多只能前进10格'."""
    state = turn_of(started(), 0, "central_plaza")
    goods(state, 0, llama=2, coca=2, pottery=2, cloth=2, corn=6)
    act(state, 0, type="move", to="main_temple")                 # 3 steps for the stone
    for kind in ("llama", "coca", "pottery", "cloth"):
        act(state, 0, type="sacrifice", good=kind)
    assert options(state, 0) == [{"type": "sacrifice", "good": "corn"}, {"type": "done"}]
    with pytest.raises(IllegalAction):                             # each kind only once
        act(state, 0, type="sacrifice", good="llama")
    act(state, 0, type="sacrifice", good="corn")   # nothing left to give: seat 0 is finished
    assert GAME.to_act(state) == [1]
    act(state, 1, type="done")
    assert state["players"][0]["scout"] == 1 + 3 + 10
    assert state["players"][0]["goods"] == {"corn": 3 + 3, "llama": 1 + 1, "coca": 1,
                                            "pottery": 1, "cloth": 1}  # +granary +stable


def test_llama_temple_one_llama_per_own_card_smallest_revealed_number():
    """zh.full: '玩家每有1张该神庙的祭司或圣女牌，即可支付1个驼羊 … 斥候前进的格数即为 … 所显现的
    数字(计其中最小的)'."""
    state = turn_of(started(), 0, "sun_clock")
    give_priest(state, 0, "sun", 2)           # slots 6 and 5 revealed: 5 per llama
    goods(state, 0, llama=3)
    act(state, 0, type="move", to="sun_temple")
    act(state, 0, type="sacrifice", good="llama")
    assert options(state, 0) == [{"type": "sacrifice", "good": "llama"}, {"type": "done"}]
    act(state, 0, type="sacrifice", good="llama")  # 2 cards: 2 llamas, then finished
    assert GAME.to_act(state) == [1]
    assert state["players"][0]["scout"] == 1 + 3 + 10
    assert state["players"][0]["goods"]["llama"] == 1 + 1     # + the llama stable (13)


def test_without_a_card_of_that_temple_nobody_is_asked():
    """zh.full: '玩家若取得该神庙的祭司或圣女牌，方可进行献祭'."""
    state = turn_of(started(), 0, "central_plaza")
    act(state, 0, type="move", to="condor_temple")
    assert phase(state) == "move" and GAME.to_act(state) == [1]


def test_other_players_sacrifice_as_their_own_decision():
    """decisions.md: 'Other players' decisions here ... are real decisions of those players:
    the game waits for them'."""
    state = turn_of(started(), 0, "central_plaza")
    give_priest(state, 1, "puma")
    act(state, 0, type="move", to="puma_temple")
    assert GAME.to_act(state) == [1]
    assert GAME.decision_key(state, 1).endswith(":sacrifice")
    act(state, 1, type="sacrifice", good="llama")   # its only card: finished by itself
    assert state["players"][1]["scout"] == 2 + 5 and GAME.to_act(state) == [1]


def test_later_entries_the_same_day_trigger_nothing():
    """zh.full: '只有首次能取得神庙基石时，玩家方可以进行献祭'."""
    state = turn_of(started(), 0, "central_plaza")
    state["used_today"] = ["main_temple"]
    act(state, 0, type="move", to="main_temple")
    assert state["players"][0]["scout"] == 1 and GAME.to_act(state) == [1]


def test_standing_orders_sacrifice_all_or_none():
    """Standing orders (docs): temple_sacrifice all/none, main_temple all/goods_only/none."""
    state = turn_of(started(3), 0, "central_plaza")
    act(state, 1, type="standing_orders", orders={"main_temple": "goods_only"})
    act(state, 2, type="standing_orders", orders={"main_temple": "none"})
    act(state, 0, type="move", to="main_temple")
    act(state, 0, type="done")
    assert state["players"][1]["goods"] == {"corn": 3 + 3, "llama": 0, "coca": 0,
                                            "pottery": 0, "cloth": 0}    # +3 granary corn
    assert state["players"][1]["scout"] == 2 + 8
    assert state["players"][2]["scout"] == 3 and GAME.to_act(state) == [1]


def test_unknown_standing_order_is_refused_and_changes_nothing():
    """Standing orders are validated before anything changes."""
    state = started()
    with pytest.raises(IllegalAction):
        act(state, 1, type="standing_orders", orders={"produce": "sometimes"})
    with pytest.raises(IllegalAction):
        act(state, 1, type="standing_orders", orders={"dance": "ask"})
    assert state["players"][1]["orders"]["produce"] == "ask"


def test_standing_action_follows_orders_set_after_sacrificing_by_hand():
    """Standing orders (docs) and the deadline policy "standing": a seat that sacrificed by
    hand and then set "all" is still asked; when its time runs out, its orders answer."""
    state = turn_of(started(), 0, "central_plaza")
    act(state, 0, type="move", to="main_temple")
    act(state, 0, type="sacrifice", good="coca")
    act(state, 0, type="standing_orders", orders={"main_temple": "goods_only"})
    assert GAME.to_act(state) == [0]
    assert GAME.standing_action(state, 0) == {"type": "sacrifice", "good": "llama"}
    assert GAME.default_action(state, 0) == {"type": "done"}
    act(state, 0, type="standing_orders", orders={"main_temple": "none"})
    assert GAME.standing_action(state, 0) == {"type": "done"}
