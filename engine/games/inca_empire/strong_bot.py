"""The strong Inca Empire bot's settings: a long random look-ahead, then a score estimate.

A whole game is some 150 to 320 moves.  Measured on paired seeds, uniformly random play values
an Inca Empire position better than a few careful moves do: a short look-ahead by the easy bot
lost to flat Monte Carlo with random playouts to the end.  Playing every rollout to the end
would leave only a handful of iterations a decision, so each rollout plays 40 uniformly random
moves (cheap: no easy bot to ask) and then estimates what every seat will end with
(``estimate``): "Score one point for each token placed in the field of play" plus "three of
your five goal cards" -- the tokens already on the table, the tokens in the Active Pool (most
of them will be placed), the cards in hand (each can still put tokens down), and each Goal by
how close the seat is to it.  The estimates become rewards as a share of the win, so the
search plays to win, not only to score."""
from __future__ import annotations

from engine.search import Settings, estimate_rewards, outcome_rewards, random_rollout

from . import bot, era
from .data import CARDS, GOALS_BY_ID
from .scoring import BEST_GOALS, goal_progress, table_facts, tokens_on_table

ACTIVE_TOKEN_WORTH = 0.6    # a token in the Active Pool is usually placed before the end
SUPPLY_TOKEN_WORTH = 0.1    # a Supply token needs a card or an Era to become active first
CARD_WORTH = 0.12           # per point of the easy bot's card value (3 to 9): a card in hand
                            # is a build, a Workforce or a Terrace still to come
LAST_ERA_SHARE = 0.5        # in Era IV, what is still in hand or in the pool may never score
WIN_SHARE_SPREAD = 4.0      # points of lead that make a win about e (2.7) times likelier


def estimate(state: dict, seat: int) -> float:
    """The points ``seat`` is likely to end with, seen from the state now."""
    if state["final"] is not None:
        return float(state["final"][seat]["total"])
    eras_left = era.ERAS - state["era"]
    future = eras_left * era.BASE_ACTIVATION
    later = 1.0 if eras_left else LAST_ERA_SHARE
    return (tokens_on_table(state, seat)
            + later * ACTIVE_TOKEN_WORTH * state["active"][seat]
            + later * SUPPLY_TOKEN_WORTH * max(state["supply"][seat] - future, 0)
            + ACTIVE_TOKEN_WORTH * min(future, state["supply"][seat]) * 0.5
            + later * CARD_WORTH * sum(bot.card_value(c) for c in state["hands"][seat]
                                       if CARDS[c]["type"] != "start")
            + goals_worth(state, seat, eras_left))


def goals_worth(state: dict, seat: int, eras_left: int) -> float:
    """The best three Goals, each by its points times how close the seat is (a met Goal is
    worth all its points; an unmet one less, and less still with fewer Eras to reach it)."""
    reach = min(1.0, 0.35 + 0.2 * eras_left)
    facts = table_facts(state, seat)
    values = []
    for gid in state["goals"][seat]:
        goal = GOALS_BY_ID[gid]
        have, need = goal_progress(state, seat, goal, facts)
        share = 1.0 if have >= need else reach * (have / need) ** 2
        values.append(goal["points"] * share)
    return sum(sorted(values, reverse=True)[:BEST_GOALS])


def evaluate(game, state: dict) -> list[float]:
    """Rewards in [0, 1] as a finished game gives them: mostly a share of the win (a softmax
    of the estimates), a little for the estimate itself."""
    if game.outcome(state) is not None:
        return outcome_rewards(game, state)
    values = [estimate(state, s) for s in range(len(state["players"]))]
    return estimate_rewards(values, WIN_SHARE_SPREAD)


SETTINGS = Settings(iterations=20, horizon=40, exploration=0.7, rollout=random_rollout,
                    evaluate=evaluate)
