"""Timeout defaults, the simple bot and the bot.

Standing (a seat timed out under the "standing" policy): what its standing orders answer.

Default (a seat timed out): the safe, cheap choice — stay and take a Moon Tile when choosing
the Prince's move, produce nothing, sacrifice nothing, end the multi-step visit ("done"),
otherwise the first legal action.

Bot: ``lookahead.best_action`` (see its docstring): it tries every legal action, plays the
rest of its own turn greedily, and values what results from what the seat may see.

Simple bot (``simple_bot_action``, the former bot, kept as the fast "easy" level and for
comparison): score every Prince move by what the district
gives *now* (an affordable Priest/Virgin 10, a temple not yet used today 3 per stone + 3 if it
can sacrifice there, a production bonus 2 per unit + 1 per own Inca there, a possible Inca
placement 3, the plaza 2 with 5+ corn, the Sun Clock 1), minus 2 for paying a llama; staying
scores 1.5.  In a visit it places/takes the first option it can afford, buys (in one trade)
as much as it can of a good still missing for the cheapest Priest or Virgin, produces as much
as it can, sacrifices every llama and every non-corn good it may, and at the summit returns
the cards worth least to it (gold + the VP they would give now).
"""
from __future__ import annotations

from . import data, lookahead, rules


def default_action(state: dict, seat: int) -> dict:
    legal = rules.legal(state, seat)
    if not legal:
        return {}
    frame = state["queue"][0]
    k = frame["k"]
    if k == "move":
        stays = [a for a in legal if a["type"] == "stay"]
        if stays:
            return stays[0]
    elif k == "produce":
        return {"type": "produce", "count": 0}
    elif k in rules.DONE_FRAMES:
        return {"type": "done"}
    return legal[0]


def standing_action(state: dict, seat: int) -> dict:
    """What the seat's standing orders answer to the production or sacrifice it is asked
    for (it waits with an order other than "ask" only after sacrificing by hand first);
    anything else, or "ask": the default."""
    if rules.legal(state, seat):
        frame = state["queue"][0]
        if frame["k"] in ("produce", "sacrifice"):
            order = rules.order_of(state, frame, seat)
            if order != "ask" and frame["k"] == "produce":
                most = rules.max_produce(state, seat, frame["district"])
                return {"type": "produce", "count": 0 if order == "never" else most}
            if order != "ask":
                kind = rules.ordered_sacrifice(state, frame, seat, order)
                return {"type": "sacrifice", "good": kind} if kind else {"type": "done"}
    return default_action(state, seat)


def card_value(state: dict, seat: int, cid: int) -> int:
    player = state["players"][seat]
    card = data.CARDS[cid]
    vp = 0
    for icon in card["icons"]:
        if icon in data.ICON_DISTRICT:
            vp += state["incas"][data.ICON_DISTRICT[icon]][seat]
        else:
            vp += player["priests"][icon]
    return vp + card["gold"]


def _district_value(state: dict, seat: int, d: str) -> float:
    player = state["players"][seat]
    goods = player["goods"]
    if d in data.HOUSE_OFFERS:
        frame = {"k": "house", "seat": seat, "district": d}
        return 10 if rules.options(state, frame, seat) else 0
    if d in data.TEMPLES:
        if d in state["used_today"]:
            return 0
        value = 3 * state["bonus"][d]
        if d == "main_temple":
            value += sum(rules.has_kind(goods, g) for g in data.MARKET_GOODS)
        elif player["priests"][data.TEMPLE_CARD[d]] and goods["llama"]:
            value += 3
        return value
    if d in data.PRODUCTION:
        if d in state["used_today"]:
            return 0
        return 2 * state["bonus"][d] + state["incas"][d][seat]
    if d in data.PLACEMENT:
        frame = {"k": "place", "seat": seat, "district": d, "placed": []}
        return 3 if rules.options(state, frame, seat) else 0
    if d == "central_plaza":
        return 2 if goods["corn"] >= 5 else 0
    if d == "sun_clock":
        return 1 if any(state["incas"][p][seat] for p in data.PRODUCTION) else 0
    return 0


def _wanted_goods(state: dict, seat: int) -> dict:
    """What is still missing for the cheapest Priest or Virgin left."""
    goods = state["players"][seat]["goods"]
    for kind in ("condor", "puma", "sun"):
        if state["priests_left"][kind]:
            cost = data.PRIESTS[kind]["cost"]
            return {g: n - goods[g] for g, n in cost.items() if goods[g] < n}
    return {}


def _plaza_choice(state: dict, seat: int, plain: list[dict]) -> dict:
    """The offered purchase of a good still missing for the cheapest Priest or Virgin that
    buys the most of it without buying more than is missing (one good at a time in a game
    that trades step by step); else leave the market."""
    wanted = _wanted_goods(state, seat)
    best, most = {"type": "done"}, 0
    for a in plain:
        if a["type"] == "buy" and wanted.get(a["good"], 0) > 0:
            return a
        if a["type"] == "trade" and not a["sell"] and set(a) == {"type", "sell", "buy"}:
            (good, n), = a["buy"].items()
            if most < n <= wanted.get(good, 0):
                best, most = a, n
    return best


def bot_action(state: dict, seat: int) -> dict:
    """The lookahead; at the plaza of a game that trades one good per decision (older rules
    versions), the simple bot's purchase, whose steps never undo each other (a lookahead
    valuing each step alone could buy and sell back the same good without end)."""
    if (rules.legal(state, seat) and state["queue"][0]["k"] == "plaza"
            and rules.trades_step_by_step(state)):
        return simple_bot_action(state, seat)
    return lookahead.best_action(state, seat, default_action)


def simple_bot_action(state: dict, seat: int) -> dict:
    legal = rules.legal(state, seat)
    if not legal:
        return {}
    frame = state["queue"][0]
    k = frame["k"]
    plain = [{x: v for x, v in a.items() if x != "label"} for a in legal]
    if k == "move":
        here = state["players"][seat]["prince"]
        best, best_score = plain[0], float("-inf")
        for a in plain:
            if a["type"] == "stay":
                score = 1.5
            else:
                score = _district_value(state, seat, a["to"])
                if here is not None and a["to"] not in data.ADJACENT[here]:
                    score -= 2
            if score > best_score:
                best, best_score = a, score
        return best
    if k == "free_inca":
        own = [i for c in state["players"][seat]["cards"] for i in data.CARDS[c]["icons"]
               if i in data.ICON_DISTRICT]
        district = data.ICON_DISTRICT[own[0]] if own else "weavers_quarter"
        return {"type": "place_free", "district": district}
    if k == "produce":
        return plain[-1]
    if k == "summit":
        cards = state["players"][seat]["cards"]
        worst = min(cards, key=lambda c: (card_value(state, seat, c), c))
        return {"type": "return_card", "card": worst}
    if k == "plaza":
        return _plaza_choice(state, seat, plain)
    if k == "sacrifice":
        for a in plain:
            if a["type"] == "sacrifice" and a["good"] != "corn":
                return a
        return {"type": "done"}
    if k == "house":
        return plain[-2] if len(plain) > 1 else plain[-1]   # the dearest card it can afford
    if k == "clock_goods":
        return {"type": "sun_clock_goods", "goods": ["coca", "pottery", "cloth"]}
    return plain[0]
