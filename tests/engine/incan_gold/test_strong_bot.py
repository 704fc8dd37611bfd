"""The strong bot (engine/games/incan_gold/strong_bot.py): legal, reproducible, blind to what
its seat cannot see, not in lockstep with a bot in the same place, and sensible where the
choice is plain."""
from __future__ import annotations

import random

import pytest

from engine import search
from engine.core import clone
from engine.games.incan_gold import hidden, opponent_model, seat_types

from .helpers import GAME, everyone, staged

SMALL = search.Settings(iterations=12)


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    monkeypatch.setattr(GAME, "search_settings", SMALL)


def strong(state: dict, seat: int) -> str:
    return GAME.bot_action(state, seat, "strong")["type"]


def decisions(players: int, seed: int, every: int = 5):
    """(state, seat) along a game the easy bots play, every ``every`` decisions."""
    state = GAME.setup([f"P{i}" for i in range(players)], seed, {})
    count = 0
    while GAME.outcome(state) is None:
        for seat in GAME.to_act(state):
            if seat not in GAME.to_act(state):
                continue
            if count % every == 0:
                yield state, seat
            count += 1
            GAME.apply_in_place(state, seat, GAME.bot_action(state, seat))


def risky(players: int = 4, seed: int = 1, carrying: int = 12) -> dict:
    """Three hazard kinds showing and gems carried: a choice with something on each side."""
    return staged(players, seed=seed, path=["h:fire", "t11", "h:snakes", "t9", "h:spiders"],
                  carrying=[carrying] * players)


@pytest.mark.parametrize("players", [3, 8])
def test_the_strong_bot_only_stays_or_leaves_when_asked(players):
    for state, seat in decisions(players, seed=players, every=7):
        legal = [a["type"] for a in GAME.legal_actions(state, seat)]
        assert strong(state, seat) in legal


def test_the_same_state_gives_the_same_choice():
    for state, seat in decisions(5, seed=3, every=9):
        assert strong(clone(state), seat) == strong(state, seat)


def test_the_choice_ignores_other_tents_pending_choices_the_deck_order_and_the_seed():
    """Other tents and pending choices are secret ("他人のテントに触ったり、その中身を見て数える
    ことはできない"; choices are made secretly, all at the same time), and nobody sees the deck."""
    for state, seat in decisions(6, seed=11, every=29):
        chosen = strong(state, seat)
        for other in [None, *(s for s in range(6) if s != seat)]:
            assert strong(GAME.vary_secrets(state, other), seat) == chosen


def test_two_strong_bots_in_the_same_place_do_not_always_choose_alike():
    """Seats inside carry the same gems and see the same cards; a bot that chose like its
    neighbour every time would leave with it, split everything and never take an artifact."""
    differ = 0
    for seed in range(12):
        state = risky(seed=seed, carrying=6 + seed % 10)
        differ += strong(state, 0) != strong(state, 1)
    assert differ > 0


def test_it_leaves_when_another_card_would_likely_cost_a_fortune(monkeypatch):
    """A second hazard of a kind ends the round and "everyone inside loses the gems carried
    this round" (docs "A turn"): with every kind showing, more than half the deck would end
    the round, only small treasures are left, and 40 gems are carried -- it leaves."""
    path = ["h:fire", "t17", "h:snakes", "t15", "t14", "h:spiders", "t13", "t11",
            "h:mummies", "t11", "t9", "h:rockfall"]
    monkeypatch.setattr(GAME, "search_settings", search.Settings(iterations=48))
    for seed in range(4):
        state = staged(3, seed=seed, path=path, carrying=[40, 40, 40])
        assert strong(state, 0) == "leave"


def test_it_stays_when_no_card_can_end_the_round():
    """"A hazard is harmless the first time its kind shows in a round" (notes): with no hazard
    showing and nothing on the path to take, staying cannot lose anything."""
    for seed in range(4):
        state = staged(4, seed=seed, path=["t7", "t14"], carrying=[5, 5, 5, 5])
        assert strong(state, 2) == "stay"


def test_a_determinization_keeps_who_has_chosen_and_draws_their_choices_again():
    state = risky(4)
    GAME.apply_in_place(state, 1, {"type": "stay"})
    GAME.apply_in_place(state, 2, {"type": "stay"})
    seen = []
    for draw in range(20):
        world = GAME.determinize(state, 0, random.Random(draw))
        assert GAME.to_act(world) == GAME.to_act(state)
        seen.append(world["players"][1]["choice"])
    assert set(seen) == {"stay", "leave"}


def test_other_tents_are_estimated_from_what_was_banked_in_all():
    """Tents are secret, but every treasure turned and every gem lost is public: the others'
    tents together are what was banked minus the seat's own tent."""
    state = GAME.setup(["A", "B", "C", "D"], 5, {})
    while state["round"] < 3:
        for seat in GAME.to_act(state):
            GAME.apply_in_place(state, seat, GAME.bot_action(state, seat))
    world = GAME.determinize(state, 0, random.Random(1))
    real_others = sum(p["tent"] for p in state["players"][1:])
    assert sum(p["tent"] for p in world["players"][1:]) == real_others
    assert world["players"][0]["tent"] == state["players"][0]["tent"]


def test_the_model_never_leaves_when_no_card_can_end_the_round():
    state = staged(5, path=["t7", "t3"], carrying=[2] * 5)
    reading = opponent_model.risk_reading(state)
    assert opponent_model.leave_chance(state, reading) == 0.0
    assert hidden.banked_in_all(GAME.view(state, 0)) == 0


def bold_weight(belief: list[float]) -> float:
    """How much of a belief says "stays on past ten gems": the bolder courages and the higher
    thresholds."""
    return sum(w for (name, parameter), w in zip(seat_types.KINDS, belief)
               if (name == "courage" and parameter >= 1.0) or (name == "gems" and parameter > 10))


def test_the_belief_about_other_seats_reads_only_the_public_record():
    """Other tents and pending choices are secret; the belief is built from a seat's view."""
    for state, seat in decisions(5, seed=7, every=13):
        belief = seat_types.beliefs(GAME.view(state, seat))
        for other in [None, *(s for s in range(5) if s != seat)]:
            varied = GAME.vary_secrets(state, other)
            assert seat_types.beliefs(GAME.view(varied, seat)) == belief


def test_a_seat_caught_with_its_gems_is_believed_bolder_than_one_that_left_in_time():
    """A second hazard catches those inside (docs "A turn"): the record shows who stayed to
    the end, carrying what."""
    state = staged(4, path=["h:fire", "t11", "h:snakes", "t9", "t14"], next_cards=["h:fire"],
                   carrying=[8, 8, 8, 8])
    everyone(state, {0: "stay", 1: "stay", 2: "leave", 3: "stay"})
    assert state["history"][0]["caught"] == [0, 1, 3]
    belief = seat_types.beliefs(GAME.view(state, 0))
    assert bold_weight(belief[1]) > bold_weight(belief[2])


def test_seats_still_inside_past_ten_gems_are_not_believed_to_leave_at_ten():
    """Seats inside have stayed at every decision of the round, so a rule that would have
    left them at ten gems carried keeps almost no weight."""
    state = staged(4, path=["h:fire", "t11", "t13", "h:snakes", "t17", "t15", "t5"],
                   carrying=[15, 15, 15, 15])
    at_ten = seat_types.KINDS.index(("gems", 10))
    for other, belief in seat_types.beliefs(GAME.view(state, 0)).items():
        assert belief[at_ten] < seat_types.PRIOR[at_ten] / 5
    fresh = seat_types.beliefs(GAME.view(staged(4, path=["t5"]), 0))
    assert fresh[1] == pytest.approx(list(seat_types.PRIOR))


def test_imagined_seats_play_the_kind_drawn_for_them():
    """A seat that leaves at ten gems stays at nine; one that leaves to take what lies on the
    path leaves once enough lies there; the easy rule never leaves with no hazard showing."""
    moods = opponent_model.FreshMoods(random.Random(3))
    kinds = {0: ("gems", 10), 1: ("gems", 10), 2: ("grab", 4), 3: opponent_model.EASY}
    state = staged(4, path=["t7", ("t14", 5)], carrying=[10, 9, 9, 9])
    opponent_model.choose_pending(state, [0, 1, 2, 3], moods, kinds)
    assert [p["choice"] for p in state["players"]] == ["leave", "stay", "leave", "stay"]
