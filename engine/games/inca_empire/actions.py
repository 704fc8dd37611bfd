"""Take Actions: build, Extra Workforce, Trade Agreement, Terrace, pass; and the free action
after cashing in a Trade Agreement.

Every multi-step choice is a short sequence of small actions (choose a card, then where), so
a mail can list each choice as a link.  While a step is open its data sits in
``state["pending"]`` (one token may sit on the played card: it counts as "on cards")."""
from __future__ import annotations

from collections.abc import Set

from engine.text import N_, counted, labelled, phrase, term

from . import board, era
from .data import CARDS, REGIONS

MIN_ACTIONS = 2  # "each player must perform two actions in an Era"


# --- Trade Agreement effects -------------------------------------------------------------

def parties(state: dict, space: int) -> tuple[int, int]:
    """Space ``i`` lies between seat ``i`` and its left neighbour ``i + 1``."""
    n = len(state["players"])
    return space, (space + 1) % n


def effects(state: dict, seat: int) -> dict:
    """What the Trade Agreements in play give ``seat`` for the rest of this Era."""
    out = {"huts2": False, "road_discount": 0, "terrace_bonus": 0, "partners": set()}
    for space, trade in enumerate(state["trades"]):
        if not trade:
            continue
        pair = parties(state, space)
        if seat not in pair:
            continue
        effect = CARDS[trade["card"]]["effect"]
        kind = effect["kind"]
        if kind == "huts2":
            out["huts2"] = True
        elif kind in ("road_discount", "terrace_bonus"):
            out[kind] += effect["n"]
        elif kind == "shared_roads":
            out["partners"].update(p for p in pair if p != seat)
    return out


def my_network(state: dict, seat: int, eff: dict | None = None) -> frozenset[str]:
    eff = eff if eff is not None else effects(state, seat)
    return board.network(state, {seat} | eff["partners"])


# --- labels ------------------------------------------------------------------------------
#
# Labels and log lines are phrases (engine.text): an English template plus its arguments, so a
# player reading Chinese or Japanese sees them in that language.  Card names, regions and goods
# are terms; player names and card ids stay as they are.  Rendered in English they are the
# labels the game always had (the audit log keeps them).

ROWS = {-1: N_("{n} north"), 1: N_("{n} south")}
KIND_OF_CARD = {"city": N_("{card} ({id}, {region} city)"),
                "colca": N_("{card} ({id}, {region} colca)"),
                "start": N_("{card} ({id}, {region} start)")}


def row_words(row: int) -> dict:
    """A row as players read it ("2 north", "Cusco's row"): the labels and the picture's row
    labels both say it so, so a button's spot can be found on the picture."""
    if row == 0:
        return term("Cusco's row")
    return phrase(ROWS[-1 if row < 0 else 1], n=abs(row))


def column_words(col: int) -> dict:
    """A column as players read it: its region (Machu Picchu's column has its name)."""
    return term(REGIONS[col] if col < len(REGIONS) else N_("Machu Picchu"))


def where(state: dict, k: str) -> dict:
    """A location as players read it: the card there (if any), its column and its row."""
    col, row = board.pos(k)
    region = column_words(col)
    rows = row_words(row)
    here = state["table"].get(k)
    if here:
        return phrase("{card} ({region} column, {rows})", card=term(CARDS[here["card"]]["name"]),
                      region=region, rows=rows)
    return phrase("({region} column, {rows})", region=region, rows=rows)


def card_label(cid: str) -> dict:
    card = CARDS[cid]
    if card["type"] in KIND_OF_CARD:
        return phrase(KIND_OF_CARD[card["type"]], card=term(card["name"]), id=cid,
                      region=term(card["region"]))
    return phrase("{card} ({id})", card=term(card["name"]), id=cid)


# --- what a seat may do ------------------------------------------------------------------
#
# Each enumerator (``legal`` and the ``*_options`` it calls) has a twin that checks one given
# action directly (``find`` and the ``*_option`` functions): it returns the listed action
# (with its label) whose fields equal the given ones, or ``None``.  Both share the rule code
# (``board``) and the action builders below; tests/engine/inca_empire/test_validation.py
# checks on random games that they accept exactly the same actions.  Change them together.

BUILDABLE = ("city", "colca", "start")


# The fixed choices are built anew each time (as ``dict(PASS)`` once copied a constant): the
# log keeps an action's phrase, so no two states may share one object.
def pass_action() -> dict:
    return labelled({"type": "pass"}, phrase("Pass (no more actions this Era)"))


def skip_action() -> dict:
    return labelled({"type": "skip"}, phrase("Take no action"))


def nothing_action() -> dict:
    return labelled({"type": "nothing"}, phrase("Do nothing more"))


DONE_TEXT = {"stock": N_("Stop stocking"), "temple": N_("Build no temple")}


def done_action(step: str) -> dict:
    return labelled({"type": "done"}, phrase(DONE_TEXT[step]))


def build_action(cid: str) -> dict:
    return labelled({"type": "build", "card": cid}, phrase("Build {card}", card=card_label(cid)))


def workforce_action(cid: str) -> dict:
    return labelled({"type": "workforce", "card": cid},
                    phrase("Play Extra Workforce {id}: {text}", id=cid,
                           text=term(CARDS[cid]["action"]["text"])))


def trade_action(state: dict, cid: str, space: int) -> dict:
    a, b = parties(state, space)
    return labelled({"type": "trade", "card": cid, "space": space},
                    phrase("Play Trade Agreement {id} between {a} and {b}: {text}", id=cid,
                           a=state["players"][a], b=state["players"][b],
                           text=term(CARDS[cid]["effect"]["text"])))


def terrace_action(cid: str) -> dict:
    return labelled({"type": "terrace", "card": cid},
                    phrase("Build a Terrace with {card} face down", card=card_label(cid)))


def main_actions(state: dict, seat: int, bonus: bool) -> list[dict]:
    """Card-playing actions open to ``seat`` now, then pass (or skip, after cashing in)."""
    eff = effects(state, seat)
    net = my_network(state, seat, eff)
    active = state["active"][seat]
    supply = state["supply"][seat]
    empty_spaces = [i for i, t in enumerate(state["trades"]) if not t]
    sites = board.build_sites(state, net)
    out = []
    for cid in state["hands"][seat]:
        kind = CARDS[cid]["type"]
        if kind in BUILDABLE and board.can_place(state, cid, net, eff["road_discount"], active,
                                                 sites):
            out.append(build_action(cid))
        if kind == "workforce" and supply >= 1:
            out.append(workforce_action(cid))
        if kind == "trade" and supply >= 1 and not bonus:
            for space in empty_spaces:
                out.append(trade_action(state, cid, space))
        if kind != "start" and supply >= 1:
            out.append(terrace_action(cid))
    if bonus:
        out.append(skip_action())
    elif state["acted"][seat] >= MIN_ACTIONS or not out:
        out.append(pass_action())
    return out


def main_action(state: dict, seat: int, bonus: bool, action: dict) -> dict | None:
    """The ``main_actions`` entry equal to ``action`` (labels aside), or ``None``."""
    kind = action.get("type")
    if kind == "skip":
        return skip_action() if bonus else None
    if kind == "pass":
        if bonus:
            return None
        if state["acted"][seat] >= MIN_ACTIONS or not any_card_action(state, seat, bonus):
            return pass_action()
        return None
    cid = action.get("card")
    if not isinstance(cid, str) or cid not in state["hands"][seat]:
        return None
    card_type = CARDS[cid]["type"]
    supply = state["supply"][seat]
    if kind == "build":
        if card_type in BUILDABLE:
            eff = effects(state, seat)
            if board.can_place(state, cid, my_network(state, seat, eff), eff["road_discount"],
                               state["active"][seat]):
                return build_action(cid)
    elif kind == "workforce":
        if card_type == "workforce" and supply >= 1:
            return workforce_action(cid)
    elif kind == "trade":
        if card_type == "trade" and supply >= 1 and not bonus:
            space = action.get("space")
            for i, t in enumerate(state["trades"]):
                if not t and i == space:
                    return trade_action(state, cid, i)
    elif kind == "terrace":
        if card_type != "start" and supply >= 1:
            return terrace_action(cid)
    return None


def any_card_action(state: dict, seat: int, bonus: bool) -> bool:
    """Whether ``main_actions`` lists any card-playing action (else pass is always open)."""
    hand = state["hands"][seat]
    if state["supply"][seat] >= 1 and any(CARDS[c]["type"] != "start" for c in hand):
        return True  # at least a Terrace
    builds = [c for c in hand if CARDS[c]["type"] in BUILDABLE]
    if not builds:
        return False
    eff = effects(state, seat)
    net = my_network(state, seat, eff)
    sites = board.build_sites(state, net)
    return any(board.can_place(state, c, net, eff["road_discount"], state["active"][seat], sites)
               for c in builds)


def stock_options(state: dict, seat: int, net: Set[str], eff: dict, used=None) -> list[dict]:
    """Storage huts on Colcas of the road system with room (two tokens under "huts2")."""
    if state["active"][seat] < 1:
        return []
    out = []
    for k in sorted(net, key=board.reading_order):
        for i in range(len(state["table"][k]["huts"])):
            if stock_allowed(state, eff, k, i, used):
                out.append(stock_action(state, k, i))
    return out


def stock_option(state: dict, seat: int, net: Set[str], eff: dict, used, at,
                 hut) -> dict | None:
    """The ``stock_options`` entry for ``(at, hut)``, or ``None`` if it is not listed."""
    if state["active"][seat] < 1 or not isinstance(at, str) or at not in net:
        return None
    for i in range(len(state["table"][at]["huts"])):
        if i == hut:
            return stock_action(state, at, i) if stock_allowed(state, eff, at, i, used) else None
    return None


def stock_allowed(state: dict, eff: dict, k: str, i: int, used) -> bool:
    """Room in hut ``i`` of ``k``; "Stock three storage huts" stocks at most three huts."""
    cap = 2 if eff["huts2"] else 1
    if len(state["table"][k]["huts"][i]) >= cap:
        return False
    return used is None or [k, i] in used or len(used) < 3


def stock_action(state: dict, k: str, i: int) -> dict:
    good = CARDS[state["table"][k]["card"]]["huts"][i]
    return labelled({"type": "stock", "at": k, "hut": i},
                    phrase("Stock the {good} hut of {where} (1 token)", good=term(good),
                           where=where(state, k)))


def temple_options(state: dict, seat: int, net: Set[str]) -> list[dict]:
    """A free gold square in a city of the road system, paid from the Active Pool."""
    out = []
    for k in sorted(net, key=board.reading_order):
        option = temple_option(state, seat, net, k)
        if option:
            out.append(option)
    return out


def temple_option(state: dict, seat: int, net: Set[str], k) -> dict | None:
    """The ``temple_options`` entry for ``k``, or ``None`` if it is not listed."""
    if not isinstance(k, str) or k not in net:
        return None
    here = state["table"][k]
    cost = CARDS[here["card"]]["temple"]
    if cost and here["temple"] is None and state["active"][seat] >= cost:
        return labelled({"type": "temple", "at": k},
                        counted("Build a temple in {where} ({n} token)",
                                "Build a temple in {where} ({n} tokens)", cost,
                                where=where(state, k)))
    return None


def place_action(state: dict, cid: str, at: str, via: str, tokens: int) -> dict:
    return labelled({"type": "place", "at": at, "via": via},
                    phrase("Place at {at}, road from {via}: {road} + {fame}",
                           at=where(state, at), via=where(state, via),
                           road=counted("{n} road token", "{n} road tokens", tokens),
                           fame=counted("{n} Fame token", "{n} Fame tokens", CARDS[cid]["fame"])))


def road_action(state: dict, a: str, b: str, tokens: int) -> dict:
    return labelled({"type": "road", "a": a, "b": b},
                    counted("Road between {a} and {b} ({n} token)",
                            "Road between {a} and {b} ({n} tokens)", tokens, a=where(state, a),
                            b=where(state, b)))


def restrict_action(state: dict, k: str) -> dict:
    return labelled({"type": "restrict", "at": k},
                    phrase("Route Restriction on {where}", where=where(state, k)))


def pending_actions(state: dict, seat: int) -> list[dict]:
    pending = state["pending"]
    eff = effects(state, seat)
    net = my_network(state, seat, eff)
    step = pending["step"]
    if step == "place":
        return [place_action(state, pending["card"], at, via, tokens)
                for at, via, tokens in board.placements(
                    state, pending["card"], net, eff["road_discount"], state["active"][seat])]
    if step == "terrace":
        roads = [road_action(state, a, b, t)
                 for a, b, t in board.road_options(state, seat, net, eff["road_discount"],
                                                   state["active"][seat])]
        return (roads + temple_options(state, seat, net) + stock_options(state, seat, net, eff)
                + [nothing_action()])
    if step == "restrict":
        return [restrict_action(state, k) for k in restrict_targets(state)]
    if step == "stock":
        return stock_options(state, seat, net, eff, pending["used"]) + [done_action("stock")]
    if step == "temple":
        return temple_options(state, seat, net) + [done_action("temple")]
    raise AssertionError(step)


def pending_action(state: dict, seat: int, action: dict) -> dict | None:
    """The ``pending_actions`` entry equal to ``action`` (labels aside), or ``None``."""
    pending = state["pending"]
    step = pending["step"]
    kind = action.get("type")
    if step == "restrict":
        k = action.get("at")
        if kind == "restrict" and isinstance(k, str) and is_restrict_target(state, k):
            return restrict_action(state, k)
        return None
    if kind == "done":
        return done_action(step) if step in DONE_TEXT else None
    if kind == "nothing":
        return nothing_action() if step == "terrace" else None
    if kind not in ("place", "road", "temple", "stock"):
        return None
    eff = effects(state, seat)
    net = my_network(state, seat, eff)
    active = state["active"][seat]
    if step == "place":
        if kind == "place":
            at, via = action.get("at"), action.get("via")
            tokens = board.placement(state, pending["card"], at, via, net, eff["road_discount"],
                                     active)
            if tokens is not None:
                return place_action(state, pending["card"], at, via, tokens)
        return None
    if kind == "road" and step == "terrace":
        a, b = action.get("a"), action.get("b")
        tokens = board.road_option(state, seat, a, b, net, eff["road_discount"], active)
        return road_action(state, a, b, tokens) if tokens is not None else None
    if kind == "temple" and step in ("terrace", "temple"):
        return temple_option(state, seat, net, action.get("at"))
    if kind == "stock" and step in ("terrace", "stock"):
        used = pending["used"] if step == "stock" else None
        return stock_option(state, seat, net, eff, used, action.get("at"), action.get("hut"))
    return None


def restrict_targets(state: dict) -> list[str]:
    """Any location but Cusco (a token there would stop every new Start city) that has none."""
    return [k for k in sorted(state["table"], key=board.reading_order)
            if is_restrict_target(state, k)]


def is_restrict_target(state: dict, k: str) -> bool:
    return (state["restrictions_left"] > 0 and k in state["table"] and k != board.CUSCO_KEY
            and not state["table"][k]["restricted"])


def legal(state: dict, seat: int) -> list[dict]:
    if state["pending"] is not None:
        return pending_actions(state, seat)
    return main_actions(state, seat, bonus=state["phase"] == era.CASH)


def find(state: dict, seat: int, action: dict) -> dict | None:
    """The ``legal`` entry equal to ``action`` (labels aside), found without listing them
    all (the replay hot path), or ``None``."""
    if state["pending"] is not None:
        return pending_action(state, seat, action)
    return main_action(state, seat, state["phase"] == era.CASH, action)


# --- doing it ----------------------------------------------------------------------------

def apply(state: dict, seat: int, action: dict) -> None:
    """``action`` is already known to be legal."""
    kind = action["type"]
    if kind in ("pass", "skip"):
        if kind == "pass":
            state["passed"][seat] = True
        finish(state)
        return
    if state["pending"] is None:
        start_card_action(state, seat, action)
    else:
        continue_pending(state, seat, action)


def start_card_action(state: dict, seat: int, action: dict) -> None:
    cid = action["card"]
    kind = action["type"]
    if state["phase"] == era.ACTIONS:
        state["acted"][seat] += 1
    if kind == "build":
        state["pending"] = {"seat": seat, "step": "place", "card": cid, "token": 0}
        return
    state["hands"][seat].remove(cid)
    if kind == "trade":
        # Rule text and Sample Play: the token comes from the Supply.
        state["supply"][seat] -= 1
        state["trades"][action["space"]] = {"card": cid, "owner": seat, "tokens": 1}
        finish(state)
        return
    # Extra Workforce or Terrace: a Supply token goes on the card, which ends face down.
    state["supply"][seat] -= 1
    state["terraces"][seat].append(cid)
    if kind == "terrace":
        state["pending"] = {"seat": seat, "step": "terrace", "card": cid, "token": 1}
        return
    workforce(state, seat, cid)


def workforce(state: dict, seat: int, cid: str) -> None:
    """Take the action on the Extra Workforce card (see ``data`` for the kinds)."""
    act = CARDS[cid]["action"]
    pending = {"seat": seat, "step": None, "card": cid, "token": 1}
    state["pending"] = pending
    eff = effects(state, seat)
    net = my_network(state, seat, eff)
    kind = act["kind"]
    if kind == "activate":
        era.move_supply_to_active(state, seat, act["n"])
    elif kind == "draw":
        if era.draw(state, seat, act["n"]):
            state["epoch"] += 1
    elif kind == "restrict" and restrict_targets(state):
        pending["step"] = "restrict"
    elif kind == "stock" and stock_options(state, seat, net, eff, []):
        pending["step"] = "stock"
        pending["used"] = []
    elif kind == "temple" and temple_options(state, seat, net):
        pending["step"] = "temple"
    if pending["step"] is None:
        complete_token_card(state, seat)


def continue_pending(state: dict, seat: int, action: dict) -> None:
    pending = state["pending"]
    kind = action["type"]
    if kind == "place":
        place(state, seat, pending["card"], action["at"], action["via"])
        finish(state)
        return
    if kind == "road":
        add_road(state, seat, action["a"], action["b"])
    elif kind == "temple":
        cost = CARDS[state["table"][action["at"]]["card"]]["temple"]
        state["active"][seat] -= cost
        state["table"][action["at"]]["temple"] = {"owner": seat, "tokens": cost}
    elif kind == "stock":
        state["active"][seat] -= 1
        state["table"][action["at"]]["huts"][action["hut"]].append(seat)
        if pending["step"] == "stock":
            if [action["at"], action["hut"]] not in pending["used"]:
                pending["used"].append([action["at"], action["hut"]])
            eff = effects(state, seat)
            if stock_options(state, seat, my_network(state, seat, eff), eff, pending["used"]):
                return  # "Stock three storage huts": keep going until done
    elif kind == "restrict":
        state["restrictions_left"] -= 1
        state["table"][action["at"]]["restricted"] = True
    complete_token_card(state, seat)


def complete_token_card(state: dict, seat: int) -> None:
    """The token on a Terrace / Workforce card moves to the Active Pool."""
    pending = state["pending"]
    state["active"][seat] += pending["token"]
    if pending["step"] == "terrace":  # the "terrace_bonus" agreement: Terrace action only
        bonus = effects(state, seat)["terrace_bonus"]
        if bonus:
            era.move_supply_to_active(state, seat, bonus)
    finish(state)


def place(state: dict, seat: int, cid: str, at: str, via: str) -> None:
    """Build: the card, its road (sum of the two numbers) and its fame tokens."""
    eff = effects(state, seat)
    numbers = board.road_numbers(state["table"][via]["card"], via, cid, at)
    tokens = board.road_cost(numbers, eff["road_discount"])
    state["hands"][seat].remove(cid)
    state["table"][at] = era.location(cid, seat)
    state["roads"].append({"a": via, "b": at, "owner": seat, "cost": tokens})
    state["active"][seat] -= tokens + CARDS[cid]["fame"]


def add_road(state: dict, seat: int, a: str, b: str) -> None:
    eff = effects(state, seat)
    numbers = board.road_numbers(state["table"][a]["card"], a, state["table"][b]["card"], b)
    tokens = board.road_cost(numbers, eff["road_discount"])
    state["roads"].append({"a": a, "b": b, "owner": seat, "cost": tokens})
    state["active"][seat] -= tokens


def finish(state: dict) -> None:
    state["pending"] = None
    if state["phase"] == era.CASH:
        era.next_cash(state)
    else:
        era.advance_turn(state)
