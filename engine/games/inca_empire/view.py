"""What a seat may see.  Hands, Goals, face-down Terraces and the draft's face-down choices
are secret until the game ends; everything on the table is public data a page can draw."""
from __future__ import annotations

from functools import lru_cache

from . import board, era, rules
from .data import CARDS, goal_deck
from .scoring import outcome as _outcome


def table_view(state: dict) -> list[dict]:
    """The table north to south, west to east (every page draws it, once per seat)."""
    out = []
    for k in sorted(state["table"], key=board.reading_order):
        here = state["table"][k]
        name, kind, region, col, row, temple_cost, goods = placed(here["card"], k)
        out.append({
            "card": here["card"], "name": name, "type": kind, "region": region, "column": col,
            "row": row, "owner": here["owner"], "fame_tokens": here["fame"],
            "temple": here["temple"], "temple_cost": temple_cost,
            "restricted": here["restricted"],
            "huts": [{"good": good, "tokens": list(tokens)}
                     for good, tokens in zip(goods, here["huts"])],
        })
    return out


@lru_cache(maxsize=board.MEMO)
def placed(card_id: str, k: str) -> tuple:
    """What a view says of ``card_id`` at ``k`` that no move changes (remembered: a late
    table has dozens of cards and every seat's view lists them all)."""
    col, row = board.pos(k)
    card = CARDS[card_id]
    return (card["name"], card["type"], board.region_of(card_id, min(col, 2)), col, row,
            card["temple"], tuple(card["huts"]))


def view(state: dict, seat: int | None) -> dict:
    n = len(state["players"])
    over = state["phase"] == era.OVER
    me = seat if type(seat) is int and 0 <= seat < n else None
    out = {
        "game": "inca_empire", "era": state["era"], "phase": state["phase"],
        "epoch": state["epoch"], "first_player": state["first"],
        "turn": state["turn"] if state["phase"] == era.ACTIONS else None,
        "to_act": rules.to_act(state),
        "players": [{
            "seat": s, "name": state["players"][s], "supply": state["supply"][s],
            "active": state["active"][s], "hand_count": len(state["hands"][s]),
            "goal_count": len(state["goals"][s]), "terrace_count": len(state["terraces"][s]),
            "passed": state["passed"][s], "actions_taken": state["acted"][s],
        } for s in range(n)],
        "table": table_view(state),
        "roads": [{"a": list(board.pos(r["a"])), "b": list(board.pos(r["b"])),
                   "owner": r["owner"], "cost": r["cost"]} for r in state["roads"]],
        "trade_agreements": [{"space": i, "between": [i, (i + 1) % n], "card": t["card"],
                              "owner": t["owner"], "tokens": t["tokens"]}
                             for i, t in enumerate(state["trades"]) if t],
        "route_restrictions_left": state["restrictions_left"],
        "deck_counts": {era: len(d) for era, d in state["decks"].items()},
        "discard": list(state["discard"]),
        "log": list(state["log"]),  # phrases (engine.text): the page shows each in its language
    }
    draft = state["draft"]
    if state["phase"] == era.SHOW:
        out["draft"] = {"chosen_counts": [len(x) for x in draft["shown"]],
                        "needed": [era.draft_need(state, s) for s in range(n)]}
        if me is not None:
            out["draft"]["your_choice"] = list(draft["shown"][me])
    elif state["phase"] == era.PICK:
        out["draft"] = {"pool": [dict(p) for p in draft["pool"]], "order": list(draft["order"]),
                        "index": draft["index"]}
    pending = state["pending"]
    if pending is not None:
        public = {"seat": pending["seat"], "step": pending["step"]}
        if pending["step"] in ("restrict", "stock", "temple") or pending["seat"] == me:
            public["card"] = pending["card"]  # a Workforce card is played face up
        out["pending"] = public
    if state["cash"] is not None:
        out["cashing"] = {"seat": state["cash"]["seat"], "card": state["cash"]["card"]}
    if me is not None:
        out["you"] = {"seat": me, "hand": list(state["hands"][me]), "goals": list(state["goals"][me]),
                      "terraces": list(state["terraces"][me]),
                     "decision": decision_key(state, me)}
    if over:
        out["hands"] = [list(h) for h in state["hands"]]
        out["goals"] = [list(g) for g in state["goals"]]
        out["terraces"] = [list(t) for t in state["terraces"]]
        out["final"] = state["final"]
        out["outcome"] = _outcome(state)
    return out


def decision_key(state: dict, seat: int) -> str:
    """Draft choice: one decision per card still to show (other seats' choices never
    change it); everything else: the decision opened by the latest move."""
    phase = state["phase"]
    if phase == era.OVER:
        return "over"
    if seat not in rules.to_act(state):
        return ""
    if phase == era.SHOW:
        return f"e{state['era']}:show:{len(state['draft']['shown'][seat])}"
    return f"e{state['era']}:{phase}:m{state['moves']}"


def vary_hidden(state: dict, seat: int | None) -> None:
    """Nobody knows the order of the Era decks; a seat alone knows its hand, its Goals, its
    face-down Terraces and the cards it chose to show in the draft.  Changed here: the decks
    reversed; a seat's cards exchanged for cards of the current deck (Start cards stay, so the
    draft needs the same; a card being built stays), its first Goal for one nobody holds, its
    draft choice for other cards of its hand."""
    if state["phase"] == era.OVER:
        return  # every hand, Goal and Terrace is shown at the end
    if seat is None:
        for deck in state["decks"].values():
            deck.reverse()
        return
    deck = state["decks"][str(min(state["era"], era.ERAS))]
    pending = state["pending"]
    keep = {pending["card"]} if pending is not None else set()
    shown = state["draft"]["shown"][seat] if state["phase"] == era.SHOW else []
    for cards in (state["hands"][seat], state["terraces"][seat]):
        for i, card in enumerate(cards):
            if deck and card not in keep and card not in shown and CARDS[card]["type"] != "start":
                cards[i], deck[-1] = deck[-1], card
                deck.insert(0, deck.pop())  # the next exchange takes another card
    state["hands"][seat].sort()
    others = [c for c in era.draftable(state, seat) if c not in shown]
    for i in range(min(len(shown), len(others))):
        shown[i] = others[i]
    held = {g for goals in state["goals"] for g in goals}
    unused = sorted(set(goal_deck(state["rules_version"])) - held)
    if unused and state["goals"][seat]:
        state["goals"][seat][0] = unused[0]
        state["goals"][seat].sort()
