"""Timeout default and bot policy (docs "Default and bot")."""
from __future__ import annotations

import random

from engine import get_game
from engine.games.incan_gold import data

from .helpers import GAME, LEAVE, staged


def test_default_action_is_to_leave():
    """Brief: the safe action when time runs out is leaving the temple (banks the gems)."""
    state = staged(3, path=["t1"], next_cards=["t2"])
    for seat in range(3):
        assert {"type": GAME.default_action(state, seat)["type"]} == LEAVE


def test_bot_stays_when_nothing_is_at_risk():
    """Bot: with no hazard showing, staying cannot lose anything."""
    state = staged(3, path=["t15"], next_cards=["t2"], carrying=[5, 5, 5])
    assert GAME.bot_action(state, 0)["type"] == "stay"


def test_bot_leaves_when_only_hazards_are_left_to_draw():
    """Bot: with every treasure on the path, one more card can only cost the gems carried."""
    treasures = [f"t{v}" for v in sorted(set(data.TREASURE_VALUES))] + ["t5", "t7", "t11"]
    state = staged(3, path=["h:fire", *treasures[:8], "h:snakes", *treasures[8:]],
                   next_cards=["h:fire"], carrying=[20, 20, 20])
    for seat in range(3):
        assert GAME.bot_action(state, seat)["type"] == "leave"


def test_bot_does_not_read_the_deck_order():
    """Bot: only the deck's public contents matter, never its hidden order."""
    for seed in range(20):
        state = staged(4, seed=seed, path=["h:fire", "t9"], next_cards=["t2"],
                       carrying=[seed, 3, 3, 3])
        other = staged(4, seed=seed, path=["h:fire", "t9"], next_cards=["t2"],
                       carrying=[seed, 3, 3, 3])
        random.Random(seed).shuffle(other["deck"])
        assert GAME.bot_action(state, 0) == GAME.bot_action(other, 0)


def _play(game, players: int, seed: int, bots: set[int]) -> dict:
    state = game.setup([f"P{i}" for i in range(players)], seed, {})
    chooser = random.Random(seed)
    while game.outcome(state) is None:
        for seat in game.to_act(state):
            action = (game.bot_action(state, seat) if seat in bots
                      else chooser.choice(game.legal_actions(state, seat)))
            game.apply_in_place(state, seat, action)
    return game.outcome(state)["scores"]


def test_bot_scores_better_than_random_play():
    """Brief: the bot must beat random choices; over 200 seeded games its mean score is higher
    than the mean of the random seats at the same tables."""
    game = get_game("incan_gold")
    bot_total = random_total = random_seats = 0
    for seed in range(200):
        players = 3 + seed % 4
        scores = _play(game, players, seed, {seed % players})
        bot_total += scores[seed % players]
        random_total += sum(v for s, v in scores.items() if s != seed % players)
        random_seats += players - 1
    assert bot_total / 200 > 1.5 * random_total / random_seats
