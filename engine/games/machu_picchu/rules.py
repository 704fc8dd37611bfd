"""The turn machine of The Princes of Machu Picchu.

Why a queue of frames: a Prince's turn is interrupted by decisions of *other* seats (paying
for production, sacrificing in turn order) and of its own seat (summit cards), and the night
is a sequence of such decisions.  ``state["queue"]`` holds the frames still to resolve, front
first; ``settle`` resolves every frame that needs nobody (including answers given by standing
orders) and stops at the first one that waits for a seat.  ``to_act`` is just the seats the
front frame waits for.  A summit is pushed to the *front*, so it interrupts what it came from.

Frame kinds (``"k"``): ``free_inca`` (setup), ``move`` (the Prince), ``place`` (Watchman's
Hut / Royal Palace), ``house`` (House of Priests / Virgins), ``plaza``, ``clock`` (Sun Clock),
``produce`` (several seats at once), ``sacrifice`` (one seat at a time, turn order),
``summit``, ``clock_goods`` (3 different goods for a Sun Clock Inca), ``moon_night``,
``end_turn``, ``night_end``.
"""
from __future__ import annotations

from itertools import combinations

from engine.core import IllegalAction, checked_standing_orders, rng, without_label
from engine.text import N_, Phrase, counted, phrase, term

from . import data, plaza
from .data import DEFAULT_ORDERS, ORDER_CHOICES
from .trail import advance, draw_at_summit, pay_dues

MARKET_LOG = {"market_add": N_("{player}: market add {good}"),
              "market_remove": N_("{player}: market remove {good}"),
              "buy": N_("{player}: market buy {good}"), "sell": N_("{player}: market sell {good}")}
CLOCK_COMBOS = [list(c) for c in combinations(data.MAIN_TEMPLE_KINDS, data.SUN_CLOCK_KINDS)]
LOG_KEEP = 30


# --- setup ---------------------------------------------------------------------------------
def new_state(players: list[str], seed: int, options) -> dict:
    if options:  # any at all, of any type: the game takes none
        unknown = sorted(map(str, options)) if isinstance(options, dict) else [repr(options)[:40]]
        raise IllegalAction(counted("unknown option: {unknown}; this game has no options",
                                    "unknown options: {unknown}; this game has no options",
                                    len(unknown), unknown=", ".join(unknown)))
    n = len(players)
    deck = list(range(len(data.CARDS)))
    rng(seed, "deck").shuffle(deck)
    bank = dict(data.COMPONENTS)
    start_day = data.START_DAY[n]
    track = (data.LAST_DAY - start_day + 1) * data.TRACK_CORN_PER_DAY
    bank["corn"] -= track
    seats = []
    for i, name in enumerate(players):
        goods = dict(data.START_GOODS)
        for g, k in goods.items():
            bank[g] -= k
        seats.append({
            "name": name, "goods": goods, "supply": data.INCAS_PER_PLAYER[n],
            "prince": None, "scout": i + 1, "cards": deck[:data.START_CARDS],
            "priests": {k: 0 for k in data.PRIEST_KINDS}, "moon": [], "owed": 0,
            "due": {}, "orders": dict(DEFAULT_ORDERS),
        })
        del deck[:data.START_CARDS]
    market = {g: data.MARKET_START_FILLED for g in data.MARKET_GOODS}
    for g in data.MARKET_GOODS:
        bank[g] -= data.MARKET_START_FILLED
    bonus = {}
    for d, g in data.PRODUCTION.items():
        bonus[d] = 1
        bank[g] -= data.CORN_TERRACE_UNIT if g == "corn" else 1
    for t in data.TEMPLES:
        bonus[t] = 1
    state = {
        "epoch": 0, "seed": seed, "n": n, "day": start_day, "turn": 0, "cur": 0, "start": 0,
        "players": seats,
        "incas": {d: [0] * n for d in data.PRODUCTION},
        "sun_clock": [0] * n,
        "bonus": bonus, "used_today": [],
        "market": market, "bank": bank,
        "moon_left": list(data.MOON_TILE_ORDER), "moon_taken": 0,
        "priests_left": {k: p["count"] for k, p in data.PRIESTS.items()},
        "deck": deck, "track_corn": track, "day_end": None,
        "queue": [{"k": "free_inca", "seat": s} for s in range(n)],
        "over": None, "log": [], "night": False, "plaza": plaza.WHOLE,
    }
    return state


def reshuffle_unseen(state: dict, key: int) -> None:
    """After a rollback: the Sacrifice deck is the one pile no seat sees, so it is shuffled
    again from ``key`` (sorted first, so the old order leaves no trace).  Cards a seat returned
    to the bottom are shuffled in too: their owner loses where they lie, nobody learns
    anything.  Hands, goods, the board and the deck's size stay as they were."""
    if state["over"]:
        return
    state["deck"].sort()
    rng(key, "deck").shuffle(state["deck"])


# --- helpers -------------------------------------------------------------------------------
def seats_from(state: dict, first: int) -> list[int]:
    n = state["n"]
    return [(first + i) % n for i in range(n)]


def log(state: dict, text: Phrase) -> None:
    """A log line is a phrase (``engine.text``), so each reader sees it in their language."""
    entries = state["log"]
    entries.append(text)
    if len(entries) > LOG_KEEP:
        del entries[0]


def name(state: dict, seat: int) -> str:
    return state["players"][seat]["name"]


def district(d: str) -> Phrase:
    return term(data.DISTRICT_NAMES[d])


def icon(kind: str) -> Phrase:
    """A good or card icon as a term (its English name is its id)."""
    return term(data.ICON_NAMES[kind])


def good_count(kind: str, n: int) -> Phrase:
    """``n`` of a good: English counts llamas ("1 llama", "2 llamas"); corn, coca, pottery and
    cloth are mass nouns ("3 corn", "2 cloth"), as in the rulebook."""
    if kind == "llama":
        return counted("{n} llama", "{n} llamas", n)
    return phrase("{n} {good}", n=n, good=icon(kind))


def goods_list(kinds) -> list:
    return [icon(k) for k in kinds]


def can_pay(goods: dict, cost: dict) -> bool:
    return all(goods[g] >= k for g, k in cost.items())


def pay(state: dict, seat: int, cost: dict) -> None:
    goods, bank = state["players"][seat]["goods"], state["bank"]
    for g, k in cost.items():
        goods[g] -= k
        bank[g] += k


def give(state: dict, seat: int, good: str, amount: int) -> int:
    """Bank pays out what it has (decision: a short bank pays what it has, never goes below 0)."""
    got = min(amount, state["bank"][good])
    state["bank"][good] -= got
    state["players"][seat]["goods"][good] += got
    return got


def give_kind(state: dict, seat: int, kind: str) -> None:
    """One 'different good' (Main Temple / Sun Clock kind): corn means 3 corn."""
    give(state, seat, kind, data.CORN_PER_GOOD if kind == "corn" else 1)


def max_produce(state: dict, seat: int, district: str) -> int:
    good = data.PRODUCTION[district]
    return min(state["incas"][district][seat], state["players"][seat]["goods"]["corn"],
               state["bank"][good])


def has_kind(goods: dict, kind: str) -> bool:
    return goods[kind] >= (data.CORN_PER_GOOD if kind == "corn" else 1)


def llama_steps(state: dict, kind: str) -> int:
    """Smallest revealed slot number of that card kind (zh.full 神庙献祭)."""
    taken = data.PRIESTS[kind]["count"] - state["priests_left"][kind]
    return min(data.PRIESTS[kind]["steps"][:taken])


def market_buy_price(state: dict, good: str) -> int:
    return plaza.buy_price(state["market"], good)


def market_sell_price(state: dict, good: str) -> int:
    return plaza.sell_price(state["market"], good)


def trades_step_by_step(state: dict) -> bool:
    """Whether this game's plaza trades one good per decision (games of rules versions 1 to
    4, ``plaza`` module); a game of the current version trades once per visit."""
    return state.get("plaza") == plaza.STEPS


def keep_rules_version(state: dict, version) -> None:
    """A game created under ``version`` plays its plaza as that version did."""
    if str(version) in plaza.STEP_VERSIONS:
        state["plaza"] = plaza.STEPS


# --- options per frame (validation == membership; labels are added by the view) ----------
def options(state: dict, frame: dict, seat: int) -> list[dict]:
    return _OPTIONS[frame["k"]](state, frame, seat)


def _opt_free_inca(state, frame, seat):
    return [{"type": "place_free", "district": d} for d in data.PRODUCTION]


def _opt_move(state, frame, seat):
    player = state["players"][seat]
    here = player["prince"]
    if here is None:
        return [{"type": "move", "to": d} for d in data.DISTRICTS]
    near = data.ADJACENT[here]
    rich = can_pay(player["goods"], data.MOVE_ANYWHERE_COST)
    out = [{"type": "move", "to": d} for d in data.DISTRICTS
           if d != here and (d in near or rich)]
    out.extend({"type": "stay", "tile": t} for t in state["moon_left"])
    return out


def _opt_place(state, frame, seat):
    player = state["players"][seat]
    out = []
    if player["supply"] > 0:
        for d, cost in data.PLACEMENT[frame["district"]].items():
            if d not in frame["placed"] and can_pay(player["goods"], cost):
                out.append({"type": "place", "district": d})
    return out


def _opt_house(state, frame, seat):
    goods = state["players"][seat]["goods"]
    return [{"type": "take", "priest": k} for k in data.HOUSE_OFFERS[frame["district"]]
            if state["priests_left"][k] > 0 and can_pay(goods, data.PRIESTS[k]["cost"])]


def _opt_plaza(state, frame, seat):
    if not trades_step_by_step(state):
        return plaza.offered(state, seat)
    return _opt_plaza_steps(state, frame, seat)


def _opt_plaza_steps(state, frame, seat):
    """A game of rules versions 1 to 4: one adjustment, then one good per decision."""
    goods = state["players"][seat]["goods"]
    market, bank = state["market"], state["bank"]
    top = len(data.MARKET_PRICES)
    out = []
    if not frame["adjusted"] and not frame["traded"]:
        out.extend({"type": "market_add", "good": g} for g in data.MARKET_GOODS
                   if market[g] < top and bank[g] > 0)
        out.extend({"type": "market_remove", "good": g} for g in data.MARKET_GOODS
                   if market[g] > 0)
    for g in data.MARKET_GOODS:
        if (market[g] > 0 or bank[g] > 0) and goods["corn"] >= market_buy_price(state, g):
            out.append({"type": "buy", "good": g})
    for g in data.MARKET_GOODS:
        if goods[g] > 0 and bank["corn"] >= market_sell_price(state, g):
            out.append({"type": "sell", "good": g})
    return out


def _opt_clock(state, frame, seat):
    return [{"type": "sun_clock", "from": d} for d in data.PRODUCTION
            if state["incas"][d][seat] > 0]


def _opt_clock_goods(state, frame, seat):
    return [{"type": "sun_clock_goods", "goods": combo} for combo in CLOCK_COMBOS]


def _opt_produce(state, frame, seat):
    if seat not in frame["seats"]:
        return []
    return [{"type": "produce", "count": k}
            for k in range(max_produce(state, seat, frame["district"]) + 1)]


def _opt_sacrifice(state, frame, seat):
    goods = state["players"][seat]["goods"]
    temple = frame["temple"]
    if temple == "main_temple":
        return [{"type": "sacrifice", "good": g} for g in data.MAIN_TEMPLE_KINDS
                if g not in frame["given"] and has_kind(goods, g)]
    kind = data.TEMPLE_CARD[temple]
    if goods["llama"] > 0 and len(frame["given"]) < state["players"][seat]["priests"][kind]:
        return [{"type": "sacrifice", "good": "llama"}]
    return []


def _opt_summit(state, frame, seat):
    return [{"type": "return_card", "card": c} for c in sorted(state["players"][seat]["cards"])]


_OPTIONS = {
    "free_inca": _opt_free_inca, "move": _opt_move, "place": _opt_place, "house": _opt_house,
    "plaza": _opt_plaza, "clock": _opt_clock, "clock_goods": _opt_clock_goods,
    "produce": _opt_produce, "sacrifice": _opt_sacrifice, "summit": _opt_summit,
}
# Frames ended by an explicit {"type": "done"} (multi-step or optional steps).
DONE_FRAMES = {"place", "house", "plaza", "clock", "sacrifice"}


def frame_seats(frame: dict) -> list[int]:
    k = frame["k"]
    if k == "produce":
        return sorted(frame["seats"])
    if k == "sacrifice":
        return frame["order"][:1]
    return [frame["seat"]]


def to_act(state: dict) -> list[int]:
    if state["over"] or not state["queue"]:
        return []
    return frame_seats(state["queue"][0])


def legal(state: dict, seat: int) -> list[dict]:
    if seat not in to_act(state):
        return []
    frame = state["queue"][0]
    out = options(state, frame, seat)
    if frame["k"] in DONE_FRAMES:
        out.append({"type": "done"})
    return out


# --- applying an action ---------------------------------------------------------------------
def standing_orders(state: dict, seat) -> dict | None:
    """Design (docs: Standing orders): what a seat may answer in advance, while the game runs."""
    if state["over"] or type(seat) is not int or not 0 <= seat < state["n"]:
        return None
    orders = state["players"][seat]["orders"]
    return {key: {"value": orders[key], "choices": list(choices)}
            for key, choices in ORDER_CHOICES.items()}


def set_orders(state: dict, seat: int, action: dict) -> None:
    chosen = checked_standing_orders(standing_orders(state, seat), action)
    state["players"][seat]["orders"].update(chosen["orders"])
    settle(state, seat)


def apply(state: dict, seat: int, action) -> None:
    if not isinstance(action, dict):
        raise IllegalAction(phrase("an action must be a JSON object"))
    if state["over"]:
        raise IllegalAction(phrase("the game is over"))
    if not isinstance(seat, int) or not 0 <= seat < state["n"]:
        raise IllegalAction(phrase("no seat {seat} in this game", seat=repr(seat)))
    if action.get("type") == "standing_orders":
        set_orders(state, seat, action)
        return
    if seat not in to_act(state):
        raise IllegalAction(phrase("it is not your decision now"))
    frame = state["queue"][0]
    wanted = without_label(action)
    if wanted == {"type": "done"}:
        if frame["k"] not in DONE_FRAMES:
            raise IllegalAction(phrase("there is nothing to finish now; choose one of the options"))
    elif is_whole_trade(state, frame, wanted):
        wanted = plaza.parsed(wanted)
    elif wanted not in options(state, frame, seat):
        raise IllegalAction(phrase("not a legal action now: {action}", action=str(wanted)))
    _DO[frame["k"]](state, frame, seat, wanted)
    settle(state, seat)


def is_whole_trade(state: dict, frame: dict, action: dict) -> bool:
    """A trade at the plaza of a game that trades once per visit: any whole exchange the
    market allows is legal, not only the ones offered as links (``plaza.offered``)."""
    return (action.get("type") == "trade" and frame["k"] == "plaza"
            and not trades_step_by_step(state))


def checked_trade(state: dict, seat: int, action: dict) -> dict:
    """The whole trade ``action`` in its written form if the market and the seat allow all of
    it now; else ``IllegalAction`` saying why."""
    wanted = plaza.parsed(action)
    plaza.carried_out(state, seat, wanted)
    return wanted


def _do_free_inca(state, frame, seat, action):
    d = action["district"]
    state["queue"].pop(0)
    state["players"][seat]["supply"] -= 1
    state["incas"][d][seat] += 1
    log(state, phrase("{player} places a free Inca on {district}", player=name(state, seat),
                      district=district(d)))
    if len(state["queue"]) == 0:
        start_turn(state, 0)


def _do_move(state, frame, seat, action):
    player = state["players"][seat]
    queue = state["queue"]
    queue.pop(0)
    if action["type"] == "stay":
        take_moon_tile(state, seat, action["tile"])
        queue.append({"k": "end_turn", "seat": seat})
        return
    to = action["to"]
    here = player["prince"]
    if here is not None and to not in data.ADJACENT[here]:
        pay(state, seat, data.MOVE_ANYWHERE_COST)
        log(state, phrase("{player} pays 1 llama and goes to {district}",
                          player=name(state, seat), district=district(to)))
    else:
        log(state, phrase("{player} goes to {district}", player=name(state, seat),
                          district=district(to)))
    player["prince"] = to
    enter_district(state, seat, to)
    queue.append({"k": "end_turn", "seat": seat})


def _do_place(state, frame, seat, action):
    if action["type"] == "done":
        state["queue"].pop(0)
        return
    d = action["district"]
    pay(state, seat, data.PLACEMENT[frame["district"]][d])
    state["players"][seat]["supply"] -= 1
    state["incas"][d][seat] += 1
    frame["placed"].append(d)
    log(state, phrase("{player} places an Inca on {district}", player=name(state, seat),
                      district=district(d)))


def _do_house(state, frame, seat, action):
    state["queue"].pop(0)
    if action["type"] == "done":
        return
    kind = action["priest"]
    pay(state, seat, data.PRIESTS[kind]["cost"])
    state["priests_left"][kind] -= 1
    state["players"][seat]["priests"][kind] += 1
    log(state, phrase("{player} takes a {priest}", player=name(state, seat),
                      priest=term(data.PRIESTS[kind]["name"])))


def _do_plaza(state, frame, seat, action):
    t = action["type"]
    if t == "done":
        state["queue"].pop(0)
        return
    if t == "trade":
        _do_trade(state, seat, action)
        return
    g = action["good"]
    market, bank = state["market"], state["bank"]
    goods = state["players"][seat]["goods"]
    if t == "market_add":
        bank[g] -= 1
        market[g] += 1
        frame["adjusted"] = True
    elif t == "market_remove":
        bank[g] += 1
        market[g] -= 1
        frame["adjusted"] = True
    elif t == "buy":
        plaza.buy_one(market, bank, goods, g, market_buy_price(state, g))
        frame["traded"] = True
    else:  # sell
        plaza.sell_one(market, bank, goods, g, market_sell_price(state, g))
        frame["traded"] = True
    log(state, phrase(MARKET_LOG[t], player=name(state, seat), good=icon(g)))


def _do_trade(state, seat, action):
    """The whole exchange at once (``plaza``), and the visit ends with it."""
    done = plaza.carried_out(state, seat, action)
    state["market"], state["bank"] = done["market"], done["bank"]
    state["players"][seat]["goods"] = done["goods"]
    state["queue"].pop(0)
    log(state, phrase("{player} trades at the market: {trade}", player=name(state, seat),
                      trade=trade_steps(action, done)))


def trade_steps(action: dict, done: dict) -> list[Phrase]:
    """A trade in words, step by step in the order it is carried out."""
    out = []
    if "add" in action:
        out.append(phrase("Add 1 {good} from the bank to the market", good=icon(action["add"])))
    if "remove" in action:
        out.append(phrase("Remove 1 {good} from the market to the bank",
                          good=icon(action["remove"])))
    out.extend(phrase("Sell {goods} for {price} corn", goods=good_count(g, n),
                      price=done["sold"][g]) for g, n in action["sell"].items())
    out.extend(phrase("Buy {goods} for {price} corn", goods=good_count(g, n),
                      price=done["bought"][g]) for g, n in action["buy"].items())
    return out


def _do_clock(state, frame, seat, action):
    queue = state["queue"]
    queue.pop(0)
    if action["type"] == "done":
        return
    d = action["from"]
    state["incas"][d][seat] -= 1
    state["sun_clock"][seat] += 1
    log(state, phrase("{player} sends an Inca from {district} to the Sun Clock",
                      player=name(state, seat), district=district(d)))
    if state["day"] == data.LAST_DAY:   # en: day 9, Sun Clock paid at once
        queue.insert(0, {"k": "clock_goods", "seat": seat, "count": 1})


def _do_clock_goods(state, frame, seat, action):
    for kind in action["goods"]:
        give_kind(state, seat, kind)
    frame["count"] -= 1
    if frame["count"] == 0:
        state["queue"].pop(0)
    log(state, phrase("{player} takes {goods} for a Sun Clock Inca", player=name(state, seat),
                      goods=goods_list(action["goods"])))
    advance(state, seat, data.SUN_CLOCK_STEPS)


def _do_produce(state, frame, seat, action):
    produce(state, frame, seat, action["count"])


def produce(state, frame, seat, count):
    good = data.PRODUCTION[frame["district"]]
    goods, bank = state["players"][seat]["goods"], state["bank"]
    goods["corn"] -= count
    bank["corn"] += count
    bank[good] -= count
    goods[good] += count
    frame["seats"].remove(seat)
    if count:
        log(state, phrase("{player} produces {goods}", player=name(state, seat),
                          goods=good_count(good, count)))


def _do_sacrifice(state, frame, seat, action):
    if action["type"] == "done":
        finish_sacrifice(state, frame)
        return
    sacrifice_one(state, frame, seat, action["good"])


def sacrifice_one(state, frame, seat, kind):
    if kind == "corn":
        pay(state, seat, {"corn": data.CORN_PER_GOOD})
    else:
        pay(state, seat, {kind: 1})
    frame["given"].append(kind)
    if frame["temple"] == "main_temple":
        frame["steps"] += data.MAIN_TEMPLE_STEPS
    else:
        frame["steps"] += llama_steps(state, data.TEMPLE_CARD[frame["temple"]])


def finish_sacrifice(state, frame):
    seat = frame["order"].pop(0)
    steps, given = frame["steps"], frame["given"]
    if given:
        log(state, counted("{player} sacrifices {goods}: {n} step",
                           "{player} sacrifices {goods}: {n} steps", steps,
                           player=name(state, seat), goods=goods_list(given)))
    frame["steps"], frame["given"] = 0, []
    if not frame["order"]:
        state["queue"].remove(frame)
    advance(state, seat, steps)


def _do_summit(state, frame, seat, action):
    card = action["card"]
    state["players"][seat]["cards"].remove(card)
    state["deck"].append(card)          # returned cards go to the bottom
    frame["to_return"] -= 1
    if frame["to_return"] == 0:
        frame["to_return"] = None
        frame["count"] -= 1
        log(state, phrase("{player} returns cards at the summit", player=name(state, seat)))


_DO = {
    "free_inca": _do_free_inca, "move": _do_move, "place": _do_place, "house": _do_house,
    "plaza": _do_plaza, "clock": _do_clock, "clock_goods": _do_clock_goods,
    "produce": _do_produce, "sacrifice": _do_sacrifice, "summit": _do_summit,
}


# --- the turn ------------------------------------------------------------------------------
def start_turn(state: dict, seat: int) -> None:
    state["turn"] += 1
    state["cur"] = seat
    state["queue"].append({"k": "move", "seat": seat})


def take_moon_tile(state: dict, seat: int, tile: str) -> None:
    """Stay and take a Moon Tile; the 3rd of the day ends the day (en: The end of the day)."""
    player = state["players"][seat]
    state["moon_left"].remove(tile)
    player["moon"].append(tile)
    state["moon_taken"] += 1
    log(state, phrase("{player} stays and takes the {tile} Moon Tile", player=name(state, seat),
                      tile=term(data.MOON_TILE_NAMES[tile])))
    if state["day"] == data.LAST_DAY:    # en: day 9, Moon Tile paid at once, kept
        pay_moon_tiles(state, seat, [tile])
    if state["moon_taken"] == data.MOON_TILES_PER_DAY and state["day_end"] is None:
        state["start"] = seat            # the Sun Tile: first player of the next day
        state["day_end"] = {"taker": seat, "remaining": seats_from(state, seat)[1:]}
        log(state, phrase("{player} takes the Sun Tile: everyone else has one last turn",
                          player=name(state, seat)))


def pay_moon_tiles(state: dict, seat: int, tiles: list[str]) -> None:
    """corn3 first, so its corn can pay for the goods tiles (dec: Moon Tiles)."""
    steps = 0
    for tile in sorted(tiles, key=lambda t: "corn" not in data.MOON_TILES[t]):
        spec = data.MOON_TILES[tile]
        if "corn" in spec:
            give(state, seat, "corn", spec["corn"])
        elif "steps" in spec:
            steps += spec["steps"]
        else:
            good = spec["good"]
            if state["players"][seat]["goods"]["corn"] >= spec["price"] and state["bank"][good]:
                pay(state, seat, {"corn": spec["price"]})
                give(state, seat, good, 1)
    advance(state, seat, steps)


def enter_district(state: dict, seat: int, d: str) -> None:
    queue = state["queue"]
    if d in data.PRODUCTION or d in data.TEMPLES:
        if d in state["used_today"]:
            return                       # later entries that day trigger nothing
        state["used_today"].append(d)
        units = state["bonus"][d]
        state["bonus"][d] = 0
        if d in data.TEMPLES:
            log(state, counted("{player} takes {n} temple stone", "{player} takes {n} temple stones",
                               units, player=name(state, seat)))
            advance(state, seat, units * data.STEPS_PER_STONE)
            queue.append({"k": "sacrifice", "temple": d, "order": seats_from(state, seat),
                          "given": [], "steps": 0})
            return
        good = data.PRODUCTION[d]
        per_unit = data.CORN_TERRACE_UNIT if good == "corn" else 1
        state["players"][seat]["goods"][good] += units * per_unit   # bonus is off the bank
        if good == "corn":
            for s in seats_from(state, seat):
                k = state["incas"][d][s]
                if k:
                    give(state, s, "corn", k * data.CORN_TERRACE_UNIT)
        else:
            queue.append({"k": "produce", "district": d,
                          "seats": [s for s in seats_from(state, seat) if state["incas"][d][s]]})
    elif d in data.PLACEMENT:
        queue.append({"k": "place", "seat": seat, "district": d, "placed": []})
    elif d in data.HOUSE_OFFERS:
        queue.append({"k": "house", "seat": seat, "district": d})
    elif d == "central_plaza":
        queue.append({"k": "plaza", "seat": seat, "adjusted": False, "traded": False})
    elif d == "sun_clock":
        queue.append({"k": "clock", "seat": seat})


def rescue_reason(state: dict) -> str | None:
    if not any(state["priests_left"].values()):
        return "rescue_priests"
    if not state["deck"]:
        return "rescue_deck"
    return None


def game_over(state: dict, reason: str) -> None:
    state["over"] = {"reason": reason}
    state["queue"] = []
    state["epoch"] += 1                  # every hand is shown at the end
    log(state, {
        "rescue_priests": phrase("All 15 Priests and Virgins are taken: Machu Picchu is saved"),
        "rescue_deck": phrase("The Sacrifice Cards are exhausted: Machu Picchu is saved"),
        "conquest": phrase("Day 9 is over: the Spanish conquer Machu Picchu")}[reason])


def end_turn(state: dict, frame: dict) -> None:
    state["queue"].pop(0)
    pay_dues(state)
    reason = rescue_reason(state)
    if reason:
        game_over(state, reason)
        return
    day_end = state["day_end"]
    if day_end is None:
        start_turn(state, (frame["seat"] + 1) % state["n"])
    elif day_end["remaining"]:
        start_turn(state, day_end["remaining"].pop(0))
    else:
        if state["track_corn"] > 0:      # the last player of the day takes the day's corn
            state["track_corn"] -= 1
            state["players"][frame["seat"]]["goods"]["corn"] += data.TRACK_CORN_PER_DAY
        if state["day"] >= data.LAST_DAY:
            game_over(state, "conquest")
            return
        start_night(state)


def start_night(state: dict) -> None:
    state["day_end"] = None
    state["night"] = True
    log(state, phrase("Night after day {day}", day=state["day"]))
    queue = state["queue"]
    order = seats_from(state, state["start"])
    for s in order:
        if state["players"][s]["moon"]:
            queue.append({"k": "moon_night", "seat": s})
    for s in order:
        k = state["sun_clock"][s]
        if k:
            state["sun_clock"][s] = 0
            state["players"][s]["supply"] += k
            queue.append({"k": "clock_goods", "seat": s, "count": k})
    queue.append({"k": "night_end"})


def moon_night(state: dict, frame: dict) -> None:
    state["queue"].pop(0)
    player = state["players"][frame["seat"]]
    tiles, player["moon"] = player["moon"], []
    pay_moon_tiles(state, frame["seat"], tiles)


def night_end(state: dict, frame: dict) -> None:
    state["queue"].pop(0)
    state["night"] = False
    pay_dues(state)
    if not state["deck"]:
        game_over(state, "rescue_deck")
        return
    bonus, bank = state["bonus"], state["bank"]
    for d, good in data.PRODUCTION.items():      # 9 x bonus, at most 2 units each
        unit = data.CORN_TERRACE_UNIT if good == "corn" else 1
        if bonus[d] < data.BONUS_CAP and bank[good] >= unit:
            bank[good] -= unit
            bonus[d] += 1
    for t in data.TEMPLES:
        if bonus[t] < data.BONUS_CAP:
            bonus[t] += 1
    state["moon_left"] = list(data.MOON_TILE_ORDER)
    state["moon_taken"] = 0
    state["used_today"] = []
    state["day"] += 1
    log(state, phrase("Day {day} begins", day=state["day"]))
    start_turn(state, state["start"])


# --- resolving frames that need nobody ------------------------------------------------------
def settle(state: dict, mover: int) -> None:
    """Resolve the frames that need nobody after ``mover``'s move (see the module's docstring)."""
    queue = state["queue"]
    while queue and not state["over"]:
        frame = queue[0]
        k = frame["k"]
        if k == "end_turn":
            end_turn(state, frame)
        elif k == "night_end":
            night_end(state, frame)
        elif k == "moon_night":
            moon_night(state, frame)
        elif k == "summit":
            if frame["count"] == 0:
                queue.pop(0)
                if not queue:
                    return
            elif frame["to_return"] is None:
                draw_at_summit(state, frame)
            else:
                return
        elif k == "produce":
            if not _settle_produce(state, frame, mover):
                return
        elif k == "sacrifice":
            if not _settle_sacrifice(state, frame, mover):
                return
        elif k == "clock_goods":
            return
        elif k in ("place", "house", "plaza", "clock"):
            if options(state, frame, frame["seat"]):
                return
            queue.pop(0)                 # nothing possible here: the visit ends by itself
        else:
            return


def order_of(state: dict, frame: dict, seat: int) -> str:
    """The seat's standing order for the decision ``frame`` asks (production or sacrifice)."""
    orders = state["players"][seat]["orders"]
    if frame["k"] == "produce":
        return orders["produce"]
    return orders["main_temple" if frame["temple"] == "main_temple" else "temple_sacrifice"]


def ordered_sacrifice(state: dict, frame: dict, seat: int, order: str) -> str | None:
    """The next good ``order`` ("all", "goods_only", "none") sacrifices, or None: done."""
    if order == "none":
        return None
    kinds = [o["good"] for o in _opt_sacrifice(state, frame, seat)
             if not (order == "goods_only" and o["good"] == "corn")]
    return kinds[0] if kinds else None


def answered_by_order(state: dict, seat: int, mover: int) -> None:
    """A standing order answered for ``seat``: what it had set in secret shows in the result
    of ``mover``'s move, so unless it is the seat's own move the epoch rises (the mover must
    not take back a move that showed it another seat's answer)."""
    if seat != mover:
        state["epoch"] += 1


def _settle_produce(state: dict, frame: dict, mover: int) -> bool:
    """Drop seats that cannot produce, answer standing orders; True if the frame is done."""
    d = frame["district"]
    for s in list(frame["seats"]):
        most = max_produce(state, s, d)
        order = order_of(state, frame, s)
        if most == 0:
            frame["seats"].remove(s)
        elif order == "never":
            frame["seats"].remove(s)
            answered_by_order(state, s, mover)
        elif order == "always":
            produce(state, frame, s, most)
            answered_by_order(state, s, mover)
    if frame["seats"]:
        return False
    state["queue"].remove(frame)
    return True


def _settle_sacrifice(state: dict, frame: dict, mover: int) -> bool:
    """Skip seats with nothing to sacrifice, answer standing orders (True: progress made)."""
    seat = frame["order"][0]
    if not _opt_sacrifice(state, frame, seat):
        finish_sacrifice(state, frame)
        return True
    order = order_of(state, frame, seat)
    if order == "ask" or frame["given"]:
        return False
    answered_by_order(state, seat, mover)
    kind = ordered_sacrifice(state, frame, seat, order)
    while kind is not None:
        sacrifice_one(state, frame, seat, kind)
        kind = ordered_sacrifice(state, frame, seat, order)
    finish_sacrifice(state, frame)
    return True
