"""House of Priests, House of Virgins (zh.full 祭司区及圣女区; decisions.md: Priests and Virgins)."""
from engine.games.machu_picchu import data

from .helpers import GAME, act, goods, options, started, turn_of


def test_house_of_priests_offers_condor_or_puma_at_their_costs():
    """zh.full 祭司区: condor = cloth+coca+pottery, puma = 2 cloth+coca+pottery; only one."""
    state = turn_of(started(), 0, "central_plaza")
    goods(state, 0, cloth=2)
    act(state, 0, type="move", to="house_of_priests")
    assert options(state, 0) == [{"type": "take", "priest": "condor"},
                                 {"type": "take", "priest": "puma"}, {"type": "done"}]
    act(state, 0, type="take", priest="puma")
    assert state["players"][0]["priests"]["puma"] == 1 and state["priests_left"]["puma"] == 4
    assert state["players"][0]["goods"] == {"corn": 3, "llama": 1, "coca": 0, "pottery": 0,
                                            "cloth": 0}
    assert GAME.to_act(state) == [1]          # one card per visit


def test_house_of_virgins_costs_3_cloth_coca_pottery():
    """zh.full 圣女区: '支付3个衣服，古柯、陶壶各1个，并拿取1张太阳神庙圣女牌'."""
    state = turn_of(started(), 0, "central_plaza")
    goods(state, 0, cloth=2)
    act(state, 0, type="move", to="house_of_virgins")
    assert GAME.to_act(state) == [1]          # cannot afford: the visit ends by itself
    state = turn_of(started(), 0, "central_plaza")
    goods(state, 0, cloth=3)
    act(state, 0, type="move", to="house_of_virgins")
    act(state, 0, type="take", priest="sun")
    assert state["players"][0]["priests"]["sun"] == 1


def test_the_leftmost_card_is_taken_revealing_the_next_slot_number():
    """decisions.md: 'The leftmost card is always taken. A slot's number is revealed when its
    card is taken'; the smallest revealed number counts."""
    from engine.games.machu_picchu.rules import llama_steps
    state = started()
    for taken, steps in enumerate(data.PRIESTS["puma"]["steps"], start=1):
        state["priests_left"]["puma"] = data.PRIESTS["puma"]["count"] - taken
        assert llama_steps(state, "puma") == steps
    assert data.TOTAL_PRIESTS == 15


def test_a_kind_that_is_sold_out_is_not_offered():
    """zh.full: '若已某种祭司或圣女牌已遭换光，玩家即无法取得该种祭司或圣女牌'."""
    state = turn_of(started(), 0, "central_plaza")
    state["priests_left"]["condor"] = 0
    goods(state, 0, cloth=2)
    act(state, 0, type="move", to="house_of_priests")
    assert {a.get("priest") for a in options(state, 0)} == {"puma", None}
