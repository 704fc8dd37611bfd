"""The bot: a one-ply lookahead over the rest of its own turn, valued from what the seat sees.

Why a lookahead: a table of "what each district gives" cannot weigh the Sun Clock, the
houses, a Moon Tile or a trade against each other; the rules can.  For every legal action
(and, at the plaza, the whole purchase of what the next Priest or Virgin still needs) the bot
plays it on a copy, finishes its own turn greedily (each later step of the visit chosen the
same way, one step deep; other seats asked meanwhile give the timeout default), and values
the position it reaches (``value``).

Why a "world" first: the copy must not know what the seat may not.  The cards nobody at this
seat has seen (other hands and the deck) are dealt again in an order drawn from the seat's
own view, and other seats' standing orders are taken as "ask" (which answers they give is
their secret).  So the choice depends only on ``view(state, seat)``: the same view, the same
choice, whatever the others hold; and no randomness comes from anywhere else.
"""
from __future__ import annotations

import hashlib
import math
import random
from typing import Callable

from engine.core import canonical_json, clone

from . import data, hidden, plaza, rules, scoring, view as view_mod

Chooser = Callable[[dict, int], dict]

# What a thing is worth while the game has days to run (scaled down on the last days, when
# goods can no longer become points).  Tuned by self-play (bench/machu_picchu_bot.py).
GOOD_WORTH = {"corn": 0.25, "llama": 1.1, "coca": 1.0, "pottery": 1.0, "cloth": 1.1}
PLENTY = 3                 # goods of one kind beyond this many are worth only SURPLUS each
SURPLUS = 0.35
TOWARD_PRIEST = 0.6        # each good that the next Priest or Virgin still needs, on top
PRIEST_BONUS = 0.8         # a Priest or Virgin: its goods' worth, and this per good it cost
DISTRICT_INCA = 4.0        # an Inca producing (its card points are counted apart)
SUPPLY_INCA = 0.4
CLOCK_INCA = 4.5           # three different goods and three steps at night, Inca back
STEP = 0.8                 # one field on the Incatrail (the way to cards and gold)
GOLD_PER_HIDDEN_CARD = 2.8  # a kept card: the best of three drawn beats the mean 2.3
GOLD_SPREAD = 4.0          # how uncertain a hidden hand's gold is
TURN_STEPS = 40            # the most decisions played out to finish one's own turn


def best_action(state: dict, seat: int, others: Chooser) -> dict:
    """The legal action whose result, with the rest of the turn played greedily, is worth
    most to ``seat`` (first in list order among equals); ``others`` answers for any other
    seat asked meanwhile (the timeout default)."""
    legal = [without_display(a) for a in rules.legal(state, seat)]
    if not legal:
        return {}
    world = seen_world(state, seat)
    best, most = legal[0], float("-inf")
    for action in legal + whole_purchases(world, seat):
        worth = worth_after(world, seat, action, others)
        if worth > most:
            best, most = action, worth
    return best


def without_display(action: dict) -> dict:
    return {k: v for k, v in action.items() if k != "label"}


def seen_world(state: dict, seat: int) -> dict:
    """A copy of ``state`` holding only what ``seat`` knows: unseen cards dealt again in an
    order drawn from the seat's view, other seats' standing orders as "ask"."""
    world = clone(state)
    digest = hashlib.sha256(canonical_json(view_mod.view(state, seat)).encode()).digest()
    chooser = random.Random(int.from_bytes(digest[:8], "big"))
    for player in hidden.deal_unseen_cards(world, seat, chooser):
        player["orders"] = dict(data.DEFAULT_ORDERS)
    return world


def whole_purchases(state: dict, seat: int) -> list[dict]:
    """At the plaza: buying at once every good a Priest or Virgin still needs (the links
    offer one good at a time; a whole trade may name several)."""
    frame = state["queue"][0]
    if not rules.is_whole_trade(state, frame, {"type": "trade"}):
        return []
    out = []
    for kind in data.PRIEST_KINDS:
        missing = missing_for(state["players"][seat]["goods"], kind)
        wanted = plaza.trade(buy=missing)
        if state["priests_left"][kind] and missing and plaza.possible(state, seat, wanted):
            out.append(wanted)
    return out


def missing_for(goods: dict, kind: str) -> dict:
    cost = data.PRIESTS[kind]["cost"]
    return {g: n - goods[g] for g, n in cost.items() if goods[g] < n}


def worth_after(world: dict, seat: int, action: dict, others: Chooser | None = None) -> float:
    """What ``action`` is worth to ``seat``: with ``others``, after the rest of the turn is
    played out (``finish_turn``), else right after it."""
    after = clone(world)
    rules.apply(after, seat, action)
    if others:
        finish_turn(after, seat, others)
    return value(after, seat)


def finish_turn(state: dict, seat: int, others: Chooser) -> None:
    """Play on until a Prince is to move again (or the game ends): ``seat`` picks each step
    one step deep, any other seat asked answers as ``others`` does."""
    for _ in range(TURN_STEPS):
        if state["over"] or not state["queue"] or state["queue"][0]["k"] == "move":
            return
        acting = rules.to_act(state)
        if not acting:
            return
        who = seat if seat in acting else acting[0]
        if who == seat:
            legal = [without_display(a) for a in rules.legal(state, seat)]
            chosen = max(legal, key=lambda a: worth_after(state, seat, a))
        else:
            chosen = others(state, who)
        rules.apply(state, who, chosen)


def value(state: dict, seat: int) -> float:
    """What the position is worth to ``seat``: its points as they would count now (times
    the conquest multiplier its gold may earn), and what it holds that can still become
    points, weighed less as the last day nears."""
    if state["over"]:
        return final_worth(state, seat)
    points = scoring.victory_points(state, seat) * expected_multiplier(state, seat)
    return points + days_weight(state) * holdings(state, seat)


def final_worth(state: dict, seat: int) -> float:
    """A finished game: the margin over the best other score, winning first."""
    scores = scoring.outcome(state)["scores"]
    best_other = max(v for s, v in scores.items() if s != seat)
    return 1000.0 * (scores[seat] > best_other) + scores[seat] - best_other


def expected_multiplier(state: dict, seat: int) -> float:
    """The conquest multiplier (3, 2 or 1 by gold rank) ``seat``'s gold may earn, made
    smooth: each other seat counts as richer by how likely its gold exceeds ours (its cards
    are hidden, each counted at the gold a kept card usually has)."""
    mine = scoring.gold(state, seat)
    richer = sum(_likely_above(_guessed_gold(p) - mine)
                 for s, p in enumerate(state["players"]) if s != seat)
    return max(1.0, 3.0 - richer)


def _guessed_gold(player: dict) -> float:
    return len(player["cards"]) * GOLD_PER_HIDDEN_CARD + data.trail_bonus(player["scout"])


def _likely_above(margin: float) -> float:
    return 1.0 / (1.0 + math.exp(-margin / GOLD_SPREAD))


def days_weight(state: dict) -> float:
    return min(1.0, (data.LAST_DAY - state["day"] + 1) / 3)


def holdings(state: dict, seat: int) -> float:
    player = state["players"][seat]
    goods, steps = coming_goods(player)
    worth = sum(goods_worth(g, n) for g, n in goods.items())
    worth += TOWARD_PRIEST * toward_next_priest(state, goods)
    worth += sum(priest_worth(kind) * n for kind, n in player["priests"].items())
    worth += DISTRICT_INCA * sum(state["incas"][d][seat] for d in data.PRODUCTION)
    worth += SUPPLY_INCA * player["supply"] + CLOCK_INCA * state["sun_clock"][seat]
    return worth + STEP * (trail_fields(player) + steps)


def coming_goods(player: dict) -> tuple[dict, int]:
    """The seat's goods with what the trail owes it and what its Moon Tiles will give at
    night (a tile's good counted when its price is at hand), and the steps the tiles give:
    so a tile is worth what it gives this seat."""
    goods = dict(player["goods"])
    for good, n in player["due"].items():
        goods[good] += n
    steps = 0
    for tile in player["moon"]:
        spec = data.MOON_TILES[tile]
        if "corn" in spec:
            goods["corn"] += spec["corn"]
        elif "steps" in spec:
            steps += spec["steps"]
        elif goods["corn"] >= spec["price"]:
            goods["corn"] -= spec["price"]
            goods[spec["good"]] += 1
    return goods, steps


def trail_fields(player: dict) -> int:
    """Fields walked on the Incatrail: where the scout stands, and a whole lap for each card
    the summit gave (kept or owed), so passing the summit loses nothing."""
    return player["scout"] + data.SUMMIT * (len(player["cards"]) + player["owed"])


def goods_worth(good: str, n: int) -> float:
    """``n`` of ``good``: a hoard is worth less than the first few (corn is money: all
    count)."""
    if good == "corn":
        return GOOD_WORTH[good] * n
    return GOOD_WORTH[good] * min(n, PLENTY) + SURPLUS * max(0, n - PLENTY)


def toward_next_priest(state: dict, goods: dict) -> int:
    """How many of its goods the Priest or Virgin left that misses fewest would use (of
    those, the dearest: a Virgin when the goods for one are at hand)."""
    kinds = [k for k in data.PRIEST_KINDS if state["priests_left"][k]]
    if not kinds:
        return 0
    kind = min(kinds, key=lambda k: (sum(missing_for(goods, k).values()), -cost_size(k)))
    return sum(min(goods[g], n) for g, n in data.PRIESTS[kind]["cost"].items())


def priest_worth(kind: str) -> float:
    cost = data.PRIESTS[kind]["cost"]
    return sum((GOOD_WORTH[g] + TOWARD_PRIEST + PRIEST_BONUS) * n for g, n in cost.items())


def cost_size(kind: str) -> int:
    return sum(data.PRIESTS[kind]["cost"].values())
