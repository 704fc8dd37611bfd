"""Central Plaza (zh.full 中央广场; zh.districts_night 中心广场; decisions.md: Market).

zh.full: "每当玩家的王子进入中央广场，即可以玉米作货币，出售或购买任何数量的物品" — any number of
goods, so a visit's trade is one decision naming the whole exchange (engine: ``plaza``)."""
import pytest

from engine import IllegalAction, canonical_json, replay
from engine.games.machu_picchu.bot import simple_bot_action
from engine.games.machu_picchu.plaza import trade
from engine.text import render

from .helpers import GAME, act, goods, options, phase, started, totals, turn_of


def plaza(state=None):
    state = turn_of(state or started(), 0, "sun_clock")
    act(state, 0, type="move", to="central_plaza")
    return state


def trade_now(state, seat=0, sell=None, buy=None, **adjust):
    GAME.apply_in_place(state, seat, trade(sell, buy, **adjust))


def test_selling_fills_the_topmost_empty_field_and_pays_its_price():
    """decisions.md: fields 6,5,4,3; 'Selling a good puts it on the topmost empty field and
    pays its price'."""
    state = plaza()
    trade_now(state, sell={"cloth": 1})
    assert state["market"]["cloth"] == 3 and state["players"][0]["goods"]["corn"] == 3 + 4


def test_buying_takes_the_bottom_most_good_at_the_price_of_its_field():
    """decisions.md: 'buying takes the bottom-most good and costs the price of the field it
    leaves' — two at once: 5 then 6."""
    state = plaza()
    goods(state, 0, corn=11)
    trade_now(state, buy={"coca": 2})
    assert state["market"]["coca"] == 0 and state["players"][0]["goods"]["corn"] == 0


def test_empty_column_buys_from_the_bank_for_6():
    """zh.full: '如果某行列的物品遭拿光，则购买物品时拿取备用的，玩家每拿1个支付6个玉米'."""
    state = started()
    state["bank"]["llama"] += 2
    state["market"]["llama"] = 0
    state = plaza(state)
    goods(state, 0, corn=12)
    bank = state["bank"]["llama"]
    trade_now(state, buy={"llama": 2})
    assert state["bank"]["llama"] == bank - 2 and state["players"][0]["goods"]["corn"] == 0


def test_full_column_sells_to_the_bank_for_3():
    """zh.full: '如果某行列遭物品填满了，出售的物品变回备用，玩家每付出1个收取3个玉米'."""
    state = started()
    state["bank"]["pottery"] -= 2
    state["market"]["pottery"] = 4
    state = plaza(state)
    trade_now(state, sell={"pottery": 1})
    assert state["market"]["pottery"] == 4 and state["players"][0]["goods"]["corn"] == 6


def test_the_adjustment_comes_first_and_sways_the_price():
    """zh.districts_night: '在市场交易之前，玩家可以从市场移走1件商品或向市场放入1件商品' —
    removing the coca at 5 first makes the next coca cost 6."""
    state = plaza()
    goods(state, 0, corn=6)
    trade_now(state, remove="coca", buy={"coca": 1})
    assert state["market"]["coca"] == 0 and state["players"][0]["goods"]["corn"] == 0
    assert state["players"][0]["goods"]["coca"] == 2


def test_a_visit_trades_once_then_the_turn_goes_on():
    """The whole exchange is one decision: after it the visit is over (no 'done', no second
    trade), so a visit can never be a loop of trades."""
    state = plaza()
    trade_now(state, sell={"llama": 1, "cloth": 1}, buy={"coca": 1})
    assert GAME.to_act(state) == [1] and phase(state) == "move"


def test_a_whole_exchange_sells_before_it_buys():
    """Corn from the goods sold pays for the goods bought in the same trade."""
    state = plaza()
    goods(state, 0, corn=0, cloth=2)
    trade_now(state, sell={"cloth": 2}, buy={"llama": 1})     # 4 + 3 corn in, 5 out
    assert state["players"][0]["goods"] == {**state["players"][0]["goods"], "corn": 2,
                                            "cloth": 0, "llama": 2}


@pytest.mark.parametrize("bad", [
    trade(sell={"cloth": 1}, buy={"cloth": 1}),          # sells and buys the same good
    trade(add="coca", remove="llama"),                   # two adjustments
    trade(),                                             # changes nothing
    trade(sell={"cloth": 5}),                            # more than the seat has
    trade(buy={"llama": 3}),                             # more corn than the seat has
    trade(sell={"corn": 1}),                             # corn is not on the market
    trade(buy={"coca": 0}), trade(buy={"coca": True}), trade(buy={"coca": -1}),
    {"type": "trade", "sell": [], "buy": {}},
    {"type": "trade", "sell": {}, "buy": {}, "give": {"coca": 1}},
    trade(add="gold"),
])
def test_an_impossible_or_malformed_trade_is_refused_and_changes_nothing(bad):
    state = plaza()
    before = canonical_json(state)
    with pytest.raises(IllegalAction):
        GAME.apply_in_place(state, 0, bad)
    with pytest.raises(IllegalAction):
        GAME.find_legal_action(state, 0, bad)
    assert canonical_json(state) == before


def test_any_possible_exchange_is_legal_though_only_common_ones_are_offered():
    state = plaza()
    goods(state, 0, corn=20, cloth=2, pottery=1)
    composed = trade(sell={"cloth": 2, "pottery": 1}, buy={"llama": 2, "coca": 1}, add="llama")
    assert composed not in options(state, 0)
    found = GAME.find_legal_action(state, 0, composed)
    assert found["label"].startswith("Trade: Add 1 llama from the bank to the market")
    stock = totals(state)
    GAME.apply_in_place(state, 0, composed)
    assert totals(state) == stock


def test_offered_trades_are_all_possible_and_leaving_trades_nothing():
    state = plaza()
    offered = options(state, 0)
    assert {"type": "done"} in offered
    assert trade(sell={"cloth": 1}) in offered and trade(add="coca") in offered
    assert all(GAME.find_legal_action(state, 0, a) for a in offered)
    act(state, 0, type="done")
    assert GAME.to_act(state) == [1]


def test_the_log_says_the_whole_trade_in_order():
    state = plaza()
    goods(state, 0, corn=5)
    trade_now(state, sell={"cloth": 1}, buy={"llama": 1})
    assert render(state["log"][-1]) == (
        "P0 trades at the market: Sell 1 cloth for 4 corn, Buy 1 llama for 5 corn")


# --- games recorded with rules versions 1 to 4 ---------------------------------------------
def old_game(moves):
    state = started()
    GAME.keep_rules_version(state, "4")
    turn_of(state, 0, "sun_clock")
    act(state, 0, type="move", to="central_plaza")
    for move in moves:
        act(state, 0, **move)
    return state


def test_an_old_game_still_trades_one_good_at_a_time_until_done():
    """Games created under rules version 4 or before replay exactly: one adjustment before
    trading, then one good per decision, the visit ending with 'done'."""
    state = old_game([{"type": "market_remove", "good": "coca"}])
    assert state["market"]["coca"] == 1
    assert not any(a["type"].startswith("market_") for a in options(state, 0))
    for g in ("llama", "coca", "pottery", "cloth"):
        act(state, 0, type="sell", good=g)
    decision = GAME.decision_key(state, 0)
    act(state, 0, type="buy", good="cloth")
    assert GAME.decision_key(state, 0) == decision and GAME.to_act(state) == [0]
    assert [a for a in options(state, 0) if a["type"] == "trade"] == []
    with pytest.raises(IllegalAction):
        act(state, 0, **trade(buy={"cloth": 1}))
    act(state, 0, type="done")
    assert GAME.to_act(state) == [1]


def test_a_new_game_refuses_the_old_step_actions():
    state = plaza()
    for old in ({"type": "sell", "good": "cloth"}, {"type": "market_add", "good": "coca"}):
        with pytest.raises(IllegalAction):
            GAME.apply_in_place(state, 0, old)


def test_only_rules_versions_1_to_4_keep_the_old_trades():
    for version, steps in (("1", True), ("4", True), ("5", False), (None, False)):
        state = started()
        GAME.keep_rules_version(state, version)
        assert (state["plaza"] == "steps") is steps


def test_replay_of_a_new_game_needs_no_version():
    state = plaza()
    moves = [(0, {"type": "place_free", "district": "corn_terraces"}),
             (1, {"type": "place_free", "district": "corn_terraces"})]
    again = replay(GAME, ["P0", "P1"], 1, {}, moves)
    assert again["plaza"] == state["plaza"] == "whole"


def test_the_simple_bot_buys_in_one_trade_what_it_misses_for_the_cheapest_priest():
    """The cheapest card left is a Priest of the Condor (cloth, coca, pottery): a seat with
    coca and pottery but no cloth buys exactly 1 cloth, the most it misses."""
    state = plaza()
    goods(state, 0, corn=12, cloth=0, coca=1, pottery=1)
    assert simple_bot_action(state, 0) == trade(buy={"cloth": 1})
    goods(state, 0, corn=12, cloth=1)
    assert simple_bot_action(state, 0) == {"type": "done"}
