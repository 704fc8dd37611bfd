"""Central Plaza (zh.full 中央广场; zh.districts_night 中心广场; decisions.md: Market)."""
import pytest

from engine import IllegalAction

from .helpers import GAME, act, goods, options, started, turn_of


def plaza(state=None):
    state = turn_of(state or started(), 0, "sun_clock")
    act(state, 0, type="move", to="central_plaza")
    return state


def test_selling_fills_the_topmost_empty_field_and_pays_its_price():
    """decisions.md: fields 6,5,4,3; 'Selling a good puts it on the topmost empty field and
    pays its price'."""
    state = plaza()
    act(state, 0, type="sell", good="cloth")
    assert state["market"]["cloth"] == 3 and state["players"][0]["goods"]["corn"] == 3 + 4


def test_buying_takes_the_bottom_most_good_at_the_price_of_its_field():
    """decisions.md: 'buying takes the bottom-most good and costs the price of the field it
    leaves'."""
    state = plaza()
    goods(state, 0, corn=11)
    act(state, 0, type="buy", good="coca")
    assert state["market"]["coca"] == 1 and state["players"][0]["goods"]["corn"] == 6
    act(state, 0, type="buy", good="coca")
    assert state["market"]["coca"] == 0 and state["players"][0]["goods"]["corn"] == 0


def test_empty_column_buys_from_the_bank_for_6():
    """zh.full: '如果某行列的物品遭拿光，则购买物品时拿取备用的，玩家每拿1个支付6个玉米'."""
    state = started()
    state["bank"]["llama"] += 2
    state["market"]["llama"] = 0
    state = plaza(state)
    goods(state, 0, corn=6)
    bank = state["bank"]["llama"]
    act(state, 0, type="buy", good="llama")
    assert state["bank"]["llama"] == bank - 1 and state["players"][0]["goods"]["corn"] == 0


def test_full_column_sells_to_the_bank_for_3():
    """zh.full: '如果某行列遭物品填满了，出售的物品变回备用，玩家每付出1个收取3个玉米'."""
    state = started()
    state["bank"]["pottery"] -= 2
    state["market"]["pottery"] = 4
    state = plaza(state)
    act(state, 0, type="sell", good="pottery")
    assert state["market"]["pottery"] == 4 and state["players"][0]["goods"]["corn"] == 6


def test_one_adjustment_before_trading_add_or_remove():
    """zh.full: '即可从…市场内，加入或移走1件物品以影响该物品的价格' — once, before trading."""
    state = plaza()
    assert {"type": "market_add", "good": "coca"} in options(state, 0)
    act(state, 0, type="market_remove", good="coca")
    assert state["market"]["coca"] == 1
    assert not any(a["type"].startswith("market_") for a in options(state, 0))
    state = plaza()
    act(state, 0, type="sell", good="coca")
    with pytest.raises(IllegalAction):
        act(state, 0, type="market_add", good="coca")


def test_any_number_of_trades_until_done():
    """zh.full: '出售或购买任何数量的物品'; the visit ends with an explicit done."""
    state = plaza()
    for g in ("llama", "coca", "pottery", "cloth"):
        act(state, 0, type="sell", good=g)
    assert GAME.to_act(state) == [0]
    decision = GAME.decision_key(state, 0)
    act(state, 0, type="buy", good="cloth")
    assert GAME.decision_key(state, 0) == decision    # no mail per trade
    act(state, 0, type="done")
    assert GAME.to_act(state) == [1]
