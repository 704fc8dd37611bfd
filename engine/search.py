"""Bots that search: Monte Carlo over what a seat cannot see.

A seat that searches never looks at the real state's secrets.  Each of its iterations starts
from a *determinization*: a state the seat cannot tell from the real one (its ``view`` is the
same), in which everything hidden from it -- other seats' hands and pending secret choices, the
order of the piles, the seed of later draws -- is drawn again (``Game.determinize``).  Over many
determinizations the search learns what is good against every world the seat thinks possible,
not against the one it would have to cheat to see.

Two searchers share that ground:

* ``ismcts_action`` -- information-set Monte Carlo tree search (single observer, as in Cowling,
  Powley and Whitehouse 2012): one tree keyed by moves, each iteration descending through the
  moves legal in its own determinization (UCB1 with availability counts), expanding one move,
  then finishing with a rollout.  Rewards are kept per seat (max-n), so every seat in the tree
  plays for itself.
* ``flat_monte_carlo_action`` -- the textbook baseline the strong bots are measured against:
  every legal move tried equally often, each followed by uniformly random play to the end.

Why the randomness comes from the seat's view, not from the game's seed: the seed is the
game's deepest secret (it fixes every card still to come), so a bot seeded by it would choose
differently when secrets differ.  The view is what the seat knows, it is rebuilt exactly by
replay, and a bot's move is recorded as an event anyway: the same state always gives the same
choice, and no secret of another seat can move it.

Budgets are counted in iterations, never in seconds: the engine reads no clock, and a budget in
seconds would make the choice depend on the machine.  ``bench/bots.py`` measures the seconds.
"""
from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from engine.core import Action, Game, State, canonical_json, without_label

# Players read these words when an organiser chooses who plays a seat.
EASY, STRONG = "easy", "strong"
LEVELS = (EASY, STRONG)

Rollout = Callable[[Game, State, int, random.Random], Action]
Evaluate = Callable[[Game, State], list[float]]


def decision_rng(game: Game, state: State, seat: int, purpose: str = "search") -> random.Random:
    """The generator of one decision: seeded by what the seat sees, so replaying the game gives
    the same choice and no other seat's secret can change it."""
    seen = canonical_json(game.view(state, seat))
    material = f"{game.name}:{purpose}:{seat}:{seen}"
    return random.Random(hashlib.sha256(material.encode()).hexdigest())


def action_key(seat: int, action: Action) -> str:
    """A move as the tree remembers it: who made it and what it was, without display keys."""
    return f"{seat}:{canonical_json(without_label(action))}"


# --------------------------------------------------------------------------- rewards

MARGIN_SHARE = 0.2   # of a reward, the part that is the seat's place between last and first


def outcome_rewards(game: Game, state: State) -> list[float]:
    """What a finished game is worth to each seat, in [0, 1]: mostly the share of the win (a
    shared victory splits it), and a little for the score, so that a search that cannot find
    a win still prefers losing by less."""
    result = game.outcome(state)
    scores = result["scores"]
    seats = len(scores)
    values = [float(scores[s] if isinstance(scores, list) else scores.get(s, scores.get(str(s))))
              for s in range(seats)]
    winners = result["winners"]
    return rewards([(s in winners) / len(winners) for s in range(seats)], values)


def estimate_rewards(values: list[float], scale: float) -> list[float]:
    """What an unfinished game is worth to each seat, shaped like ``outcome_rewards``: the
    share of the win is each seat's chance of being ahead (``win_shares``), so a search that
    stops before the end ranks positions the way it ranks endings."""
    return rewards(win_shares(values, scale), values)


def win_shares(values: list[float], scale: float) -> list[float]:
    """Each seat's chance of finishing first from these estimates: a softmax, ``scale`` being
    the lead that makes a seat e (2.7) times likelier to win than the one behind it."""
    top = max(values)
    weights = [math.exp((v - top) / scale) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def rewards(shares: list[float], values: list[float]) -> list[float]:
    """Win shares blended with each seat's place between the lowest and highest value."""
    low, high = min(values), max(values)
    spread = (high - low) or 1.0
    return [(1 - MARGIN_SHARE) * share + MARGIN_SHARE * (v - low) / spread
            for share, v in zip(shares, values)]


def easy_rollout(game: Game, state: State, seat: int, rng: random.Random,
                 wander: float = 0.1) -> Action:
    """A rollout move: the game's easy bot, with a random legal move one time in ten so that
    rollouts do not all tell the same story."""
    if rng.random() < wander:
        return rng.choice(game.legal_actions(state, seat))
    return game.bot_action(state, seat)


def random_rollout(game: Game, state: State, seat: int, rng: random.Random) -> Action:
    return rng.choice(game.legal_actions(state, seat))


def next_actor(game: Game, state: State, rng: random.Random) -> int | None:
    """Who moves next in a simulation: one of the seats asked (chosen at random when several
    decide at once, since their answers are secret from each other until all have chosen)."""
    asked = game.to_act(state)
    if not asked:
        return None
    return asked[0] if len(asked) == 1 else rng.choice(asked)


def simulate(game: Game, state: State, rng: random.Random, rollout: Rollout,
             horizon: int | None, evaluate: Evaluate | None, limit: int = 5_000) -> list[float]:
    """Play ``state`` on (in place) by ``rollout`` until the game ends or ``horizon`` moves have
    been made; the rewards of the end, or ``evaluate``'s estimate of where play stopped."""
    moves = 0
    while game.outcome(state) is None:
        if horizon is not None and moves >= horizon and evaluate is not None:
            return evaluate(game, state)
        actor = next_actor(game, state, rng)
        if actor is None or moves >= limit:
            break
        game.apply_in_place(state, actor, rollout(game, state, actor, rng))
        moves += 1
    if game.outcome(state) is None:
        return evaluate(game, state) if evaluate is not None else [0.0] * _seats(state)
    return outcome_rewards(game, state)


def _seats(state: State) -> int:
    players = state.get("players")
    return len(players) if isinstance(players, list) else int(state.get("n", 1))


# --------------------------------------------------------------------------- ISMCTS

@dataclass
class Node:
    """One move's node: how often it was chosen, how often it could have been, and the
    rewards it brought each seat."""
    visits: int = 0
    available: int = 0
    totals: list[float] = field(default_factory=list)
    children: dict[str, "Node"] = field(default_factory=dict)

    def mean(self, seat: int) -> float:
        return self.totals[seat] / self.visits if self.visits else 0.0


@dataclass(frozen=True)
class Settings:
    """How hard a game's strong bot thinks: iterations per decision, rollout length before the
    game's own estimate takes over (None: play to the end), and the exploration constant."""
    iterations: int = 200
    horizon: int | None = None
    exploration: float = 0.7
    rollout: Rollout = easy_rollout
    evaluate: Evaluate | None = None


def ismcts_action(game: Game, state: State, seat: int, settings: Settings = Settings(),
                  rng: random.Random | None = None) -> Action:
    """The move the search likes best for ``seat``: the most visited of the root's moves."""
    legal = game.legal_actions(state, seat)
    if len(legal) <= 1:
        return legal[0] if legal else game.default_action(state, seat)
    rng = rng or decision_rng(game, state, seat)
    root = Node(totals=[0.0] * _seats(state))
    for _ in range(settings.iterations):
        world = game.determinize(state, seat, rng)
        _iterate(game, world, seat, root, rng, settings)
    by_key = {action_key(seat, a): a for a in legal}
    ranked = sorted(by_key, key=lambda k: (root.children[k].visits if k in root.children else -1,
                                           root.children[k].mean(seat)
                                           if k in root.children else 0.0),
                    reverse=True)
    return by_key[ranked[0]]


def _iterate(game: Game, world: State, seat: int, root: Node, rng: random.Random,
             settings: Settings) -> None:
    path = [root]
    node, actor = root, seat   # the root is the seat's own decision, even when others decide too
    while game.outcome(world) is None:
        legal = game.legal_actions(world, actor)
        if not legal:
            break
        keys = [action_key(actor, a) for a in legal]
        untried = [i for i, k in enumerate(keys) if k not in node.children]
        for k in keys:
            if k in node.children:
                node.children[k].available += 1
        if untried:
            i = rng.choice(untried)
            child = node.children[keys[i]] = Node(available=1, totals=[0.0] * len(root.totals))
            game.apply_in_place(world, actor, legal[i])
            path.append(child)
            break
        i = max(range(len(keys)), key=lambda j: _ucb(node.children[keys[j]], actor,
                                                      settings.exploration))
        node = node.children[keys[i]]
        game.apply_in_place(world, actor, legal[i])
        path.append(node)
        actor = next_actor(game, world, rng)
        if actor is None:
            break
    rewards = simulate(game, world, rng, settings.rollout, settings.horizon, settings.evaluate)
    for visited in path:
        visited.visits += 1
        for s, r in enumerate(rewards):
            visited.totals[s] += r


def _ucb(node: Node, actor: int, exploration: float) -> float:
    return node.mean(actor) + exploration * math.sqrt(math.log(max(node.available, 1))
                                                      / node.visits)


# --------------------------------------------------------------------------- flat Monte Carlo

def flat_monte_carlo_action(game: Game, state: State, seat: int, rollouts: int = 20,
                            rng: random.Random | None = None) -> Action:
    """The baseline: each legal move gets ``rollouts`` determinized games played on by
    uniformly random moves; the move with the best mean reward is chosen."""
    legal = game.legal_actions(state, seat)
    if len(legal) <= 1:
        return legal[0] if legal else game.default_action(state, seat)
    rng = rng or decision_rng(game, state, seat, "flat")
    best, best_value = legal[0], -1.0
    for action in legal:
        total = 0.0
        for _ in range(rollouts):
            world = game.determinize(state, seat, rng)
            game.apply_in_place(world, seat, action)
            total += simulate(game, world, rng, random_rollout, None, None)[seat]
        if total > best_value:
            best, best_value = action, total
    return best


def describe(settings: Settings) -> dict[str, Any]:
    """The settings as plain data, for benchmark headers."""
    return {"iterations": settings.iterations, "horizon": settings.horizon,
            "exploration": settings.exploration, "rollout": settings.rollout.__name__}
