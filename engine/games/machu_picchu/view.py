"""What a seat may see, and the human labels of actions.

Why here: hidden information (Sacrifice Card faces, the deck order) must never leave the
engine for another seat, so everything shown goes through ``view``; only the owner's cards
are listed, other hands are counts, until the game is over.  Labels and log lines are
phrases (``engine.text``), not English sentences: the service shows them in each reader's
language; their English rendering is the ``label`` kept in the audit log.
"""
from __future__ import annotations

from copy import deepcopy

from engine.text import N_, Phrase, counted, phrase, term

from . import data, plaza, rules, scoring


def card_face(cid: int) -> dict:
    card = data.CARDS[cid]
    return {"id": cid, "icons": list(card["icons"]), "gold": card["gold"]}


def _cost(cost: dict) -> list[Phrase]:
    """"1 cloth, 1 coca": a list argument, joined with ", " when shown."""
    return [rules.good_count(g, k) for g, k in cost.items()]


def _kind(kind: str) -> Phrase:
    """One "different good" of the Main Temple or the Sun Clock: corn counts as 3 corn."""
    return term(data.CORN_KIND) if kind == "corn" else rules.icon(kind)


def label(state: dict, seat: int, action: dict) -> Phrase:
    """The action as a phrase (``engine.text``); its English rendering is the action's label."""
    t = action["type"]
    district = rules.district
    if t == "place_free":
        return phrase("Place your free Inca on {district}", district=district(action["district"]))
    if t == "move":
        here = state["players"][seat]["prince"]
        to = district(action["to"])
        if here is None:
            return phrase("Place your Prince on {district}", district=to)
        if action["to"] in data.ADJACENT[here]:
            return phrase("Move to {district}", district=to)
        return phrase("Pay 1 llama and go to {district}", district=to)
    if t == "stay":
        return phrase("Stay and take the {tile} Moon Tile",
                      tile=term(data.MOON_TILE_NAMES[action["tile"]]))
    if t == "place":
        hut = state["queue"][0]["district"]
        return phrase("Place an Inca on {district} for {cost}",
                      district=district(action["district"]),
                      cost=_cost(data.PLACEMENT[hut][action["district"]]))
    if t == "take":
        p = data.PRIESTS[action["priest"]]
        return phrase("Take a {priest} for {cost}", priest=term(p["name"]), cost=_cost(p["cost"]))
    good = action.get("good")
    if t == "market_add":
        return phrase("Add 1 {good} from the bank to the market", good=rules.icon(good))
    if t == "market_remove":
        return phrase("Remove 1 {good} from the market to the bank", good=rules.icon(good))
    if t == "buy":
        return phrase("Buy 1 {good} for {price} corn", good=rules.icon(good),
                      price=rules.market_buy_price(state, good))
    if t == "sell":
        return phrase("Sell 1 {good} for {price} corn", good=rules.icon(good),
                      price=rules.market_sell_price(state, good))
    if t == "trade":
        steps = rules.trade_steps(action, plaza.carried_out(state, seat, action))
        return steps[0] if len(steps) == 1 else phrase("Trade: {steps}", steps=steps)
    if t == "sun_clock":
        return phrase("Send an Inca from {district} to the Sun Clock",
                      district=district(action["from"]))
    if t == "sun_clock_goods":
        return phrase("Take {goods}", goods=[_kind(g) for g in action["goods"]])
    if t == "produce":
        made = data.PRODUCTION[state["queue"][0]["district"]]
        return phrase("Produce {goods} for {count} corn", count=action["count"],
                      goods=rules.good_count(made, action["count"]))
    if t == "sacrifice":
        if good == "corn":
            return phrase("Sacrifice 3 corn")
        return phrase("Sacrifice 1 {good}", good=rules.icon(good))
    if t == "return_card":
        card = data.CARDS[action["card"]]
        first, second = card["icons"]
        return phrase("Return card {icons} (gold {gold}) to the deck",
                      icons=phrase("{a}+{b}", a=rules.icon(first), b=rules.icon(second)),
                      gold=card["gold"])
    if t == "done":
        k = state["queue"][0]["k"]
        if k == "plaza" and not rules.trades_step_by_step(state):
            return phrase("Leave the market without trading")
        return phrase(DONE_TEXT[k])
    return phrase("{action}", action=t)


# What ending a multi-step visit says, per frame (``rules.DONE_FRAMES``): a button and the
# confirmation name the step that ends, never a bare "Done".  The plaza's entry is for games
# that trade step by step; in the others "done" leaves the market without trading.
DONE_TEXT = {
    "place": N_("Place no more Incas"), "house": N_("Take no more priests"),
    "plaza": N_("Stop trading at the market"), "clock": N_("Send no more Incas to the Sun Clock"),
    "sacrifice": N_("Sacrifice nothing more"),
}


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
        "log": deepcopy(state["log"][-10:]),      # phrases: shown in the reader's language
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


def vary_hidden(state: dict, seat: int | None) -> None:
    """Nobody knows the deck's order; a seat alone knows its Sacrifice Cards and what its
    standing orders answer.  Whether a seat answers by itself ("ask") is no secret: everyone
    sees it asked.  Changed here: the deck reversed; a seat's cards exchanged for cards of the
    deck, and each order that answers turned to another answer."""
    if state["over"]:
        return  # every hand is shown at the end
    deck = state["deck"]
    if seat is None:
        deck.reverse()
        return
    player = state["players"][seat]
    cards = player["cards"]
    for i in range(min(len(cards), len(deck))):
        cards[i], deck[i] = deck[i], cards[i]
    for key, choices in data.ORDER_CHOICES.items():
        answers = [c for c in choices if c != "ask"]
        if player["orders"][key] in answers:
            now = answers.index(player["orders"][key])
            player["orders"][key] = answers[(now + 1) % len(answers)]
