"""What a seat may see, and the human labels of actions.

Why here: hidden information (Sacrifice Card faces, the deck order) must never leave the
engine for another seat, so everything shown goes through ``view``; only the owner's cards
are listed, other hands are counts, until the game is over.
"""
from __future__ import annotations

from . import data, rules, scoring

GOOD_NAMES = {"corn": "corn", "llama": "llama", "coca": "coca", "pottery": "pottery",
              "cloth": "cloth"}


def card_face(cid: int) -> dict:
    card = data.CARDS[cid]
    return {"id": cid, "icons": list(card["icons"]), "gold": card["gold"]}


def _cost(cost: dict) -> str:
    return ", ".join(f"{k} {g}" for g, k in cost.items())


def label(state: dict, seat: int, action: dict) -> str:
    t = action["type"]
    dn = data.DISTRICT_NAMES
    if t == "place_free":
        return f"Place your free Inca on {dn[action['district']]}"
    if t == "move":
        here = state["players"][seat]["prince"]
        if here is None:
            return f"Place your Prince on {dn[action['to']]}"
        if action["to"] in data.ADJACENT[here]:
            return f"Move to {dn[action['to']]}"
        return f"Pay 1 llama and go to {dn[action['to']]}"
    if t == "stay":
        return f"Stay and take the {action['tile']} Moon Tile"
    if t == "place":
        hut = state["queue"][0]["district"]
        return (f"Place an Inca on {dn[action['district']]} for "
                f"{_cost(data.PLACEMENT[hut][action['district']])}")
    if t == "take":
        p = data.PRIESTS[action["priest"]]
        return f"Take a {p['name']} for {_cost(p['cost'])}"
    if t == "market_add":
        return f"Add 1 {action['good']} from the bank to the market"
    if t == "market_remove":
        return f"Remove 1 {action['good']} from the market to the bank"
    if t == "buy":
        return f"Buy 1 {action['good']} for {rules.market_buy_price(state, action['good'])} corn"
    if t == "sell":
        return f"Sell 1 {action['good']} for {rules.market_sell_price(state, action['good'])} corn"
    if t == "sun_clock":
        return f"Send an Inca from {dn[action['from']]} to the Sun Clock"
    if t == "sun_clock_goods":
        return "Take " + ", ".join("3 corn" if g == "corn" else g for g in action["goods"])
    if t == "produce":
        good = data.PRODUCTION[state["queue"][0]["district"]]
        return f"Produce {action['count']} {good} for {action['count']} corn"
    if t == "sacrifice":
        return "Sacrifice 3 corn" if action["good"] == "corn" else f"Sacrifice 1 {action['good']}"
    if t == "return_card":
        card = data.CARDS[action["card"]]
        return f"Return card {'+'.join(card['icons'])} (gold {card['gold']}) to the deck"
    if t == "done":
        return "Done"
    return t


def decision_key(state: dict, seat: int) -> str:
    if seat not in rules.to_act(state):
        return ""
    frame = state["queue"][0]
    k = frame["k"]
    if k == "free_inca":
        return f"setup:{seat}"
    if state["night"]:
        return f"night{state['day']}"
    base = f"d{state['day']}t{state['turn']}"
    if seat == state["cur"]:
        return base                       # sub-steps of one's own turn: one mail
    return f"{base}:{k}"


def view(state: dict, seat: int | None) -> dict:
    over = state["over"] is not None
    players = []
    for s, p in enumerate(state["players"]):
        entry = {
            "seat": s, "name": p["name"], "goods": dict(p["goods"]),
            "incas_supply": p["supply"], "prince": p["prince"], "scout": p["scout"],
            "sacrifice_cards": len(p["cards"]), "priests": dict(p["priests"]),
            "moon_tiles": list(p["moon"]), "cards_owed": p["owed"],
        }
        if over:
            entry["cards"] = [card_face(c) for c in p["cards"]]
        players.append(entry)
    districts = {}
    for d in data.DISTRICTS:
        entry = {"name": data.DISTRICT_NAMES[d], "neighbours": sorted(data.ADJACENT[d])}
        if d in data.PRODUCTION:
            entry["incas"] = {s: c for s, c in enumerate(state["incas"][d]) if c}
            good = data.PRODUCTION[d]
            entry["bonus"] = state["bonus"][d]          # units (3 corn = 1 unit)
            entry["bonus_goods"] = {good: state["bonus"][d] * (
                data.CORN_TERRACE_UNIT if good == "corn" else 1)}
        elif d in data.TEMPLES:
            entry["incas"] = {}
            entry["bonus"] = state["bonus"][d]          # temple stones
        elif d == "sun_clock":
            entry["incas"] = {s: c for s, c in enumerate(state["sun_clock"]) if c}
            entry["bonus"] = 0
        else:
            entry["incas"], entry["bonus"] = {}, 0
        entry["used_today"] = d in state["used_today"]
        districts[d] = entry
    frame = state["queue"][0] if state["queue"] else None
    out = {
        "game": "machu_picchu", "day": state["day"], "last_day": data.LAST_DAY,
        "phase": "over" if over else (frame["k"] if frame else "idle"),
        "to_act": rules.to_act(state), "active": state["cur"],
        "start_player": state["start"], "day_ending": state["day_end"] is not None,
        "players": players, "districts": districts,
        "market": dict(state["market"]),
        "market_prices": {g: {"buy": rules.market_buy_price(state, g),
                              "sell": rules.market_sell_price(state, g)}
                          for g in data.MARKET_GOODS},
        "bank": dict(state["bank"]),
        "moon_tiles_left": list(state["moon_left"]),
        "priests_left": dict(state["priests_left"]),
        "deck_left": len(state["deck"]), "track_corn": state["track_corn"],
        "sun_clock": {s: c for s, c in enumerate(state["sun_clock"]) if c},
        "log": list(state["log"][-10:]),
        "you": seat,
    }
    if frame and frame["k"] in ("produce", "sacrifice"):
        out["pending"] = {"kind": frame["k"],
                          "district": frame.get("district") or frame.get("temple")}
    if seat is not None:
        me = state["players"][seat]
        out["your_cards"] = [card_face(c) for c in me["cards"]]
        out["standing_orders"] = dict(me["orders"])
        if frame and frame["k"] == "summit" and frame["seat"] == seat:
            out["summit"] = {"return": frame["to_return"]}
    if over:
        out["outcome"] = scoring.outcome(state)
    return out
