"""The strong Machu Picchu bot: information-set Monte Carlo tree search (``engine/search.py``)
with this game's cheap rollout and its estimate of an unfinished position.

Why a short horizon and an estimate, not rollouts to the end: a game of Machu Picchu is
hundreds of decisions long, and what a move is worth shows within a round or two (goods in
hand, a Priest bought, Incas placed, steps toward the next Sacrifice Card).  The estimate is
the lookahead bot's valuation (``lookahead.value``): points as they would count now, times
the conquest multiplier the seat's gold may earn, plus what its goods, Priests and Virgins,
Incas (in districts, in supply, at the Sun Clock), Moon Tiles and steps on the Incatrail can
still become.  Each seat's estimate becomes a reward in [0, 1] the way a finished game's is
(``search.outcome_rewards``): mostly the chance of winning, a little for the margin.

Why the rollout is the simple bot with some randomness: the lookahead bot costs milliseconds
a decision, the simple one a fraction of that; the random moves keep rollouts from all
telling the same story, and let the Sun Clock, the temples and the Houses show up in them.
"""
from __future__ import annotations

import math
import random

from engine.search import Settings

from . import bot, lookahead, rules

WANDER = 0.15          # a rollout move is uniformly random this often
WIN_SPREAD = 6.0       # estimate points that make one seat e times likelier to be ahead
MARGIN_SHARE = 0.2     # of a reward, the share that is the margin (as in a finished game)


def rollout(game, state: dict, seat: int, rng: random.Random) -> dict:
    """A rollout move: the simple bot's, or one time in ``1/WANDER`` any legal move."""
    if rng.random() < WANDER:
        return rng.choice(rules.legal(state, seat))
    return bot.simple_bot_action(state, seat)


def evaluate(game, state: dict) -> list[float]:
    """Each seat's reward for a position the rollout stopped in: its estimated chance of
    being ahead (a softmax of the estimates) and a little for its place between the lowest
    and the highest estimate."""
    values = [lookahead.value(state, s) for s in range(state["n"])]
    best, low = max(values), min(values)
    odds = [math.exp((v - best) / WIN_SPREAD) for v in values]
    total, spread = sum(odds), (best - low) or 1.0
    return [(1 - MARGIN_SHARE) * o / total + MARGIN_SHARE * (v - low) / spread
            for o, v in zip(odds, values)]


SETTINGS = Settings(iterations=60, horizon=12, exploration=0.7, rollout=rollout,
                    evaluate=evaluate)
