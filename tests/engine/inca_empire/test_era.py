"""An Era's steps (rulebook "How to Play" 1-6 and "End of the Game")."""
from __future__ import annotations

import pytest

from engine.core import IllegalAction, canonical_json
from engine.games.inca_empire import GAME, era
from engine.games.inca_empire.data import CARDS

from .helpers import act, cards_where, in_actions, legal_of, legal_types, new, tokens_of


def finish_draft(state):
    while state["phase"] in (era.SHOW, era.PICK):
        seat = GAME.to_act(state)[0]
        GAME.apply_in_place(state, seat, GAME.default_action(state, seat))


def test_activate_six_tokens_in_era_one():
    """1. Activate Tokens: 6 tokens move from the Supply to the Active Pool."""
    state = new(3)
    assert state["supply"] == [64] * 3 and state["active"] == [6] * 3


def test_activate_one_more_per_pair_of_terraces():
    """1. Activate Tokens: plus one token for each pair of Terraces on the table."""
    state = new(2)
    state["terraces"] = [["a", "b", "c", "d", "e"], ["a"]]
    before = list(state["supply"])
    state["era"] = 2
    era.start_era(state)
    assert before[0] - state["supply"][0] == 8 and before[1] - state["supply"][1] == 6


@pytest.mark.parametrize("n,size", [(2, 6), (3, 6), (4, 5), (5, 5)])
def test_deal_sizes(n, size):
    """2. Deal Cards: 6 cards (2-3 players) or 5 (4-5); one less in Era I, where each
    player also holds a Trade Agreement and a Start card."""
    state = new(n)
    assert all(len(h) == size - 1 + 2 for h in state["hands"])
    finish_draft(state)
    before = [len(h) for h in state["hands"]]
    state["era"] = 2
    era.start_era(state)
    assert [len(h) for h in state["hands"]] == [b + size for b in before]


def test_draft_order_forward_then_reverse():
    """3. Draft: pick in player order, then a second card in reverse order: the last player
    picks two in a row, the first player picks first and last."""
    state = new(4)
    state["first"] = 2
    state["draft"]["shown"] = [[] for _ in range(4)]
    for seat in range(4):
        for _ in range(2):
            act(state, seat, **legal_of(state, seat, "show")[0])
    assert state["phase"] == era.PICK
    assert state["draft"]["order"] == [2, 3, 0, 1, 1, 0, 3, 2]
    assert len(state["draft"]["pool"]) == 8


def test_draft_picks_any_shown_card_and_keeps_hand_size():
    """3. Draft: every player shows two cards face up; each takes any one card, twice."""
    state = new(3)
    sizes = [len(h) for h in state["hands"]]
    for seat in range(3):
        act(state, seat, **legal_of(state, seat, "show")[0])
        act(state, seat, **legal_of(state, seat, "show")[0])
    shown_by_2 = [p["card"] for p in state["draft"]["pool"] if p["from"] == 2]
    act(state, 0, type="take", card=shown_by_2[0])
    assert shown_by_2[0] in state["hands"][0]
    finish_draft(state)
    assert [len(h) for h in state["hands"]] == sizes
    assert state["phase"] == era.ACTIONS


def test_draft_shows_only_era_cards():
    """3. Draft Era cards: the Start card is not an Era card and is never shown."""
    state = new(2)
    for seat in range(2):
        assert all(CARDS[a["card"]]["type"] != "start" for a in legal_of(state, seat, "show"))


def test_draft_reveal_is_simultaneous_and_raises_epoch():
    """3. Draft: cards are played face up simultaneously; nobody is told before all chose."""
    state = new(2)
    epoch = state["epoch"]
    act(state, 0, **legal_of(state, 0, "show")[0])
    act(state, 0, **legal_of(state, 0, "show")[0])
    assert state["epoch"] == epoch and GAME.to_act(state) == [1]
    act(state, 1, **legal_of(state, 1, "show")[0])
    act(state, 1, **legal_of(state, 1, "show")[0])
    assert state["epoch"] == epoch + 1 and state["phase"] == era.PICK


@pytest.mark.parametrize("n", [2, 3, 5])
def test_draft_choice_does_not_interfere(n):
    """Hidden information: until the reveal, every other seat's view (and decision key) is
    byte-identical whichever cards a seat chose."""
    state = new(n, 21)
    options = legal_of(state, 0, "show")
    views = set()
    for first in options:
        for second_i in range(2):
            s = GAME.apply(state, 0, first)
            s = GAME.apply(s, 0, legal_of(s, 0, "show")[second_i])
            others = [canonical_json(GAME.view(s, o)) + GAME.decision_key(s, o) for o in range(1, n)]
            views.add(canonical_json(GAME.view(s, None)) + "|".join(others) + str(s["epoch"]))
    assert len(views) == 1


def test_actions_go_left_from_first_player_and_skip_passed():
    """4. Take Actions: from the First Player to the left until everyone passed; a player
    who passed takes no more actions this Era."""
    state = in_actions(3)
    state["first"] = state["turn"] = 1
    state["acted"] = [2, 2, 2]
    assert GAME.to_act(state) == [1]
    act(state, 1, type="pass")
    assert GAME.to_act(state) == [2]
    act(state, 2, type="pass")
    assert GAME.to_act(state) == [0]
    terrace = legal_of(state, 0, "terrace")[0]
    act(state, 0, **terrace)
    act(state, 0, type="nothing")
    assert GAME.to_act(state) == [0]  # everyone else passed


def test_two_actions_before_passing():
    """4. Take Actions: each player must perform two actions in an Era."""
    state = in_actions(2)
    assert "pass" not in legal_types(state, 0)
    with pytest.raises(IllegalAction):
        act(state, 0, type="pass")
    for _ in range(2):
        act(state, 0, **legal_of(state, 0, "terrace")[0])
        act(state, 0, type="nothing")
        act(state, 1, **legal_of(state, 1, "terrace")[0])
        act(state, 1, type="nothing")
    assert "pass" in legal_types(state, 0)


def test_may_pass_early_when_no_card_can_be_played():
    """4. Take Actions: each action plays a card; with none playable, passing is the way out."""
    state = in_actions(2, hands=[[], None])
    assert legal_types(state, 0) == {"pass"}


def test_cards_carry_over_to_next_era():
    """4. Take Actions: no hand limit; cards left in hand carry over to the next round."""
    state = new(2)
    finish_draft(state)
    hand = list(state["hands"][1])
    for seat in (0, 1):
        state["acted"][seat] = 2
    act(state, 0, type="pass")
    act(state, 1, type="pass")
    assert state["era"] == 2
    assert set(hand) <= set(state["hands"][1])


def trade_state():
    ta = cards_where(type="trade", era=1)
    state = in_actions(3, hands=[[ta[0]], [ta[1]], [ta[2]]])
    state["first"] = state["turn"] = 1
    return state, ta


def test_terminate_trade_agreements_in_turn_order_from_first_player():
    """5. Terminate Trade Agreements: starting with the First Player, in turn order; token to
    the Active Pool, card discarded, one card drawn from the current Era deck, then any
    action except playing a Trade Agreement."""
    state, ta = trade_state()
    act(state, 1, type="trade", card=ta[1], space=1)
    act(state, 2, type="trade", card=ta[2], space=2)
    act(state, 0, type="trade", card=ta[0], space=0)
    assert [state["supply"][s] for s in range(3)] == [63, 63, 63]
    state["acted"] = [2, 2, 2]
    for seat in (1, 2, 0):
        act(state, seat, type="pass")
    assert state["phase"] == era.CASH
    order = []
    while state["phase"] == era.CASH:
        seat = GAME.to_act(state)[0]
        order.append(seat)
        assert ta[seat] in state["discard"]
        assert state["active"][seat] == 7
        assert "trade" not in legal_types(state, seat) and "skip" in legal_types(state, seat)
        assert len(state["hands"][seat]) == 1  # the drawn card
        act(state, seat, type="skip")
    assert order == [1, 2, 0]
    assert all(tokens_of(state, s) == 70 for s in range(3))


def test_cash_in_free_action_may_build():
    """5. Terminate: after drawing, the player MAY take any action (here: a Terrace)."""
    state, ta = trade_state()
    act(state, 1, type="trade", card=ta[1], space=1)
    state["acted"] = [2, 2, 2]
    for seat in (2, 0, 1):
        act(state, seat, type="pass")
    assert GAME.to_act(state) == [1]
    act(state, 1, **legal_of(state, 1, "terrace")[0])
    act(state, 1, type="nothing")
    assert state["phase"] == era.SHOW and state["era"] == 2


def test_first_player_marker_passes_left():
    """6. Pass the Gold Nugget: the First Player marker goes to the left after each Era."""
    state = in_actions(3)
    state["acted"] = [2, 2, 2]
    for seat in (0, 1, 2):
        act(state, seat, type="pass")
    assert state["first"] == 1 and state["era"] == 2


def test_game_ends_after_era_four():
    """End of the Game: after Era IV the scores are tallied; nobody acts any more."""
    state = in_actions(2)
    state["era"] = 4
    state["acted"] = [2, 2]
    act(state, 0, type="pass")
    act(state, 1, type="pass")
    assert state["phase"] == era.OVER and GAME.to_act(state) == []
    assert GAME.outcome(state) is not None
    with pytest.raises(IllegalAction):
        act(state, 0, type="pass")


def test_passed_player_gets_no_actions():
    """4. Take Actions: once a player has passed, they can no longer act in this Era."""
    state = in_actions(3)
    state["acted"] = [2, 2, 2]
    act(state, 0, type="pass")
    assert GAME.legal_actions(state, 0) == [] and 0 not in GAME.to_act(state)
    with pytest.raises(IllegalAction):
        act(state, 0, type="pass")


def test_decision_key_changes_per_decision():
    """Protocol: a new decision gets a new key; in the simultaneous draft another seat's
    choice leaves a waiting seat's key alone."""
    state = new(3)
    key1 = GAME.decision_key(state, 1)
    act(state, 0, **legal_of(state, 0, "show")[0])
    assert GAME.decision_key(state, 1) == key1
    act(state, 1, **legal_of(state, 1, "show")[0])
    assert GAME.decision_key(state, 1) != key1
    state = in_actions(2, hands=[["E1-02", "E1-03"], None])
    k0 = GAME.decision_key(state, 0)
    assert GAME.decision_key(state, 1) == ""
    act(state, 0, type="terrace", card="E1-02")
    k1 = GAME.decision_key(state, 0)
    act(state, 0, type="nothing")
    assert len({k0, k1, GAME.decision_key(state, 1)}) == 3


@pytest.mark.parametrize("n,number", [(2, 3), (4, 2), (5, 4)])
def test_draft_choice_does_not_interfere_in_later_eras(n, number):
    """Hidden information, later Eras (bigger hands, a table in play): a seat's choice never
    shows in another seat's view before the reveal."""
    state = new(n, 40 + n)
    while not (state["era"] == number and state["phase"] == era.SHOW):
        seat = GAME.to_act(state)[0]
        GAME.apply_in_place(state, seat, GAME.bot_action(state, seat))
    seat = GAME.to_act(state)[-1]
    seen = set()
    for option in legal_of(state, seat, "show"):
        s = GAME.apply(state, seat, option)
        seen.add("|".join(canonical_json(GAME.view(s, o)) + GAME.decision_key(s, o)
                          for o in range(n) if o != seat) + canonical_json(GAME.view(s, None)))
    assert len(seen) == 1
