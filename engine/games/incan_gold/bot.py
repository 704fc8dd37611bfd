"""The timeout default and the bot policy for Incan Gold.

Default (a seat's time ran out): leave the temple -- it banks what the seat carries and can
never lose gems, so silence never costs a player their round.

Bot: compare, for one more card, the expected gain with the expected loss, using only public
knowledge (the *contents* of the deck are public -- all cards minus path minus removed hazards;
its order is not and is never read):
* p_bust = deadly cards in the deck (second copies of kinds showing) / cards in the deck;
* gain  = sum over treasures in the deck of value // (players inside) / cards in the deck;
* risk  = p_bust * (gems carried + own share of the path's gems + artifacts on the path);
leave when risk > gain, else stay."""
from __future__ import annotations

from . import data

LEAVE = {"type": "leave", "label": data.ACTIONS["leave"]["label"]}
STAY = {"type": "stay", "label": data.ACTIONS["stay"]["label"]}


def default_action(state: dict, seat: int) -> dict:
    return dict(LEAVE)


def bot_action(state: dict, seat: int) -> dict:
    deck = state["deck"]
    if not deck:
        return dict(LEAVE)
    inside = sum(1 for p in state["players"] if p["in_temple"]) or 1
    showing = {c["hazard"] for c in state["path"] if c["type"] == "hazard"}
    deadly = sum(1 for card in deck if data.CARDS[card].get("hazard") in showing)
    p_bust = deadly / len(deck)
    gain = sum(data.CARDS[c]["value"] // inside for c in deck
               if data.CARDS[c]["type"] == "treasure") / len(deck)
    path_gems = sum(c["gems_left"] for c in state["path"])
    artifacts = sum((c["value"] or 5) for c in state["path"] if c["type"] == "artifact")
    at_risk = state["players"][seat]["carrying"] + path_gems // inside + artifacts
    return dict(LEAVE) if p_bust * at_risk > gain else dict(STAY)
