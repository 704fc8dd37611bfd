"""How the strong bot expects seats to choose in the worlds it imagines: the easy bot's reading
of one more card (``bot.py``: leave when ``p_bust x at_risk > courage x gain``), worked out from
a whole state in one pass per turn, with the courage sampled from the search's own generator.

Why a model of its own and not ``bot.bot_action``: the easy bot reads a seat's view and hashes
it for its courage, which costs more than the rest of a simulated turn; a search plays tens of
thousands of such turns a decision.  Here the reading is shared by every seat inside (they all
carry the same gems and see the same path) and each seat only draws its courage, from the same
distribution as the easy bot's ("sampled thresholds").

Only ever used on a determinization (a world the searching seat drew for itself), never on the
real state: the deck here is a guess, and only its contents (public) are read anyway."""
from __future__ import annotations

import math
import random

from . import bot, data, rules


def risk_reading(state: dict) -> tuple[float, float]:
    """``(p_bust x at_risk, gain)`` for any seat inside: what one more card may cost and what
    it may bring, as the easy bot weighs them."""
    deck = state["deck"]
    if not deck:
        return 1.0, 0.0
    path = state["path"]
    players = state["players"]
    inside = [p for p in players if p["in_temple"]]
    count = len(inside) or 1
    showing = [c["hazard"] for c in path if c["type"] == "hazard"]
    removed = state["removed_hazards"]
    deadly = sum(data.HAZARD_COPIES - removed.count(kind) - 1 for kind in showing)
    gain = sum(data.CARDS[c]["value"] // count for c in deck if c[0] == "t") / len(deck)
    carrying = inside[0]["carrying"] if inside else 0
    at_risk = (carrying + sum(c["gems_left"] for c in path) // count
               + artifacts_worth(state))
    return deadly / len(deck) * at_risk, gain


def artifacts_worth(state: dict) -> int:
    """What the artifacts on the path would bring a lone leaver now (rules.claim_artifacts)."""
    count = sum(1 for c in state["path"] if c["type"] == "artifact")
    claim_values = data.EDITIONS[state["options"]["artifacts"]]["claim_values"]
    if claim_values is not None:
        return sum(claim_values[state["artifacts_claimed"]:][:count])
    return sum(c["value"] for c in state["path"] if c["type"] == "artifact")


def sampled_choice(state: dict, reading: tuple[float, float], chooser: random.Random) -> str:
    """One seat's choice under the reading, with a courage drawn as the easy bot draws its own."""
    loss, gain = reading
    boldness = bot.BOLDNESS + bot.BOLDNESS_PER_PLAYER * (len(state["players"]) - data.MIN_PLAYERS)
    courage = math.exp(boldness + chooser.uniform(-bot.SPREAD, bot.SPREAD))
    return "leave" if loss > courage * gain else "stay"


def choose_pending(state: dict, seats: list[int], chooser: random.Random) -> None:
    """Give ``seats`` (inside, not yet revealed) a choice each, without revealing anything."""
    reading = risk_reading(state)
    for seat in seats:
        state["players"][seat]["choice"] = sampled_choice(state, reading, chooser)


def play_out(state: dict, chooser: random.Random) -> None:
    """Play the world to the end of the game, every seat by the model (in place)."""
    while state["phase"] == rules.PHASE_CHOOSE:
        asked = rules.to_act(state)
        if not asked:
            return
        choose_pending(state, asked, chooser)
        rules.reveal(state)
