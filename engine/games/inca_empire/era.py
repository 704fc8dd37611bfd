"""The flow of an Era: activate, deal, the draft, the action phase's turns, Trade Agreements
cashed in, the Gold Nugget passed; and the end of the game after Era IV.

Setup and the protocol's entry points (who acts, what is legal, applying a move) are in
``rules``; the action phase itself (what a card may do) in ``actions``; the table geometry in
``board``; final scoring in ``scoring``.  Section names in docstrings are the rulebook's."""
from __future__ import annotations

from engine.text import labelled, phrase, term

from .data import CARDS
from .scoring import final_scores

SHOW, PICK, ACTIONS, CASH, OVER = "draft_show", "draft_pick", "actions", "terminate", "over"
ERAS = 4
BASE_ACTIVATION = 6


def location(card_id: str, owner: int | None) -> dict:
    card = CARDS[card_id]
    return {"card": card_id, "owner": owner, "fame": card["fame"] if owner is not None else 0,
            "temple": None, "huts": [[] for _ in card["huts"]], "restricted": False}


def hand_size(n: int, era: int) -> int:
    """Deal Cards: 6 cards with 2-3 players, 5 with 4-5; one less in Era I."""
    return (6 if n <= 3 else 5) - (1 if era == 1 else 0)


def start_era(state: dict) -> None:
    """Steps 1-3 of an Era: activate tokens, deal, open the draft."""
    n = len(state["players"])
    for seat in range(n):
        want = BASE_ACTIVATION + len(state["terraces"][seat]) // 2
        move_supply_to_active(state, seat, want)
    for _ in range(hand_size(n, state["era"])):
        for k in range(n):
            draw(state, (state["first"] + k) % n, 1)
    state["epoch"] += 1
    state["draft"] = {"shown": [[] for _ in range(n)], "pool": [], "order": [], "index": 0}
    state["phase"] = SHOW
    if not any(draft_need(state, s) for s in range(n)):
        begin_actions(state)


def move_supply_to_active(state: dict, seat: int, count: int) -> int:
    moved = min(count, state["supply"][seat])
    state["supply"][seat] -= moved
    state["active"][seat] += moved
    return moved


def draw(state: dict, seat: int, count: int) -> int:
    """Draw from the current Era deck (an empty deck simply gives nothing)."""
    deck = state["decks"][str(min(state["era"], ERAS))]
    drawn = 0
    for _ in range(count):
        if deck:
            state["hands"][seat].append(deck.pop())
            drawn += 1
    if drawn:
        state["hands"][seat].sort()
    return drawn


# --- the draft -------------------------------------------------------------------------------

def draftable(state: dict, seat: int) -> list[str]:
    """Only Era cards are drafted (the Start card stays in hand)."""
    return [c for c in state["hands"][seat] if CARDS[c]["type"] != "start"]


def draft_need(state: dict, seat: int) -> int:
    return min(2, len(draftable(state, seat)))


def show_options(state: dict, seat: int) -> list[dict]:
    shown = state["draft"]["shown"][seat]
    if len(shown) >= draft_need(state, seat):
        return []
    return [show_action(c, len(shown)) for c in draftable(state, seat) if c not in shown]


def show_option(state: dict, seat: int, card) -> dict | None:
    """The ``show_options`` entry for ``card``, or ``None`` if it is not listed (checked
    directly, without listing them all)."""
    shown = state["draft"]["shown"][seat]
    if (isinstance(card, str) and card in state["hands"][seat] and CARDS[card]["type"] != "start"
            and card not in shown and len(shown) < draft_need(state, seat)):
        return show_action(card, len(shown))
    return None


def show_action(card: str, already: int) -> dict:
    return labelled({"type": "show", "card": card},
                    phrase("Show {card} ({id}) for the draft ({n} of 2)",
                           card=term(CARDS[card]["name"]), id=card, n=already + 1))


def apply_show(state: dict, seat: int, card: str) -> None:
    """Draft: each player secretly picks two cards; all are revealed at once."""
    state["draft"]["shown"][seat].append(card)
    n = len(state["players"])
    if all(len(state["draft"]["shown"][s]) >= draft_need(state, s) for s in range(n)):
        reveal(state)


def reveal(state: dict) -> None:
    n = len(state["players"])
    draft = state["draft"]
    order = [(state["first"] + k) % n for k in range(n)]
    for seat in order:
        for card in draft["shown"][seat]:
            state["hands"][seat].remove(card)
            draft["pool"].append({"card": card, "from": seat})
    # In player order one card each, then in reverse order a second card.
    draft["order"] = (order + order[::-1])[:len(draft["pool"])]
    draft["index"] = 0
    state["epoch"] += 1
    state["phase"] = PICK
    if not draft["pool"]:
        begin_actions(state)


def pick_options(state: dict, seat: int) -> list[dict]:
    return [take_action(state, p) for p in state["draft"]["pool"]]


def pick_option(state: dict, seat: int, card) -> dict | None:
    """The ``pick_options`` entry for ``card``, or ``None`` if it is not listed."""
    for p in state["draft"]["pool"]:
        if p["card"] == card:
            return take_action(state, p)
    return None


def take_action(state: dict, p: dict) -> dict:
    return labelled({"type": "take", "card": p["card"]},
                    phrase("Take {card} ({id}), shown by {player}",
                           card=term(CARDS[p["card"]]["name"]), id=p["card"],
                           player=state["players"][p["from"]]))


def apply_take(state: dict, seat: int, card: str) -> None:
    draft = state["draft"]
    draft["pool"] = [p for p in draft["pool"] if p["card"] != card]
    state["hands"][seat].append(card)
    state["hands"][seat].sort()
    draft["index"] += 1
    if not draft["pool"]:
        begin_actions(state)


# --- the action phase and the end of an Era ----------------------------------------------

def begin_actions(state: dict) -> None:
    n = len(state["players"])
    state["phase"] = ACTIONS
    state["turn"] = state["first"]
    state["passed"] = [False] * n
    state["acted"] = [0] * n
    state["pending"] = None


def advance_turn(state: dict) -> None:
    """Turns go to the left (seat + 1), skipping players who passed; all passed ends it."""
    n = len(state["players"])
    for k in range(1, n + 1):
        seat = (state["turn"] + k) % n
        if not state["passed"][seat]:
            state["turn"] = seat
            return
    begin_cash(state)


def begin_cash(state: dict) -> None:
    """Terminate Trade Agreements: starting with the First Player, in turn order."""
    n = len(state["players"])
    first = state["first"]
    queue = [i for i, t in enumerate(state["trades"]) if t]
    queue.sort(key=lambda i: ((state["trades"][i]["owner"] - first) % n, (i - first) % n))
    state["phase"] = CASH
    state["cash"] = {"queue": queue, "seat": None, "card": None}
    next_cash(state)


def next_cash(state: dict) -> None:
    """Cash in one agreement: token to Active Pool, discard, draw, then a free action."""
    cash = state["cash"]
    state["pending"] = None
    if not cash["queue"]:
        end_era(state)
        return
    space = cash["queue"].pop(0)
    trade = state["trades"][space]
    state["trades"][space] = None
    owner = trade["owner"]
    state["active"][owner] += trade["tokens"]
    state["discard"].append(trade["card"])
    if draw(state, owner, 1):
        state["epoch"] += 1
    cash["seat"] = owner
    cash["card"] = trade["card"]


def end_era(state: dict) -> None:
    """Pass the Gold Nugget (first player marker) to the left; after Era IV the game ends."""
    n = len(state["players"])
    state["cash"] = None
    state["first"] = (state["first"] + 1) % n
    if state["era"] >= ERAS:
        state["phase"] = OVER
        state["draft"] = None
        state["final"] = final_scores(state)
        state["epoch"] += 1  # hands and goals become public
        return
    state["era"] += 1
    start_era(state)
