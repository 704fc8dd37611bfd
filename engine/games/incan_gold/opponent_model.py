"""How the strong bot expects seats to choose in the worlds it imagines: the easy bot's reading
of one more card (``bot.py``: leave when ``p_bust x at_risk > courage x gain``), worked out from
a whole state in one pass per turn, with the courage sampled from the search's own generator.

Why a model of its own and not ``bot.bot_action``: the easy bot reads a seat's view and hashes
it for its courage, which costs more than the rest of a simulated turn; a search plays tens of
thousands of such turns a decision.  Here the reading is shared by every seat inside (they all
carry the same gems and see the same path) and each seat only draws its courage, from the same
distribution as the easy bot's ("sampled thresholds").

Each seat may play a kind of its own (``seat_types.KINDS``: the easy rule at another courage,
"leave at T gems", "leave once the path holds G gems"), drawn by the strong bot from what the
public record says of that seat; without one it plays the easy rule.

Only ever used on a determinization (a world the searching seat drew for itself), never on the
real state: the deck here is a guess, and only its contents (public) are read anyway."""
from __future__ import annotations

import math
import random

from . import bot, data, rules


EASY = ("courage", 0.0)
TREASURE_VALUE = {card: c["value"] for card, c in data.CARDS.items() if c["type"] == "treasure"}


def risk_reading(state: dict) -> tuple[float, float]:
    """``(p_bust x at_risk, gain)`` for any seat inside: what one more card may cost and what
    it may bring, as the easy bot weighs them."""
    deck = state["deck"]
    if not deck:
        return 1.0, 0.0
    path = state["path"]
    inside = [p for p in state["players"] if p["in_temple"]]
    count = len(inside) or 1
    removed = state["removed_hazards"]
    deadly = 0
    path_gems = 0
    for c in path:
        path_gems += c["gems_left"]
        if c["type"] == "hazard":
            deadly += data.HAZARD_COPIES - 1 - removed.count(c["hazard"])
    if not deadly:
        return 0.0, 1.0
    gain = sum(TREASURE_VALUE[c] // count for c in deck if c in TREASURE_VALUE) / len(deck)
    carrying = inside[0]["carrying"] if inside else 0
    at_risk = carrying + path_gems // count + artifacts_worth(state)
    return deadly / len(deck) * at_risk, gain


def lone_take(state: dict) -> int:
    """What a seat leaving alone now would take from the path: its gems and artifacts."""
    return sum(c["gems_left"] for c in state["path"]) + artifacts_worth(state)


def artifacts_worth(state: dict) -> int:
    """What the artifacts on the path would bring a lone leaver now (rules.claim_artifacts)."""
    count = sum(1 for c in state["path"] if c["type"] == "artifact")
    if not count:
        return 0
    claim_values = data.EDITIONS[state["options"]["artifacts"]]["claim_values"]
    if claim_values is not None:
        return sum(claim_values[state["artifacts_claimed"]:][:count])
    return sum(c["value"] for c in state["path"] if c["type"] == "artifact")


def leave_chance(state: dict, reading: tuple[float, float], daring: float = 0.0) -> float:
    """How likely a seat is to leave under the reading, its courage drawn as the easy bot draws
    its own: ``exp(boldness + daring + u)``, ``u`` uniform in ``[-SPREAD, SPREAD]``, and it
    leaves when ``loss > courage x gain``, i.e. when ``u < ln(loss / gain) - boldness - daring``
    (``daring`` 0 is the easy bot itself)."""
    loss, gain = reading
    if loss <= 0:
        return 0.0
    if gain <= 0:
        return 1.0
    boldness = bot.BOLDNESS + bot.BOLDNESS_PER_PLAYER * (len(state["players"]) - data.MIN_PLAYERS)
    edge = math.log(loss / gain) - boldness - daring
    return min(1.0, max(0.0, (edge + bot.SPREAD) / (2 * bot.SPREAD)))


class Dispositions:
    """Each seat's mood at each turn of an imagined game: a number in [0, 1) by (round, turn,
    seat), drawn the first time that turn is played, and the seat leaves when it is below its
    leave chance.  Two games played from one world with the same dispositions differ only where
    their choices made them differ, so comparing stay with leave is not drowned by the others'
    luck."""

    def __init__(self, chooser: random.Random, seats: int):
        self.base = chooser.getrandbits(62) << 12
        self.seats = seats
        self.rows: dict[tuple[int, int], list[float]] = {}

    def mood(self, state: dict, seat: int) -> float:
        key = (state["round"], state["turn"])
        row = self.rows.get(key)
        if row is None:
            draw = random.Random(self.base + key[0] * 256 + key[1]).random
            row = self.rows[key] = [draw() for _ in range(self.seats)]
        return row[seat]


class FreshMoods:
    """Moods drawn anew at every question (for the pending choices of a determinization)."""

    def __init__(self, chooser: random.Random):
        self.chooser = chooser

    def mood(self, state: dict, seat: int) -> float:
        return self.chooser.random()


def choose_pending(state: dict, seats: list[int], moods, kinds: dict | None = None) -> None:
    """Give ``seats`` (inside, not yet revealed) a choice each, without revealing anything;
    each seat plays its kind (``seat_types.KINDS``; the easy bot's rule when not given)."""
    reading = risk_reading(state)
    chances: dict[float, float] = {}
    players = state["players"]
    for seat in seats:
        name, parameter = kinds.get(seat, EASY) if kinds else EASY
        if name == "gems":
            leave = players[seat]["carrying"] >= parameter
        elif name == "grab":
            leave = lone_take(state) >= parameter
        else:
            chance = chances.get(parameter)
            if chance is None:
                chance = chances[parameter] = leave_chance(state, reading, parameter)
            leave = moods.mood(state, seat) < chance
        players[seat]["choice"] = "leave" if leave else "stay"


def play_round(state: dict, moods: Dispositions, kinds: dict | None = None) -> None:
    """Play the world to the end of the round under way, every seat by the model (in place)."""
    round_now = state["round"]
    while state["phase"] == rules.PHASE_CHOOSE and state["round"] == round_now:
        asked = rules.to_act(state)
        if not asked:
            return
        choose_pending(state, asked, moods, kinds)
        rules.reveal(state)
