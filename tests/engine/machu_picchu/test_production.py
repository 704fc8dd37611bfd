"""Production districts (zh.full 生产区; decisions.md: Temples — production decisions)."""
from engine.games.machu_picchu import data

from .helpers import GAME, act, goods, options, phase, started, turn_of


def test_first_entry_of_the_day_takes_the_bonus_goods():
    """zh.full: '每日首位王子进入某生产区时，其玩家即取得放在该区域上的所有物品'."""
    state = turn_of(started(free="coca_plantation"), 0, "royal_palace")
    state["bonus"]["potters_quarter"] = 2
    goods(state, 0, pottery=0)
    act(state, 0, type="move", to="potters_quarter")
    assert state["players"][0]["goods"]["pottery"] == 2 and state["bonus"]["potters_quarter"] == 0


def test_corn_terraces_every_players_incas_produce_3_corn_each_for_free():
    """zh.full 玉米田: '所有玩家若在玉米田中放有工人，每有1个自己的工人即得3个玉米'."""
    state = turn_of(started(3), 1, "watchmans_hut")
    state["incas"]["corn_terraces"] = [2, 1, 0]
    act(state, 1, type="move", to="corn_terraces")
    corn = [p["goods"]["corn"] for p in state["players"]]
    assert corn == [3 + 6, 3 + 3 + 3, 3]          # seat 1 also took the 3-corn bonus
    assert GAME.to_act(state) == [2]               # nobody was asked anything


def test_other_goods_cost_1_corn_each_and_every_owner_decides_at_once():
    """zh.full 放牧场…: '每有1个自己的工人即可以1个玉米换取1个指定物品 … 若玩家不愿支付玉米，
    则其工人即不会生产物品' — several seats decide at the same time."""
    state = started(3, free="weavers_quarter")
    turn_of(state, 0, "royal_palace")
    state["incas"]["weavers_quarter"] = [1, 2, 1]
    goods(state, 2, corn=0)                         # cannot pay: not asked
    act(state, 0, type="move", to="weavers_quarter")
    assert GAME.to_act(state) == [0, 1]
    assert options(state, 1) == [{"type": "produce", "count": k} for k in range(3)]
    act(state, 1, type="produce", count=2)
    assert state["players"][1]["goods"] == {"corn": 1, "llama": 1, "coca": 1, "pottery": 1,
                                            "cloth": 3}
    assert GAME.to_act(state) == [0]
    act(state, 0, type="produce", count=0)          # declining is allowed
    assert state["players"][0]["goods"]["cloth"] == 2  # the bonus only
    assert GAME.to_act(state) == [1]


def test_later_entries_the_same_day_produce_nothing():
    """zh.full: '只有首次能取得物品时，区内的工人方可以进行生产'."""
    state = turn_of(started(2, free="corn_terraces"), 0, "watchmans_hut")
    state["used_today"] = ["corn_terraces"]
    state["bonus"]["corn_terraces"] = 0
    act(state, 0, type="move", to="corn_terraces")
    assert [p["goods"]["corn"] for p in state["players"]] == [3, 3]


def test_standing_order_always_produces_without_asking():
    """Standing orders (docs): 'produce: always' pays as many as it can afford."""
    state = turn_of(started(2, free="llama_meadow"), 0, "watchmans_hut")
    act(state, 1, type="standing_orders", orders={"produce": "always"})
    state["incas"]["llama_meadow"] = [0, 2]
    act(state, 0, type="move", to="llama_meadow")
    assert state["players"][1]["goods"]["llama"] == 3 and state["players"][1]["goods"]["corn"] == 1
    assert GAME.to_act(state) == [1] and phase(state) == "move"


def test_standing_order_never_declines_without_asking():
    """Standing orders (docs): 'produce: never'."""
    state = turn_of(started(2, free="llama_meadow"), 0, "watchmans_hut")
    act(state, 1, type="standing_orders", orders={"produce": "never"})
    act(state, 0, type="move", to="llama_meadow")
    assert GAME.to_act(state) == [0]
    act(state, 0, type="produce", count=1)
    assert state["players"][1]["goods"]["llama"] == 1 and phase(state) == "move"


def test_standing_order_set_while_waiting_answers_the_pending_decision():
    """Standing orders are accepted at any time and applied at once."""
    state = turn_of(started(2, free="llama_meadow"), 0, "watchmans_hut")
    act(state, 0, type="move", to="llama_meadow")
    assert GAME.to_act(state) == [0, 1]
    assert GAME.legal_actions(state, 1) and not any(
        a["type"] == "standing_orders" for a in GAME.legal_actions(state, 1))
    act(state, 1, type="standing_orders", orders={"produce": "always"})
    assert GAME.to_act(state) == [0] and state["players"][1]["goods"]["llama"] == 2


def test_a_short_bank_limits_production():
    """Decision (docs: bank short): nobody may produce more than the bank holds."""
    state = turn_of(started(2, free="coca_plantation"), 0, "royal_palace")
    state["incas"]["coca_plantation"] = [0, 3]
    goods(state, 1, corn=5)
    goods(state, 0, coca=state["players"][0]["goods"]["coca"] + state["bank"]["coca"] - 1)
    act(state, 0, type="move", to="coca_plantation")
    assert options(state, 1)[-1] == {"type": "produce", "count": 1}
    assert data.PRODUCTION["coca_plantation"] == "coca"


def test_an_order_answering_during_another_seats_move_raises_the_epoch():
    """core.py, epoch: a seat's standing orders are its secret (only its own view shows
    them); when they answer during another seat's move, that seat sees the answer in its
    move's result, so the epoch rises and it cannot take the move back having learnt it."""
    for order, llamas in (("always", 2), ("never", 1)):
        state = turn_of(started(2, free="llama_meadow"), 0, "watchmans_hut")
        act(state, 1, type="standing_orders", orders={"produce": order})
        epoch = state["epoch"]
        act(state, 0, type="move", to="llama_meadow")
        assert state["players"][1]["goods"]["llama"] == llamas
        assert state["epoch"] == epoch + 1


def test_an_order_answering_the_seats_own_pending_decision_keeps_the_epoch():
    """The seat that sets the order learns nothing from its own answer."""
    state = turn_of(started(2, free="llama_meadow"), 0, "watchmans_hut")
    act(state, 0, type="move", to="llama_meadow")
    epoch = state["epoch"]
    act(state, 1, type="standing_orders", orders={"produce": "always"})
    assert state["players"][1]["goods"]["llama"] == 2 and state["epoch"] == epoch
