"""Controlled states for the Inca Empire tests: set up a game, then put the table, hands and
pools the test needs (the engine's own functions do all the rule work)."""
from __future__ import annotations

from unittest import mock

from engine.core import without_label
from engine.games.inca_empire import GAME, board, era, rules
from engine.games.inca_empire.data import CARDS, ERA_CARDS

TOKENS = 70


def new(n: int, seed: int = 1) -> dict:
    """A new game in which the lot of Setup 1 chose seat 0 as first player (the tests read
    seat 0 as the player who begins)."""
    with mock.patch.object(rules, "first_player", lambda seed, players, version: 0):
        return GAME.setup([f"P{i}" for i in range(n)], seed, {})


def in_actions(n: int, seed: int = 1, hands=None, active=None) -> dict:
    """A game in Era I's action phase, seat 0 to act, with the given hands / Active Pools.

    Cards given to a hand are taken out of wherever they were (deck, other hands)."""
    state = new(n, seed)
    state["draft"] = None
    if hands is not None:
        for seat, hand in enumerate(hands):
            if hand is None:
                continue
            for cid in hand:
                take_out(state, cid)
            state["hands"][seat] = sorted(hand)
    if active is not None:
        for seat, count in enumerate(active):
            give_active(state, seat, count)
    era.begin_actions(state)
    return state


def take_out(state: dict, cid: str) -> None:
    for deck in state["decks"].values():
        if cid in deck:
            deck.remove(cid)
    for hand in state["hands"]:
        if cid in hand:
            hand.remove(cid)


def give_active(state: dict, seat: int, count: int) -> None:
    """Set the Active Pool to ``count``, moving the difference from/to the Supply."""
    diff = count - state["active"][seat]
    state["supply"][seat] -= diff
    state["active"][seat] = count


def put(state: dict, cid: str, col: int, row: int, owner=None, road_from: str | None = None,
        road_owner=None) -> str:
    """Lay a card on the table (and optionally its road), paying from the Active Pool."""
    k = board.key(col, row)
    take_out(state, cid)
    state["table"][k] = era.location(cid, owner)
    if owner is not None:
        state["active"][owner] -= CARDS[cid]["fame"]
    if road_from is not None:
        who = owner if road_owner is None else road_owner
        numbers = board.road_numbers(state["table"][road_from]["card"], road_from, cid, k)
        assert numbers is not None, (cid, k, road_from)
        state["roads"].append({"a": road_from, "b": k, "owner": who, "cost": sum(numbers)})
        state["active"][who] -= sum(numbers)
    return k


def tokens_of(state: dict, seat: int) -> int:
    """Supply + Active + table + cards: always 70 (tokens are never created or lost)."""
    table = sum(r["cost"] for r in state["roads"] if r["owner"] == seat)
    for here in state["table"].values():
        if here["owner"] == seat:
            table += here["fame"]
        if here["temple"] and here["temple"]["owner"] == seat:
            table += here["temple"]["tokens"]
        table += sum(h.count(seat) for h in here["huts"])
    cards = sum(t["tokens"] for t in state["trades"] if t and t["owner"] == seat)
    pending = state["pending"]
    if pending and pending["seat"] == seat:
        cards += pending["token"]
    return state["supply"][seat] + state["active"][seat] + table + cards


def act(state: dict, seat: int, **action) -> dict:
    GAME.apply_in_place(state, seat, action)
    return state


def legal_types(state: dict, seat: int) -> set[str]:
    return {a["type"] for a in GAME.legal_actions(state, seat)}


def legal_of(state: dict, seat: int, type_: str) -> list[dict]:
    return [without_label(a) for a in GAME.legal_actions(state, seat) if a["type"] == type_]


def cards_where(**want) -> list[str]:
    return [c["id"] for c in ERA_CARDS if all(c.get(k) == v for k, v in want.items())]
