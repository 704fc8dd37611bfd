"""Incatrail and Sacrifice Cards (zh.full 印加之路; en: The Incatrail; decisions.md)."""
from engine.games.machu_picchu import data

from .helpers import GAME, act, give_priest, goods, options, phase, same, started, turn_of


def test_granary_3_corn_and_stable_1_llama_paid_at_the_end_of_the_turn():
    """en: 'The llama and the corn received on the Incatrail are paid at the end of the turn.
    In particular, a player can not use a llama from the Llama Stable to sacrifice with it'."""
    state = turn_of(started(), 0, "sun_clock")
    state["players"][0]["scout"] = 10
    give_priest(state, 0, "sun", 2)
    give_priest(state, 1, "sun")                            # seat 1 keeps the turn open
    goods(state, 0, llama=1)
    act(state, 0, type="move", to="sun_temple")           # 10 + 3 = 13: stable passed
    act(state, 0, type="sacrifice", good="llama")           # 2 cards, but the stable llama
    assert state["players"][0]["goods"]["llama"] == 0       # is not there yet: finished
    assert GAME.to_act(state) == [1]
    act(state, 1, type="done")                              # the turn ends: paid now
    assert state["players"][0]["goods"]["llama"] == 1 and state["players"][0]["scout"] == 18


def test_reaching_the_summit_draws_3_and_returns_any_2_of_the_whole_hand():
    """en: 'secretly draws 3 Sacrifice Cards ... returns 2 cards to the bottom ... He can
    return any card he wants, even cards he had in possession before'."""
    state = turn_of(started(), 0, "central_plaza")
    state["players"][0]["scout"] = 18
    old = state["players"][0]["cards"][0]
    top3 = state["deck"][:3]
    epoch = state["epoch"]
    act(state, 0, type="move", to="main_temple")           # 18 + 3: summit, then field 1
    assert phase(state) == "summit" and state["epoch"] == epoch + 1
    assert state["players"][0]["scout"] == 1
    assert {a["card"] for a in options(state, 0)} == set(top3) | {old}
    act(state, 0, type="return_card", card=old)
    act(state, 0, type="return_card", card=top3[0])
    assert sorted(state["players"][0]["cards"]) == sorted(top3[1:])
    assert state["deck"][-2:] == [old, top3[0]] and len(state["deck"]) == 28 - 2 - 1


def test_two_cards_left_draw_both_and_return_one():
    """en: 'If there are only 2 Sacrifice Cards left, the player draws both of them and returns
    1 card of his choice'."""
    state = turn_of(started(), 0, "central_plaza")
    state["deck"], spare = state["deck"][:2], state["deck"][2:]
    state["players"][1]["cards"] += spare          # keep all 28 cards somewhere
    state["players"][0]["scout"] = 19
    act(state, 0, type="move", to="main_temple")
    assert phase(state) == "summit" and len(options(state, 0)) == 3
    act(state, 0, type="return_card", card=options(state, 0)[0]["card"])
    assert len(state["deck"]) == 1 and len(state["players"][0]["cards"]) == 2
    assert phase(state) == "sacrifice"


def test_one_card_left_is_simply_claimed():
    """en: 'If there is only 1 card left, the player simply claims it'."""
    state = turn_of(started(), 0, "central_plaza")
    last = state["deck"][0]
    state["players"][1]["cards"] += state["deck"][1:]
    state["deck"] = [last]
    state["players"][0]["scout"] = 19
    act(state, 0, type="move", to="main_temple")
    assert last in state["players"][0]["cards"] and phase(state) == "sacrifice"


def test_a_long_advance_passes_the_summit_more_than_once():
    """decisions.md: 'the scout continues from 0 with the remaining steps (a long advance can
    pass the summit more than once)'; en: from 18, 5 steps end on 3."""
    from engine.games.machu_picchu.trail import advance
    state = started()
    state["players"][0]["scout"] = 18
    advance(state, 0, 5)
    assert state["players"][0]["scout"] == 3
    state["queue"] = [{"k": "end_turn", "seat": 0}]
    state["players"][0]["scout"] = 15
    advance(state, 0, 30)
    assert state["players"][0]["scout"] == 5 and state["queue"][0]["count"] == 2
    assert state["players"][0]["due"] == {"corn": 3, "llama": 1}


def test_deck_exhausted_a_card_still_owed_is_3_vp_and_the_game_ends_after_the_turn():
    """en: 'the game ends immediately if the stack with the 28 Sacrifice Cards is exhausted.
    If in this case even more players should be entitled to get a Sacrifice Card, they get 3
    Victory Points instead'."""
    state = turn_of(started(), 0, "central_plaza")
    state["players"][1]["cards"] += state["deck"][1:]
    state["deck"] = state["deck"][:1]
    state["players"][0]["scout"] = 19
    state["players"][1]["scout"] = 19
    give_priest(state, 1, "condor")
    act(state, 0, type="move", to="condor_temple")         # takes the last card
    assert state["deck"] == [] and state["over"] is None
    assert GAME.to_act(state) == [1]                       # others still sacrifice
    act(state, 1, type="sacrifice", good="llama")         # summit: nothing left to draw
    assert state["players"][1]["owed"] == 1
    result = GAME.outcome(state)
    assert result["reason"] == "rescue_deck"
    assert result["detail"][1]["vp"] >= data.OWED_CARD_VP


def test_summit_choice_is_invisible_to_every_other_seat():
    """en: 'Sacrifice Cards are kept hidden from the other players; only the number of cards
    of a player has to be made public' — which 2 go back leaves other views identical."""
    state = turn_of(started(3), 0, "central_plaza")
    state["players"][0]["scout"] = 18
    act(state, 0, type="move", to="main_temple")
    assert phase(state) == "summit"
    views = []
    for first in options(state, 0):
        branch = GAME.apply(state, 0, first)
        second = [a for a in GAME.legal_actions(branch, 0) if a["type"] == "return_card"][0]
        branch = GAME.apply(branch, 0, second)
        views.append([GAME.view(branch, s) for s in (1, 2, None)])
        mine = [c["id"] for c in GAME.view(branch, 0)["your_cards"]]
        assert mine == branch["players"][0]["cards"]
    assert all(same(v, views[0]) for v in views)
    for s in (1, 2):
        assert not any(c["id"] in state["players"][0]["cards"]
                       for c in GAME.view(state, s)["your_cards"])


def test_a_short_bank_pays_what_it_has():
    """Decision (docs: bank short): a payout the bank cannot cover in full pays what is left."""
    state = turn_of(started(), 0, "central_plaza")
    state["players"][0]["scout"] = 5
    spare = state["bank"]["corn"] - 1
    goods(state, 1, corn=state["players"][1]["goods"]["corn"] + spare)
    act(state, 0, type="move", to="main_temple")          # 5 + 3: granary passed
    act(state, 0, type="done")
    act(state, 1, type="done")
    assert state["bank"]["corn"] == 0 and state["players"][0]["goods"]["corn"] == 3 + 1


def test_two_summits_in_one_advance_are_resolved_one_after_the_other():
    """decisions.md: 'a long advance can pass the summit more than once' — each pass draws 3
    and returns 2 before the next draw (returned cards are at the bottom, not redrawn)."""
    from engine.games.machu_picchu import rules
    from engine.games.machu_picchu.trail import advance
    state = turn_of(started(), 0, "central_plaza")
    state["queue"] = [{"k": "end_turn", "seat": 0}]
    state["players"][0]["scout"] = 15
    first, second = state["deck"][:3], state["deck"][3:6]
    advance(state, 0, 30)
    rules.settle(state, 0)
    assert GAME.to_act(state) == [0] and set(first) <= set(state["players"][0]["cards"])
    act(state, 0, type="return_card", card=first[0])
    act(state, 0, type="return_card", card=first[1])
    assert set(second) <= set(state["players"][0]["cards"])      # second draw, 3 new cards
    act(state, 0, type="return_card", card=second[0])
    act(state, 0, type="return_card", card=second[1])
    assert len(state["players"][0]["cards"]) == 3 and state["deck"][-4:] == [
        first[0], first[1], second[0], second[1]]
    assert GAME.to_act(state) == [1] and state["players"][0]["scout"] == 5
