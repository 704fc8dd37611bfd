"""The timeout default and the bot policy for Incan Gold.

Default (a seat's time ran out): leave the temple -- it banks what the seat carries and can
never lose gems, so silence never costs a player their round.

Bot: weighs one more card against leaving now, reading only the seat's own ``view`` (the deck's
*contents* are public -- all cards minus the path minus removed hazards; its order is not):
* staying risks the gems carried (``p_bust`` = second copies of hazards showing / cards left)
  for the expected share of the next treasure;
* leaving now also takes a share of the path's gems and, for a lone leaver, the artifacts on
  the path; how many others leave with it is estimated from the same rule as the others would
  apply it (everyone inside carries the same gems and sees the same path).
Why it is not deterministic: everyone still inside carries the same gems and sees the same
cards, so a deterministic rule makes every bot at a table choose alike -- they leave together,
split everything, tie every game, never claim an artifact, and anyone who deviates profits.
So each decision weighs the gain of staying by a *courage* drawn at random for that seat and
that decision.  The draw is seeded by a hash of what the seat sees (its own view, without the
flags that change as others answer) and the seat: the same state gives the same choice, replay
stays exact, and no secret of another seat, the deck's order or the game's seed can move it."""
from __future__ import annotations

import hashlib
import math
import random
from collections import Counter

from engine.core import canonical_json

from . import data, view as view_mod

LEAVE = {"type": "leave", "label": data.ACTIONS["leave"]["label"]}
STAY = {"type": "stay", "label": data.ACTIONS["stay"]["label"]}

# Courage = exp(boldness + uniform(-SPREAD, SPREAD)) weighs staying's expected gain: seats at
# one table part ways near the break-even point.  Tuned by bench.bots (docs/balance.md): a
# one-card look-ahead undervalues staying on, the more so at larger tables, hence the boldness.
SPREAD = 1.5
BOLDNESS = 1.3
BOLDNESS_PER_PLAYER = 0.25
# The least chance per turn that another seat leaves: people (and random players) leave early
# more often than the rule predicts, and a path full of leftover gems rewards being first.
LEAST_LEAVING = 0.2


def default_action(state: dict, seat: int) -> dict:
    return dict(LEAVE)


def bot_action(state: dict, seat: int) -> dict:
    seen = view_mod.view(state, seat)
    if not seen["deck_left"]:
        return dict(LEAVE)
    odds = temple_odds(seen)
    # The others weigh the same bonus of leaving: guess their leaving again with it counted.
    odds["q"] = chance_courage_below(ratio(odds["loss"] + leaving_bonus(seen, odds),
                                           odds["gain"]), boldness(seen))
    stay = courage(seen, seat) * odds["gain"] >= odds["loss"] + leaving_bonus(seen, odds)
    return dict(STAY) if stay else dict(LEAVE)


def temple_odds(seen: dict) -> dict:
    """What one more card is worth to a seat inside, from public knowledge: ``loss`` = chance of
    a second hazard x gems carried, ``gain`` = expected share of the next treasure; and ``q``,
    the chance that another seat inside leaves this turn under the same rule."""
    inside = sum(1 for p in seen["players"] if p["in_temple"]) or 1
    carrying = seen["players"][seen["you"]]["carrying"]
    treasures = unseen_treasures(seen)
    deadly = deadly_cards(seen)
    p_bust = deadly / seen["deck_left"]
    gain = sum(value // inside for value in treasures) / seen["deck_left"]
    loss = p_bust * carrying
    return {"inside": inside, "p_bust": p_bust, "gain": gain, "loss": loss,
            "q": chance_courage_below(ratio(loss, gain), boldness(seen))}


def ratio(loss: float, gain: float) -> float:
    return loss / gain if gain else math.inf


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


def leaving_bonus(seen: dict, odds: dict) -> float:
    """What leaving now adds to the gems carried, minus what of it would still be there after
    one more card: the expected share of the path's gems (split among this turn's leavers) and
    the artifacts on the path, which a lone leaver takes."""
    others = odds["inside"] - 1
    path_gems = seen["path_gems"]
    artifacts = artifacts_on_path(seen)
    share = alone = 0.0
    for k in range(others + 1):
        p = math.comb(others, k) * odds["q"] ** k * (1 - odds["q"]) ** (others - k)
        share += p * (path_gems // (k + 1))
        if k == 0:
            alone = p
    now = share + alone * artifacts
    # Staying keeps the same claim next turn if nobody else leaves now and the card is survived.
    later = (1 - odds["p_bust"]) * alone * now
    return now - later


def artifacts_on_path(seen: dict) -> int:
    """Worth of the artifacts on the path: printed (2018) or the next claim values (classic)."""
    count = sum(1 for c in seen["path"] if c["type"] == "artifact")
    claim_values = seen["next_claim_values"]
    if claim_values is not None:
        return sum(claim_values[:count])
    return sum(c["value"] for c in seen["path"] if c["type"] == "artifact")


def chance_courage_below(ratio: float, centre: float) -> float:
    """P(courage < ratio) for courage = exp(uniform(-SPREAD, SPREAD)): how likely another bot
    inside is to leave on the bare comparison of gain and loss."""
    if ratio <= 0:
        return LEAST_LEAVING
    return min(1.0, max(LEAST_LEAVING, (math.log(ratio) - centre + SPREAD) / (2 * SPREAD)))


def courage(seen: dict, seat: int) -> float:
    """This seat's weight on staying for this decision, drawn from what the seat sees."""
    return math.exp(boldness(seen) + seat_rng(seen, seat).uniform(-SPREAD, SPREAD))


def boldness(seen: dict) -> float:
    """The log of the typical courage: bolder at larger tables, where the one-card gain (a
    thin share of the next treasure) understates what staying on is worth."""
    return BOLDNESS + BOLDNESS_PER_PLAYER * (len(seen["players"]) - data.MIN_PLAYERS)


def seat_rng(seen: dict, seat: int) -> random.Random:
    """A generator seeded by the seat and its view, without what changes as others answer
    (who has decided, who is still to act), so the order of answers never changes a choice."""
    stable = {key: value for key, value in seen.items() if key not in ("to_act", "your_choice")}
    stable["players"] = [{k: v for k, v in p.items() if k != "decided"} for p in seen["players"]]
    digest = hashlib.sha256(f"incan_gold bot {seat} {canonical_json(stable)}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))
