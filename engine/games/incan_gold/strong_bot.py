"""The strong Incan Gold bot: stay or leave by comparing imagined games.

Why not the tree search the other games use: Incan Gold's choices are secret and revealed
together (ja ターンの流れ 1: "キャンプに戻りたいプレイヤーは、手に自分の探検家コマをひそかに
握り、挙を前に突き出す"), and a tree that takes seats one after the
other lets a later seat's node answer an earlier seat's choice it could not have seen.  Here
the seat asks a plainer question, once per decision: *over the worlds I cannot tell apart from
this one, what is the game worth to me if I stay now, and if I leave now?*

* Each iteration draws a world (``GAME.determinize``: deck order, the rounds to come, other
  tents and pending choices drawn again, ``hidden.py``) and plays it to the end of the round
  twice -- once after staying, once after leaving -- with the same dispositions, so both
  answers meet the same cards and the same courage in everyone at every turn (the difference
  is the choice's alone).
* Who the others are: each other seat still inside plays a kind of player drawn, world by
  world, from what the public record says of it (``seat_types.py``: the easy rule at several
  courages, "leave once carrying T gems", "leave once the path holds G gems"); pending choices
  of this turn are drawn again by that kind.  The seat itself plays the easy rule for its
  later turns (``opponent_model.py``).
  Why not the easy rule for everyone: strong seats that all reckon "the others will leave,
  staying will pay" all stay and bust together, and a seat that stays on until it carries ten
  gems collects what seats modelled as cautious leave behind; the record shows who is bold.
* The end of the round is far enough: every later round starts with empty hands whatever
  was chosen now (only a removed hazard or a lost artifact differs), so what differs is the
  standings.  They are valued by ``worth``: mostly the chance to win from them (exact once the
  game is over), so a choice is judged by whether it wins, not by gems alone: a lone leaver
  takes the artifacts, and a leader near the end can bank where a trailer must gamble.
* Regret matching (Hart and Mas-Colell 2000): the regret of each choice is summed over the
  worlds against the mixed strategy of the moment; a strategy plays each choice in proportion
  to its positive regret.  A choice that loses in nearly every world is never played; near
  indifference the seat mixes, so identical seats at one table do not all leave together, and
  the same view always gives the same choice (drawn with ``search.decision_rng``).
* Two estimates, half the worlds each.  In the first the seats still to answer this turn play
  their kinds; in the second they leave with the chance the first estimate gives this seat --
  what seats like this one would do.  The seat plays the average of the two.  Why: the seats
  that answer together with this one see what it sees, and strong seats among them reason as
  it does; a seat that counts on being the only one to leave (and take the path's gems) or the
  only one to stay misjudges exactly the turns where they all move alike: with the kinds alone
  and no second estimate, a player who stays until it carries ten gems won among strong bots
  far more often than its fair share, more often than with the second estimate.

One choice is made without search: with no hazard showing and nothing on the path to take,
staying cannot lose anything ("A hazard is harmless the first time its kind shows in a round"
-- notes) and leaving would only bank what a later turn can bank as well.

The budget is ``SETTINGS.iterations`` (worlds per decision), never seconds."""
from __future__ import annotations

import math
import random

from engine import search
from engine.core import clone

from . import data, opponent_model, rules, seat_types

STAY = "stay"
LEAVE = "leave"

# Worlds per decision; each is played twice to the end of the round.
SETTINGS = search.Settings(iterations=64)
# How far apart two seats' scores drift in one round: the standard deviation of the gap is
# about ROUND_SPREAD / sqrt(players) gems (measured over easy-bot games, 120 a table size:
# 10.6 at 3 players, 8.4 at 5, 6.0 at 8).  LOGISTIC turns a standard deviation into the
# scale of a logistic curve of the same spread (sqrt(3) / pi).
ROUND_SPREAD = 18.0
LOGISTIC = math.sqrt(3) / math.pi
# The seat's own later turns in an imagined world: the easy bot's rule.
ITSELF = opponent_model.EASY


def action(game, state: dict, seat: int) -> dict:
    """The strong bot's choice for ``seat`` (who must be asked): stay or leave."""
    legal = game.legal_actions(state, seat)
    if len(legal) <= 1:
        return legal[0] if legal else game.default_action(state, seat)
    by_type = {a["type"]: a for a in legal}
    if nothing_to_lose(state):
        return by_type[STAY]
    chooser = search.decision_rng(game, state, seat, "incan gold stay or leave")
    iterations = (game.search_settings or SETTINGS).iterations
    belief = seat_types.beliefs(game.view(state, seat))
    first = strategy(regret_sums(game, state, seat, chooser, iterations // 2, belief, None))
    second = strategy(regret_sums(game, state, seat, chooser, iterations - iterations // 2,
                                  belief, first[LEAVE]))
    return by_type[STAY if chooser.random() < (first[STAY] + second[STAY]) / 2 else LEAVE]


def regret_sums(game, state: dict, seat: int, chooser: random.Random, iterations: int,
                belief: dict[int, list[float]], peers_leave: float | None) -> dict[str, float]:
    """Regrets summed over ``iterations`` worlds.  Only the gap between the choices moves a
    regret (a worth common to both cancels), so staying is scored by its gap and leaving by 0."""
    regrets = {STAY: 0.0, LEAVE: 0.0}
    for _ in range(iterations):
        worth = {STAY: stay_over_leave(game, state, seat, chooser, belief, peers_leave),
                 LEAVE: 0.0}
        mixed = strategy(regrets)
        expected = sum(mixed[c] * worth[c] for c in worth)
        for choice in worth:
            regrets[choice] += worth[choice] - expected
    return regrets


def strategy(regrets: dict[str, float]) -> dict[str, float]:
    """Regret matching: each choice in proportion to its positive regret (even when none)."""
    positive = {c: max(r, 0.0) for c, r in regrets.items()}
    total = sum(positive.values())
    if total <= 0:
        return {c: 1 / len(positive) for c in positive}
    return {c: r / total for c, r in positive.items()}


def nothing_to_lose(state: dict) -> bool:
    """No hazard on the path and no gems or artifacts lying on it: staying cannot bust and
    leaving could take nothing that a later turn could not (read from public parts only)."""
    return not any(c["type"] == "hazard" or c["type"] == "artifact" or c["gems_left"]
                   for c in state["path"])


def stay_over_leave(game, state: dict, seat: int, chooser: random.Random,
                    belief: dict[int, list[float]], peers_leave: float | None) -> float:
    """In one imagined world: what staying is worth to ``seat`` more than leaving (with
    ``peers_leave``, the seats still to answer this turn leave with that chance)."""
    world = game.determinize(state, seat, chooser)
    forget_the_record(world)
    kinds = {other: seat_types.draw_kind(weights, chooser)
             for other, weights in belief.items() if world["players"][other]["in_temple"]}
    kinds[seat] = ITSELF
    decided = [other for other, p in enumerate(world["players"])
               if other != seat and p["in_temple"] and p["choice"] is not None]
    opponent_model.choose_pending(world, decided, opponent_model.FreshMoods(chooser), kinds)
    moods = opponent_model.Dispositions(chooser, len(state["players"]))
    return (game_worth(game, world, seat, STAY, moods, kinds, peers_leave)
            - game_worth(game, world, seat, LEAVE, moods, kinds, peers_leave))


def game_worth(game, world: dict, seat: int, choice: str, moods: opponent_model.Dispositions,
               kinds: dict, peers_leave: float | None) -> float:
    """What the game is worth to ``seat`` if it makes ``choice`` now and everyone plays on as
    their kind (the world is copied, not changed)."""
    played = clone(world)
    played["players"][seat]["choice"] = choice
    asked = [s for s in rules.to_act(played) if s != seat]
    round_now = played["round"]
    if peers_leave is None:
        opponent_model.choose_pending(played, asked, moods, kinds)
    else:
        for other in asked:
            played["players"][other]["choice"] = (LEAVE if moods.mood(played, other) < peers_leave
                                                  else STAY)
    rules.reveal(played)
    if played["round"] == round_now:
        opponent_model.play_round(played, moods, kinds)
    return worth(game, played, seat)


def worth(game, state: dict, seat: int) -> float:
    """What the game is worth to ``seat``: mostly its chance to win (its share of the win once
    the game is over), and a little its score against the best, so that a seat that cannot
    win still prefers losing by less.  Both parts move smoothly with a gem more or less: a
    bonus for merely leading would reward a gamble for one gem of lead."""
    players = state["players"]
    scores = [p["tent"] + sum(p["artifacts"]) for p in players]
    result = game.outcome(state)
    if result is not None:
        chance = (seat in result["winners"]) / len(result["winners"])
    else:
        chance = win_chance(scores, seat, data.ROUNDS - state["round"] + 1)
    return 0.9 * chance + 0.1 * scores[seat] / (max(scores) or 1)


def win_chance(scores: list[int], seat: int, rounds_left: int) -> float:
    """The chance that ``seat`` wins from these scores with ``rounds_left`` rounds to play: the
    scale is the logistic scale of how far two seats' scores drift apart in that many rounds
    (a random walk, one step a round)."""
    scale = LOGISTIC * ROUND_SPREAD / math.sqrt(len(scores)) * math.sqrt(rounds_left)
    return search.win_shares(scores, scale)[seat]


def forget_the_record(world: dict) -> None:
    """Drop what only pages read (finished rounds, the last reveal): play never reads them, and
    a world is copied for every game it plays."""
    world["history"] = []
    world["last_reveal"] = None
