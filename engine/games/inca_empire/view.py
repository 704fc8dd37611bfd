"""What a seat may see.  Hands, Goals, face-down Terraces and the draft's face-down choices
are secret until the game ends; everything on the table is public data a page can draw."""
from __future__ import annotations

from functools import lru_cache

from . import board, rules
from .cards import CARDS
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


def view(state: dict, seat: int | None, decision_key: str | None) -> dict:
    n = len(state["players"])
    over = state["phase"] == rules.OVER
    me = seat if type(seat) is int and 0 <= seat < n else None
    out = {
        "game": "inca_empire", "era": state["era"], "phase": state["phase"],
        "epoch": state["epoch"], "first_player": state["first"],
        "turn": state["turn"] if state["phase"] == rules.ACTIONS else None,
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
    if state["phase"] == rules.SHOW:
        out["draft"] = {"chosen_counts": [len(x) for x in draft["shown"]],
                        "needed": [rules.draft_need(state, s) for s in range(n)]}
        if me is not None:
            out["draft"]["your_choice"] = list(draft["shown"][me])
    elif state["phase"] == rules.PICK:
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
                      "terraces": list(state["terraces"][me]), "decision": decision_key}
    if over:
        out["hands"] = [list(h) for h in state["hands"]]
        out["goals"] = [list(g) for g in state["goals"]]
        out["terraces"] = [list(t) for t in state["terraces"]]
        out["final"] = state["final"]
        out["outcome"] = _outcome(state)
    return out
