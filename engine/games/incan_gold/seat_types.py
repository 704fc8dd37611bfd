"""What kind of player each other seat is, read from the public record of this game.

Why: a seat that imagines everyone playing one fixed rule is exploited by anyone who plays
another.  Strong seats that all reckon "the others will leave, staying will pay" all stay and
bust together; a seat that stays until it carries ten gems collects what cautious seats leave
behind; strong seats that all leave first to take the gems left on the path split them and
hand the rest of the round to whoever stays.  So each other seat gets a belief over a small
population of players (``KINDS``): the easy bot's rule at several courages, "leave once
carrying T gems" at several T, and "leave once a lone leaver would take G gems from the path"
at several G.  The belief starts from ``PRIOR`` and is weighed by how likely each kind was to
do what the seat was seen to do:

* this round, every seat still inside has stayed at every decision so far (they all carry the
  same gems and saw the same cards, so this says how bold the seats inside are);
* in every finished round that ended on a second hazard, the caught seats stayed to the end,
  carrying what the round's record shows they lost, and the others left before it.

Only public facts are read: the path, the finished rounds' paths, who was caught and the gems
lost (``view.view``).  When exactly a seat left is not public, so a decision is rebuilt from the
path alone, as if the seats now inside had been inside all round: a rough reading, but the same
one for every kind, and the belief only needs to tell bold from cautious."""
from __future__ import annotations

import math
import random
from collections import Counter

from . import bot, data

# (kind, parameter): "courage" -- the easy bot's rule with its courage times exp(parameter);
# "gems" -- stay until carrying at least ``parameter`` gems, then leave; "grab" -- leave once a
# lone leaver would take ``parameter`` gems or more from the path (its gems and artifacts).
KINDS = (
    ("courage", -1.0), ("courage", -0.5), ("courage", 0.0), ("courage", 0.5),
    ("courage", 1.0), ("courage", 1.5), ("courage", 2.5),
    ("gems", 5), ("gems", 7), ("gems", 10), ("gems", 13), ("gems", 16), ("gems", 20),
    ("grab", 4), ("grab", 6), ("grab", 9),
)
PRIOR = (0.03, 0.06, 0.16, 0.06, 0.05, 0.03, 0.03,
         0.05, 0.06, 0.08, 0.06, 0.05, 0.05,
         0.08, 0.08, 0.07)
# A rule is never followed perfectly in a belief: a "gems" seat seen breaking its rule keeps a
# little weight instead of none.
SLIP = 0.03


def leave_chance(kind: tuple[str, float], players: int, carrying: int, loss: float,
                 gain: float, take: int = 0) -> float:
    """How likely a seat of ``kind`` is to leave at a decision read as ``(loss, gain)`` (the
    easy bot's one-card reading, ``opponent_model.risk_reading``) while carrying ``carrying``,
    with ``take`` on the path for a lone leaver."""
    name, parameter = kind
    if name == "gems":
        return 1.0 if carrying >= parameter else 0.0
    if name == "grab":
        return 1.0 if take >= parameter else 0.0
    if loss <= 0:
        return 0.0
    if gain <= 0:
        return 1.0
    boldness = bot.BOLDNESS + bot.BOLDNESS_PER_PLAYER * (players - data.MIN_PLAYERS)
    edge = math.log(loss / gain) - boldness - parameter
    return min(1.0, max(0.0, (edge + bot.SPREAD) / (2 * bot.SPREAD)))


def beliefs(seen: dict) -> dict[int, list[float]]:
    """For every other seat, the weight of each kind in ``KINDS`` (summing to one)."""
    players = len(seen["players"])
    weights = {p["seat"]: list(PRIOR) for p in seen["players"] if p["seat"] != seen["you"]}
    removed: list[str] = []
    for entry in seen["history"]:
        if entry["ended_by"] == "hazard":
            weigh_finished_round(weights, entry, removed, players)
        if entry["hazard"]:
            removed.append(entry["hazard"])
    inside = [p for p in seen["players"] if p["in_temple"]]
    if inside:
        stayed = stay_chances(decisions(seen["path"], len(inside), inside[0]["carrying"],
                                        seen["removed_hazards"]), players)
        for p in inside:
            if p["seat"] in weights:
                weights[p["seat"]] = [w * s for w, s in zip(weights[p["seat"]], stayed)]
    return {seat: normalised(w) for seat, w in weights.items()}


def weigh_finished_round(weights: dict[int, list[float]], entry: dict, removed: list[str],
                         players: int) -> None:
    """A round ended by a second hazard: its caught seats stayed through every decision, the
    others left at one of them."""
    caught = entry["caught"]
    if not caught:
        return
    carried = (entry["gems_lost"] - sum(c["gems_left"] for c in entry["path"])) // len(caught)
    stayed = stay_chances(decisions(entry["path"], len(caught), carried, removed), players)
    for seat, w in weights.items():
        chances = stayed if seat in caught else [1.0 - s for s in stayed]
        weights[seat] = [a * (SLIP + (1 - 2 * SLIP) * b) for a, b in zip(w, chances)]


def stay_chances(points: list[tuple], players: int) -> list[float]:
    """For each kind, the chance it stays at every one of ``points`` (carrying, loss, gain,
    take)."""
    result = []
    for kind in KINDS:
        chance = 1.0
        for carrying, loss, gain, take in points:
            leave = leave_chance(kind, players, carrying, loss, gain, take)
            chance *= SLIP + (1 - 2 * SLIP) * (1.0 - leave)
        result.append(chance)
    return result


def decisions(path: list[dict], inside: int, carried: int,
              removed: list[str]) -> list[tuple]:
    """The decisions a seat inside all along made on ``path``: (carrying, loss, gain, what a
    lone leaver would take) each, the carrying scaled so that it ends at ``carried``.  A
    round's first card, when a hazard, is followed by the next without a decision; the last
    card of a finished round ended it; the last card of the round under way is the decision
    being made now."""
    treasures_left = Counter(data.TREASURE_VALUES)
    deck_left = len(data.QUEST_DECK) - len(removed) + 1
    showing: list[str] = []
    shares = 0
    path_gems = 0
    relics = 0
    points = []
    last = len(path) - 1
    for index, card in enumerate(path):
        deck_left -= 1
        if card["type"] == "hazard":
            showing.append(card["hazard"])
        elif card["type"] == "artifact":
            relics += card["value"] or 5
        elif card["type"] == "treasure":
            treasures_left[card["value"]] -= 1
            shares += card["value"] // inside
            path_gems += card["value"] % inside
        if index == last or (index == 0 and card["type"] == "hazard"):
            continue
        points.append((shares, path_gems, risk(showing, removed, treasures_left, deck_left,
                                               inside), relics))
    scale = carried / shares if shares else 0.0
    return [(round(s * scale), *reading(s * scale, gems, inside, threat), gems + relics)
            for s, gems, threat, relics in points]


def risk(showing: list[str], removed: list[str], treasures_left: Counter, deck_left: int,
         inside: int) -> tuple[float, float]:
    """(chance the next card ends the round, expected share of the next card)."""
    if deck_left <= 0:
        return 1.0, 0.0
    deadly = sum(data.HAZARD_COPIES - 1 - removed.count(kind) for kind in set(showing))
    gain = sum(v // inside * n for v, n in treasures_left.items()) / deck_left
    return deadly / deck_left, gain


def reading(carrying: float, path_gems: int, inside: int,
            threat: tuple[float, float]) -> tuple[float, float]:
    """(what one more card may cost, what it may bring), as the easy bot weighs them."""
    bust, gain = threat
    return bust * (carrying + path_gems // inside), gain


def normalised(weights: list[float]) -> list[float]:
    total = sum(weights)
    if total <= 0:
        return list(PRIOR)
    return [w / total for w in weights]


def draw_kind(weights: list[float], chooser: random.Random) -> tuple[str, float]:
    return chooser.choices(KINDS, weights)[0]
