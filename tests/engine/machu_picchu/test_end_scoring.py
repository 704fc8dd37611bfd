"""End of the game and scoring (zh.full 游戏结束 / 计分 / 黄金; en: End of the Game, Spanish
Conquest; decisions.md: End and scoring, Incatrail and Sacrifice Cards)."""
from itertools import combinations

from engine.games.machu_picchu import data, scoring

from .helpers import GAME, act, give_priest, goods, started, turn_of


def test_english_worked_conquest_example():
    """en: 'Blue 17 VP 18 gold x3 = 51; Green 34, 12 x1 = 34; Red 18, 17 x2 = 36; Yellow 27,
    17 x2 = 54 — yellow has the highest final score with 54 and wins'."""
    vps, golds = [17, 34, 18, 27], [18, 12, 17, 17]
    assert scoring.conquest_multipliers(golds) == [3, 1, 2, 2]
    finals = scoring.conquest_scores(vps, golds)
    assert finals == [51, 34, 36, 54]
    assert scoring.winners(finals, [0, 0, 0, 0]) == [3]


def test_conquest_ties_share_the_multiplier_and_ranks_are_dense():
    """en: 'If, for example, two players have the same number of gold, but more gold than any
    other player, they both triple' ; zh.full: '持有次多黄金者其得分仍作2倍计算'."""
    assert scoring.conquest_multipliers([9, 9, 7, 3]) == [3, 3, 2, 1]
    assert scoring.conquest_multipliers([5, 5]) == [3, 3]


def test_the_28_cards_are_every_pair_of_the_8_icons_with_64_gold():
    """decisions.md: '28 cards = every pair of the 8 icons once' ; gold table (64 in all)."""
    pairs = {frozenset(c["icons"]) for c in data.CARDS}
    assert pairs == {frozenset(p) for p in combinations(data.ICONS, 2)}
    assert sum(c["gold"] for c in data.CARDS) == 64
    gold = {frozenset(c["icons"]): c["gold"] for c in data.CARDS}
    assert gold[frozenset(("corn", "cloth"))] == 3 and gold[frozenset(("coca", "sun"))] == 1
    assert gold[frozenset(("condor", "puma"))] == 2 and gold[frozenset(("puma", "sun"))] == 1


def card(a, b):
    return next(c["id"] for c in data.CARDS if set(c["icons"]) == {a, b})


def test_vp_icons_count_own_incas_in_the_district_and_own_cards_of_the_temple():
    """zh.full 计分: '在该指定生产区中，每有1个己方工人皆可获分数' ; '每张该种祭司或圣女牌的分数'."""
    state = started(2, free="weavers_quarter")
    state["incas"]["weavers_quarter"] = [3, 1]
    state["players"][0]["cards"] = [card("cloth", "condor"), card("cloth", "corn")]
    give_priest(state, 0, "condor", 2)
    state["players"][0]["scout"] = 5
    # cloth twice: 2 VP per weaver (3 weavers) = 6; condor once: 1 per condor card = 2; corn 0
    assert scoring.victory_points(state, 0) == 8


def test_trail_bonus_1_on_7_to_12_and_2_on_13_to_19_as_vp_and_as_gold():
    """zh.full: '斥候若已抵达粮仓(7-12格)则多得1分；若已抵达驼羊栅(13-19格)则多得2分' and the same
    as gold in a conquest (decisions.md)."""
    assert [data.trail_bonus(f) for f in (0, 6, 7, 12, 13, 19)] == [0, 0, 1, 1, 2, 2]
    state = started()
    state["players"][0]["cards"] = []
    state["players"][0]["scout"] = 13
    assert scoring.victory_points(state, 0) == 2 and scoring.gold(state, 0) == 2


def test_taking_the_15th_priest_or_virgin_ends_the_game_after_that_turn_unmultiplied():
    """en: 'When all 15 Priests and Virgins are acquired ... the game ends immediately after the
    turn of the player who took the last Priest or Virgin card ... most Victory Points wins'."""
    state = turn_of(started(), 0, "central_plaza")
    state["priests_left"] = {"condor": 1, "puma": 0, "sun": 0}
    state["players"][1]["priests"] = {"condor": 3, "puma": 5, "sun": 6}
    act(state, 0, type="move", to="house_of_priests")
    act(state, 0, type="take", priest="condor")
    result = GAME.outcome(state)
    assert result["reason"] == "rescue_priests" and GAME.to_act(state) == []
    assert result["scores"] == {s: result["detail"][s]["vp"] for s in (0, 1)}


def test_ties_are_broken_by_goods_left_3_corn_count_as_one_then_shared():
    """en: 'The number of remaining units of goods is used as a tie breaker (3 corn count as
    one unit)'."""
    state = started(3)
    for p in state["players"]:
        p["cards"] = []
    goods(state, 0, corn=5, llama=0, coca=0, pottery=0, cloth=0)    # 1 good
    goods(state, 1, corn=6, llama=0, coca=0, pottery=0, cloth=0)    # 2 goods
    goods(state, 2, corn=0, llama=1, coca=1, pottery=0, cloth=0)    # 2 goods
    assert [scoring.goods_left(state, s) for s in range(3)] == [1, 2, 2]
    state["over"] = {"reason": "conquest"}
    assert GAME.outcome(state)["winners"] == [1, 2]


def test_all_hands_are_shown_once_the_game_is_over():
    """en: cards are secret 'during the game'; final scoring shows them."""
    state = started()
    assert all("cards" not in p for p in GAME.view(state, 0)["players"])
    state["over"] = {"reason": "conquest"}
    view = GAME.view(state, 1)
    assert all(len(p["cards"]) == 1 for p in view["players"]) and "outcome" in view
