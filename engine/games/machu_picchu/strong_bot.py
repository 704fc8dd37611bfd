"""The strong Machu Picchu bot: information-set Monte Carlo tree search (``engine/search.py``)
over the Prince's moves, with this game's cheap rollout and its estimate of an unfinished
position.

Why the search branches on the Prince's moves only: a turn is one move of the Prince and then
the steps of the visit it triggers (which Incas to place, which Priest to take, what to trade,
what to sacrifice, which card to return).  Searched as separate moves, a visit's value is
averaged over half-explored steps (a visit to the House of Virgins looks poor while the search
mostly tries "take nothing" there), and a budget of under a hundred iterations is spread too thin
to see past one's own turn.  So the tree sees a game (``TurnLevel``) in which each step of a
visit has one option, the simple bot's choice, and branches only where the Prince moves (or
stays for a Moon Tile) and where the free Inca goes at setup: the moves that decide which part
of the board a seat uses.  When the seat itself is asked a step of a visit, the lookahead bot
(``lookahead.best_action``, which tries each option and finishes the turn) answers.

Why a short horizon and an estimate, not rollouts to the end: a game is hundreds of
decisions long, and what a move is worth shows within a round (goods in hand, a Priest
bought, Incas placed, steps toward the next Sacrifice Card).  The estimate is the lookahead
bot's valuation (``lookahead.value``): points as they would count now, times the conquest
multiplier the seat's gold may earn, plus what its goods, Priests and Virgins, Incas (in
districts, in supply, at the Sun Clock), Moon Tiles and steps on the Incatrail can still
become.  Each seat's estimate becomes a reward in [0, 1] the way a finished game's is
(``search.outcome_rewards``): mostly the chance of being ahead, a little for the margin.
A game that ends inside the horizon (a rescue, or the conquest) is scored as it ends.

Why the rollout is the simple bot with some randomness: the lookahead bot costs milliseconds
a decision, the simple one a fraction of that; the random Prince moves keep rollouts from
all telling the same story.
"""
from __future__ import annotations

import random

from engine.core import find_legal, without_label
from engine.search import Settings, estimate_rewards, ismcts_action

from . import bot, lookahead, rules

CANDIDATES = 3         # the root moves searched: those the lookahead values most
SEARCHED = frozenset({"move", "free_inca"})   # the decisions the tree branches on
WANDER = 0.05         # a rollout's Prince move is uniformly random this often
WIN_SPREAD = 12.0      # estimate points that make one seat e times likelier to be ahead


def searched(state: dict) -> bool:
    return bool(state["queue"]) and state["queue"][0]["k"] in SEARCHED


def rollout(game, state: dict, seat: int, rng: random.Random) -> dict:
    """A rollout move: the simple bot's, or now and then any move of the Prince."""
    if searched(state) and rng.random() < WANDER:
        return rng.choice(rules.legal(state, seat))
    return bot.simple_bot_action(state, seat)


def evaluate(game, state: dict) -> list[float]:
    """Each seat's reward for a position the rollout stopped in: its estimated chance of
    being ahead (a softmax of the estimates) and a little for its place between the lowest
    and the highest estimate."""
    values = [lookahead.value(state, s) for s in range(state["n"])]
    return estimate_rewards(values, WIN_SPREAD)


SETTINGS = Settings(iterations=80, horizon=12, exploration=0.7, rollout=rollout,
                    evaluate=evaluate)


class TurnLevel:
    """The game as the tree sees it: every step of a visit has one option (the simple bot's
    choice), so the tree branches only on the Prince's moves; at the root only on the
    ``candidates`` the lookahead likes best; everything else is the game."""

    def __init__(self, game, root: dict, seat: int, candidates: list[dict]):
        self.game = game
        self.name = game.name
        self.root = (root_mark(root), seat)
        self.candidates = candidates

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if seat not in rules.to_act(state):
            return []
        if (root_mark(state), seat) == self.root:
            return self.candidates
        if searched(state):
            return rules.legal(state, seat)
        return [bot.simple_bot_action(state, seat)]

    def __getattr__(self, attribute):
        return getattr(self.game, attribute)


def root_mark(state: dict) -> tuple:
    """What tells the decision searched from every later one: the day, the turn, the step."""
    return state["day"], state["turn"], state["queue"][0]["k"] if state["queue"] else None


def candidates(state: dict, seat: int) -> list[dict]:
    """The ``CANDIDATES`` moves the lookahead values most (each played out to the end of the
    turn and valued from what the seat sees), best first."""
    legal = [without_label(a) for a in rules.legal(state, seat)]
    world = lookahead.seen_world(state, seat)
    worth = {i: lookahead.worth_after(world, seat, a, bot.default_action)
             for i, a in enumerate(legal)}
    best = sorted(worth, key=lambda i: (-worth[i], i))[:CANDIDATES]
    return [legal[i] for i in best]


def strong_action(game, state: dict, seat: int) -> dict:
    """The Prince's move (and the free Inca) by the search among the lookahead's best few; a
    step of a visit by the lookahead bot."""
    legal = game.legal_actions(state, seat)
    if len(legal) <= 1 or not searched(state):
        return game.easy_bot_action(state, seat)
    level = TurnLevel(game, state, seat, candidates(state, seat))
    chosen = ismcts_action(level, state, seat, game.search_settings or SETTINGS)
    return find_legal(legal, without_label(chosen))
