"""Timeout default and the simple bot.

default_action: pass when allowed (the draft: the first card listed, i.e. the lowest card id;
a pick: the first card in the pool), otherwise the most harmless step: a Terrace that does
nothing, "done", "skip".
bot_action: a greedy heuristic -- tokens on the table are points and tokens reach the Active
Pool through played cards, so: build (the placement putting most tokens down), else Extra
Workforce, else a Trade Agreement it is party to (with its left neighbour when it can, so
every seat is offered agreements alike), else a Terrace of its least useful card that then
builds a temple, stocks a hut or a road (most tokens first); it passes only when no card can
be played.  In the draft it shows its two least useful cards and takes the most useful."""
from __future__ import annotations

from engine.text import labelled, phrase

from . import actions, board, era, rules
from .data import CARDS, GOALS_BY_ID


def default_action(state: dict, seat: int) -> dict:
    legal = rules.legal(state, seat)
    if not legal:
        return labelled({"type": "pass"}, phrase("Pass"))
    for wanted in ("pass", "skip", "nothing", "done"):
        for a in legal:
            if a["type"] == wanted:
                return a
    for a in legal:
        if a["type"] == "terrace":
            return a
    return legal[0]


def card_value(cid: str) -> int:
    card = CARDS[cid]
    if card["type"] in ("city", "colca", "start"):
        return 2 + card["fame"] + card["temple"] + len(card["huts"])
    return {"workforce": 3, "trade": 2}.get(card["type"], 0)


def _tokens(state: dict, seat: int, action: dict) -> int:
    """Tokens an option puts on the table (= points)."""
    table = state["table"]
    kind = action["type"]
    discount = actions.effects(state, seat)["road_discount"]
    if kind == "place":
        cid = state["pending"]["card"]
        numbers = board.road_numbers(table[action["via"]]["card"], action["via"], cid, action["at"])
        return board.road_cost(numbers, discount) + CARDS[cid]["fame"]
    if kind == "road":
        numbers = board.road_numbers(table[action["a"]]["card"], action["a"],
                                     table[action["b"]]["card"], action["b"])
        return board.road_cost(numbers, discount)
    if kind == "temple":
        return CARDS[table[action["at"]]["card"]]["temple"]
    return 1 if kind == "stock" else 0


def _goal_bonus(state: dict, seat: int, action: dict) -> int:
    """A nudge towards the bot's own secret goals (temples, huts, reaching new locations)."""
    kinds = {GOALS_BY_ID[g]["kind"] for g in state["goals"][seat]}
    kind = action["type"]
    if kind == "temple" and kinds & {"temples", "temple_tokens"}:
        return 2
    if kind == "stock" and kinds & {"huts_good", "all_goods"}:
        return 2
    if kind == "road":
        net = board.network(state, {seat})
        if (action["a"] in net) != (action["b"] in net):
            return 1
    return 0


def bot_action(state: dict, seat: int) -> dict:
    legal = rules.legal(state, seat)
    if not legal:
        return default_action(state, seat)
    types = {a["type"] for a in legal}
    if state["phase"] == era.SHOW:
        return min(legal, key=lambda a: (card_value(a["card"]), a["card"]))
    if state["phase"] == era.PICK:
        return max(legal, key=lambda a: (card_value(a["card"]), a["card"]))
    if "place" in types:
        return max(legal, key=lambda a: (_tokens(state, seat, a), a["at"], a["via"]))
    if state["pending"] is not None:
        useful = [a for a in legal if a["type"] in ("temple", "stock", "road")]
        if useful:
            return max(useful, key=lambda a: (_tokens(state, seat, a) + _goal_bonus(state, seat, a),
                                              a["type"]))
        for a in legal:
            if a["type"] == "restrict" and state["table"][a["at"]]["owner"] not in (None, seat):
                return a
        return legal[0] if types <= {"restrict"} else default_action(state, seat)
    for wanted in ("build", "workforce"):
        options = [a for a in legal if a["type"] == wanted]
        if options:
            return max(options, key=lambda a: (card_value(a["card"]), a["card"]))
    trades = [a for a in legal if a["type"] == "trade" and seat in (
        a["space"], (a["space"] + 1) % len(state["players"]))]
    if trades:  # with the left neighbour first: every seat treats its neighbours alike
        return min(trades, key=lambda a: (a["space"] != seat, a["card"]))
    terraces = [a for a in legal if a["type"] == "terrace"]
    if terraces:
        return min(terraces, key=lambda a: (card_value(a["card"]), a["card"]))
    return default_action(state, seat)
