"""The strong Inca Empire bot's settings: a long look-ahead, then a score estimate.

A whole game is some 150 to 320 moves.  Playing every rollout to the end would leave only a
handful of iterations a decision, so each rollout plays 40 moves and then estimates what every
seat will end with (``estimate``): "Score one point for each token placed in the field of
play" plus "three of your five goal cards".  The rollout's moves are the easy bot's, one in
ten uniformly random (``easy_rollout``): the easy bot builds, stocks storage huts and raises
temples the way a real table does and leans towards its own Goals, so a move that starts a
Goal is seen paying off.  Measured on paired seeds, all-random rollouts lost most of the bot's
lead over easy bots at five players and against flat Monte Carlo at two, and rollouts with a
quarter or half of their moves random did no better than these.  Shorter rollouts with more
iterations were weaker: the estimate cannot see what the moves after it will build.

The estimate's worths are fitted, not guessed: regressing the final tokens and totals of easy
bots on the state in the middle of each Era, a card still in hand is worth one to two points
(each is an action still to come), an Active Pool token about half a point, less in the last
Era (what is not placed by the end scores nothing), and a Goal not yet met is met as often as
a logistic curve of the share of its count the seat has already reached, a curve that falls
Era by Era.  The estimates become rewards as a share of the win, so the search plays to win,
not only to score."""
from __future__ import annotations

import math

from engine.search import Settings, easy_rollout, estimate_rewards, outcome_rewards

from . import bot, era
from .data import CARDS, GOALS_BY_ID
from .scoring import BEST_GOALS, goal_progress, table_facts, tokens_on_table

ACTIVE_TOKEN_WORTH = {1: 0.6, 2: 0.6, 3: 0.55, 4: 0.4}    # by Era
CARD_WORTH = {1: 1.2, 2: 1.2, 3: 0.9, 4: 1.0}             # a card in hand, by Era
CARD_VALUE_WORTH = 0.1      # more per point of the easy bot's card value (3 to 9)
FUTURE_TOKEN_WORTH = 0.3    # a Supply token that a later Era's activation will move
SUPPLY_TOKEN_WORTH = 0.1    # a Supply token beyond those: it needs a card to become active
LAST_ERA_SHARE = 0.5        # in Era IV, a Supply token beyond activation may never score
# A Goal not yet met, by Era: the chance it is met by the end is the logistic function of
# INTERCEPT + SLOPE x (the share of its count reached).
GOAL_CHANCE = {1: (-0.40, 1.61), 2: (-1.32, 3.07), 3: (-2.56, 4.04), 4: (-4.34, 4.51)}
WIN_SHARE_SPREAD = 4.0      # points of lead that make a win about e (2.7) times likelier


def estimate(state: dict, seat: int) -> float:
    """The points ``seat`` is likely to end with, seen from the state now."""
    if state["final"] is not None:
        return float(state["final"][seat]["total"])
    now = min(state["era"], era.ERAS)
    future = (era.ERAS - now) * era.BASE_ACTIVATION
    beyond = SUPPLY_TOKEN_WORTH * (1.0 if now < era.ERAS else LAST_ERA_SHARE)
    supply = state["supply"][seat]
    cards = [c for c in state["hands"][seat] if CARDS[c]["type"] != "start"]
    return (tokens_on_table(state, seat)
            + ACTIVE_TOKEN_WORTH[now] * state["active"][seat]
            + FUTURE_TOKEN_WORTH * min(future, supply) + beyond * max(supply - future, 0)
            + sum(CARD_WORTH[now] + CARD_VALUE_WORTH * bot.card_value(c) for c in cards)
            + goals_worth(state, seat))


def goals_worth(state: dict, seat: int) -> float:
    """The best three Goals, each by its points times the chance it is met by the end (a met
    Goal is worth all its points)."""
    facts = table_facts(state, seat)
    now = min(state["era"], era.ERAS)
    values = []
    for gid in state["goals"][seat]:
        goal = GOALS_BY_ID[gid]
        have, need = goal_progress(state, seat, goal, facts)
        values.append(goal["points"] * (1.0 if have >= need else goal_chance(now, have / need)))
    return sum(sorted(values, reverse=True)[:BEST_GOALS])


def goal_chance(now: int, reached: float) -> float:
    intercept, slope = GOAL_CHANCE[now]
    return 1.0 / (1.0 + math.exp(-(intercept + slope * reached)))


def evaluate(game, state: dict) -> list[float]:
    """Rewards in [0, 1] as a finished game gives them: mostly a share of the win (a softmax
    of the estimates), a little for the estimate itself."""
    if game.outcome(state) is not None:
        return outcome_rewards(game, state)
    values = [estimate(state, s) for s in range(len(state["players"]))]
    return estimate_rewards(values, WIN_SHARE_SPREAD)


SETTINGS = Settings(iterations=20, horizon=40, exploration=0.7, rollout=easy_rollout,
                    evaluate=evaluate)
