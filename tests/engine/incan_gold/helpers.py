"""Scenario builders for Incan Gold tests: put exact cards on the path and on top of the deck.

Rigging writes the state directly (tests only); everything after that goes through the public
protocol, so the behaviour under test is the engine's own."""
from __future__ import annotations

from engine import get_game
from engine.games.incan_gold import data

GAME = get_game("incan_gold")
STAY = {"type": "stay"}
LEAVE = {"type": "leave"}


def card(card_id: str, gems_left: int = 0) -> dict:
    return {"card": card_id, **data.CARDS[card_id], "gems_left": gems_left}


def staged(players: int = 4, seed: int = 1, options: dict | None = None,
           path: list = (), next_cards: list[str] = (), carrying: list[int] | None = None,
           inside: list[int] | None = None) -> dict:
    """A round-1 state whose path is ``path`` (ids or (id, gems_left)) and whose next draws are
    ``next_cards`` in order; the rest of the deck follows.  Everyone inside unless ``inside``."""
    state = GAME.setup([f"P{i}" for i in range(players)], seed, options or {})
    state["path"] = [card(*c) if isinstance(c, tuple) else card(c) for c in path]
    rest = list(data.QUEST_DECK) + list(state["artifacts_in_deck"])
    state["artifacts_in_deck"] = [c for c in state["artifacts_in_deck"]
                                  if c not in [p["card"] for p in state["path"]]]
    for used in [p["card"] for p in state["path"]] + list(next_cards):
        if used in rest:
            rest.remove(used)
    state["artifacts_in_deck"] += [c for c in next_cards
                                   if data.CARDS[c]["type"] == "artifact"
                                   and c not in state["artifacts_in_deck"]]
    rest.sort()
    state["deck"] = rest + list(reversed(next_cards))
    for seat, player in enumerate(state["players"]):
        player["carrying"] = carrying[seat] if carrying else 0
        player["in_temple"] = inside is None or seat in inside
    return state


def everyone(state: dict, choices: dict[int, str] | str) -> dict:
    """Every seat that must act chooses (a dict seat -> 'stay'/'leave', or one choice for all);
    the reveal happens with the last of them."""
    for seat in list(GAME.to_act(state)):
        choice = choices if isinstance(choices, str) else choices[seat]
        GAME.apply_in_place(state, seat, {"type": choice})
    return state


def find_seed(predicate, players: int = 4, options: dict | None = None, limit: int = 3000) -> dict:
    """The first seed whose fresh setup satisfies ``predicate`` (deterministic search)."""
    for seed in range(limit):
        state = GAME.setup([f"P{i}" for i in range(players)], seed, options or {})
        if predicate(state):
            return state
    raise AssertionError("no seed found")
