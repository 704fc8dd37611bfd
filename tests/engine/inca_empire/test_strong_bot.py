"""The strong Inca Empire bot: its determinizations redraw only what the seat cannot see, its
estimate prefers more points, and it plays legal, repeatable moves that no secret changes."""
from __future__ import annotations

import random
from collections import Counter

from engine.core import canonical_json, without_label
from engine.games.inca_empire import GAME, era, strong_bot
from engine.games.inca_empire.data import CARDS, goal_deck

from .helpers import new


def played(players: int, seed: int, moves: int) -> dict:
    """A game after ``moves`` random legal moves."""
    state = new(players, seed)
    chooser = random.Random(seed)
    for _ in range(moves):
        seat = chooser.choice(GAME.to_act(state))
        GAME.apply_in_place(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
    return state


def all_era_cards(state: dict) -> Counter:
    cards = Counter()
    for deck in state["decks"].values():
        cards.update(deck)
    for hand in state["hands"]:
        cards.update(hand)
    for terraces in state["terraces"]:
        cards.update(terraces)
    return cards


def test_a_determinization_keeps_the_seats_own_secrets_and_every_count():
    state = played(4, 3, 60)
    seat = GAME.to_act(state)[0]
    world = GAME.determinize(state, seat, random.Random(5))
    assert world["hands"][seat] == state["hands"][seat]
    assert world["goals"][seat] == state["goals"][seat]
    assert world["terraces"][seat] == state["terraces"][seat]
    for other in range(4):
        assert len(world["hands"][other]) == len(state["hands"][other])
        assert len(world["terraces"][other]) == len(state["terraces"][other])
        assert len(world["goals"][other]) == len(state["goals"][other])
    assert {k: len(d) for k, d in world["decks"].items()} == \
        {k: len(d) for k, d in state["decks"].items()}
    assert all_era_cards(world) == all_era_cards(state), "no card is added or lost"


def test_other_seats_goals_are_drawn_from_the_games_own_goal_deck():
    state = played(3, 4, 10)
    seat = GAME.to_act(state)[0]
    dealt = set()
    for draw in range(20):
        world = GAME.determinize(state, seat, random.Random(draw))
        goals = [g for goals in world["goals"] for g in goals]
        assert len(goals) == len(set(goals)) == 15
        dealt.update(goals)
    assert dealt <= set(goal_deck("4"))
    assert len(dealt) > 15, "other seats' Goals are really drawn again"


def test_other_seats_hands_really_change_but_start_cards_stay_start_cards():
    state = played(5, 6, 12)
    seat = GAME.to_act(state)[0]
    other = (seat + 1) % 5
    hands = {tuple(GAME.determinize(state, seat, random.Random(d))["hands"][other])
             for d in range(10)}
    assert len(hands) > 1
    for hand in hands:
        starts = [c for c in hand if CARDS[c]["type"] == "start"]
        assert len(starts) == sum(CARDS[c]["type"] == "start" for c in state["hands"][other])


def test_a_pending_draft_choice_of_another_seat_is_chosen_again_from_its_new_hand():
    state = new(3, 2)
    assert state["phase"] == era.SHOW
    first = GAME.to_act(state)[0]
    GAME.apply_in_place(state, first, GAME.legal_actions(state, first)[0])
    seat = (first + 1) % 3
    world = GAME.determinize(state, seat, random.Random(1))
    shown = world["draft"]["shown"][first]
    assert len(shown) == 1 and shown[0] in world["hands"][first]


def test_the_estimate_rewards_points_on_the_table():
    state = played(2, 7, 80)
    rewards = strong_bot.evaluate(GAME, state)
    assert all(0.0 <= r <= 1.0 for r in rewards)
    richer = dict(state)
    richer["roads"] = [*state["roads"], {"a": "1,0", "b": "0,0", "owner": 0, "cost": 12}]
    assert strong_bot.estimate(richer, 0) > strong_bot.estimate(state, 0)
    assert strong_bot.evaluate(GAME, richer)[0] > rewards[0]


def test_the_strong_bot_with_its_own_settings_plays_legal_repeatable_blind_moves():
    state = played(3, 9, 40)
    seat = GAME.to_act(state)[0]
    assert len(GAME.legal_actions(state, seat)) > 1, "a real choice, so the search runs"
    before = canonical_json(state)
    chosen = GAME.bot_action(state, seat, "strong")
    assert canonical_json(state) == before
    assert without_label(chosen) in [without_label(a) for a in GAME.legal_actions(state, seat)]
    assert GAME.bot_action(state, seat, "strong") == chosen
    for other in [None, *(s for s in range(3) if s != seat)]:
        varied = GAME.vary_secrets(state, other)
        assert without_label(GAME.bot_action(varied, seat, "strong")) == without_label(chosen)


def test_a_goal_is_worth_more_the_closer_the_seat_is_and_all_its_points_once_met():
    state = played(3, 11, 30)
    seat = 0
    state["goals"][seat] = ["G21b"]   # 18 Terraces with 3 players: 3 points
    worths = []
    for terraces in (0, 6, 12, 17, 18):
        state["terraces"][seat] = ["E1-01"] * terraces
        worths.append(strong_bot.goals_worth(state, seat))
    assert worths == sorted(worths) and len(set(worths)) == len(worths)
    assert worths[-1] == 3.0
    assert worths[-2] < 3.0


def test_an_unmet_goal_is_less_likely_met_the_later_the_era():
    for reached in (0.0, 0.25, 0.5):
        chances = [strong_bot.goal_chance(now, reached) for now in range(1, era.ERAS + 1)]
        assert chances == sorted(chances, reverse=True)
        assert all(0.0 < c < 1.0 for c in chances)


def test_only_the_best_three_goals_count_in_the_estimate():
    state = played(3, 12, 30)
    seat = 1
    state["terraces"][seat] = ["E1-01"] * 19
    state["goals"][seat] = ["G21b", "G22b"]            # both met: 3 + 5 points
    assert strong_bot.goals_worth(state, seat) == 8.0
    state["goals"][seat] = ["G21b", "G22b", "G21b", "G22b"]
    assert strong_bot.goals_worth(state, seat) == 5.0 + 3.0 + 5.0


def test_a_card_in_hand_is_worth_more_than_a_token_in_the_active_pool():
    state = played(3, 13, 30)
    seat = 2
    card = next(c for c in state["decks"]["1"] if CARDS[c]["type"] != "start")
    with_card = {**state, "hands": [list(h) for h in state["hands"]]}
    with_card["hands"][seat].append(card)
    with_token = {**state, "active": list(state["active"])}
    with_token["active"][seat] += 1
    assert strong_bot.estimate(with_card, seat) > strong_bot.estimate(with_token, seat) \
        > strong_bot.estimate(state, seat)


def test_the_rollout_mostly_plays_the_easy_bots_moves_and_sometimes_another_legal_one():
    state = played(4, 14, 50)
    seat = GAME.to_act(state)[0]
    legal = [without_label(a) for a in GAME.legal_actions(state, seat)]
    assert len(legal) > 2
    easy = without_label(GAME.bot_action(state, seat, "easy"))
    rollout = strong_bot.SETTINGS.rollout
    chosen = [without_label(rollout(GAME, state, seat, random.Random(d))) for d in range(60)]
    assert all(c in legal for c in chosen)
    assert chosen.count(easy) > len(chosen) / 2
    assert any(c != easy for c in chosen)
