"""The timeout default and the bot policy for Incan Gold.

Default (a seat's time ran out): leave the temple -- it banks what the seat carries and can
never lose gems, so silence never costs a player their round.

Bot: weighs one more card against leaving now, reading only the seat's own ``view`` (the deck's
*contents* are public -- all cards minus the path minus removed hazards; its order is not):
* ``p_bust`` = cards left that would be a second hazard of a kind showing / cards left;
* ``gain``  = expected share of the next treasure (its value // seats inside, over the deck);
* ``at_risk`` = gems carried + own share of the path's gems + artifacts on the path (what
  staying can lose, and what leaving now can take: a lone leaver takes the artifacts);
leave when ``p_bust x at_risk > courage x gain``, else stay.
Why the courage: everyone still inside carries the same gems and sees the same cards, so a
deterministic rule makes every bot at a table choose alike -- they leave together, split
everything, tie every game, never claim an artifact, and anyone who deviates profits.  So each
decision weighs the gain by a courage drawn for that seat and that decision.  The draw is seeded
by a hash of what the seat sees (its own view, without the flags that change as others answer)
and the seat: the same state gives the same choice, replay stays exact, and no secret of
another seat, the deck's order or the game's seed can move it."""
from __future__ import annotations

import hashlib
import math
import random
from collections import Counter

from engine.core import canonical_json

from . import data, view as view_mod

LEAVE = {"type": "leave", "label": data.ACTIONS["leave"]["label"]}
STAY = {"type": "stay", "label": data.ACTIONS["stay"]["label"]}

# Courage = exp(BOLDNESS + per-player boldness + uniform(-SPREAD, SPREAD)): seats at one table
# part ways near the break-even point.  Tuned with bench.bots against random players, "leave at
# 10 gems" and the same rule without courage (docs/balance.md).
SPREAD = 1.5
BOLDNESS = 0.5
BOLDNESS_PER_PLAYER = 0.05


def default_action(state: dict, seat: int) -> dict:
    return dict(LEAVE)


def bot_action(state: dict, seat: int) -> dict:
    seen = view_mod.view(state, seat)
    if not seen["deck_left"]:
        return dict(LEAVE)
    inside = sum(1 for p in seen["players"] if p["in_temple"]) or 1
    p_bust = deadly_cards(seen) / seen["deck_left"]
    gain = sum(value // inside for value in unseen_treasures(seen)) / seen["deck_left"]
    at_risk = (seen["players"][seat]["carrying"] + seen["path_gems"] // inside
               + artifacts_on_path(seen))
    return dict(LEAVE) if p_bust * at_risk > courage(seen, seat) * gain else dict(STAY)


def unseen_treasures(seen: dict) -> list[int]:
    """Treasure values still in the deck: all treasures minus those turned this round."""
    left = Counter(data.TREASURE_VALUES)
    left.subtract(c["value"] for c in seen["path"] if c["type"] == "treasure")
    return list(left.elements())


def deadly_cards(seen: dict) -> int:
    """Cards in the deck that would be a second hazard of a kind already showing."""
    return sum(data.HAZARD_COPIES - seen["removed_hazards"].count(kind)
               - seen["hazards_showing"].count(kind)
               for kind in set(seen["hazards_showing"]))


def artifacts_on_path(seen: dict) -> int:
    """Worth of the artifacts on the path: printed (2018) or the next claim values (classic)."""
    count = sum(1 for c in seen["path"] if c["type"] == "artifact")
    claim_values = seen["next_claim_values"]
    if claim_values is not None:
        return sum(claim_values[:count])
    return sum(c["value"] for c in seen["path"] if c["type"] == "artifact")


def courage(seen: dict, seat: int) -> float:
    """This seat's weight on staying for this decision, drawn from what the seat sees."""
    return math.exp(boldness(seen) + seat_rng(seen, seat).uniform(-SPREAD, SPREAD))


def boldness(seen: dict) -> float:
    """The log of the typical courage: a little bolder at larger tables, where the one-card
    gain (a thin share of the next treasure) understates what staying on is worth."""
    return BOLDNESS + BOLDNESS_PER_PLAYER * (len(seen["players"]) - data.MIN_PLAYERS)


def seat_rng(seen: dict, seat: int) -> random.Random:
    """A generator seeded by the seat and its view, without what changes as others answer
    (who has decided, who is still to act), so the order of answers never changes a choice."""
    stable = {key: value for key, value in seen.items() if key not in ("to_act", "your_choice")}
    stable["players"] = [{k: v for k, v in p.items() if k != "decided"} for p in seen["players"]]
    digest = hashlib.sha256(f"incan_gold bot {seat} {canonical_json(stable)}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))
