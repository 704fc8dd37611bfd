"""Setup and the protocol's entry points: who acts, what is legal, applying a move.

Which phase the game is in decides where a move goes: the draft (``era``) or the action
phase (``actions``).  A move is checked directly (``find``) rather than looked up in the list
of every legal action, which for a late action phase is hundreds of placements and roads."""
from __future__ import annotations

from engine.core import IllegalAction, canonical_json, find_legal, not_legal, rng, without_label
from engine.text import counted, phrase, term

from . import actions, board, era
from .data import CARDS, CUSCO, ERA_CARDS, MACHU_PICCHU, ROUTE_RESTRICTION_TOKENS, START_CARDS, \
    TOKENS_PER_PLAYER, goal_deck
from .era import ACTIONS, CASH, ERAS, OVER, PICK, SHOW, draft_need, location, start_era

OPTIONS: dict = {}  # the game has no options
GOALS_DEALT = 5
LOG_LENGTH = 30


def new_state(players: list[str], seed: int, options: dict, version: str) -> dict:
    """Setup steps 1-7: decks, supplies, Cusco, one Trade Agreement, Start cards, Goals."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise IllegalAction(phrase("options must be an object"))
    unknown = sorted(map(str, set(options) - set(OPTIONS)))
    if unknown:
        raise IllegalAction(counted("unknown option: {unknown}", "unknown options: {unknown}",
                                    len(unknown), unknown=", ".join(map(str, unknown))))
    n = len(players)
    decks = {}
    for number in range(1, ERAS + 1):
        deck = [c["id"] for c in ERA_CARDS if c["era"] == number]
        rng(seed, "deck", number).shuffle(deck)
        decks[str(number)] = deck
    # Setup 5: the Era I Trade Agreements are dealt one each, the rest shuffled back.
    trades = [c for c in decks["1"] if CARDS[c]["type"] == "trade"]
    rng(seed, "trade-deal").shuffle(trades)
    hands = [[trades.pop()] for _ in range(n)]
    decks["1"] = [c for c in decks["1"] if CARDS[c]["type"] != "trade"] + trades
    rng(seed, "deck", 1, "reshuffle").shuffle(decks["1"])
    # Setup 6: Start cards; Machu Picchu only with five players; extras beside Cusco.
    starts = [c["id"] for c in START_CARDS if n == 5 or c["id"] != MACHU_PICCHU]
    rng(seed, "start").shuffle(starts)
    for seat in range(n):
        hands[seat].append(starts.pop())
    table = {board.CUSCO_KEY: location(CUSCO["id"], None)}
    for extra in starts:
        table[board.key(*board.START_SPOTS[extra])] = location(extra, None)
    goals = list(goal_deck(version))
    rng(seed, "goals").shuffle(goals)
    state = {
        "game": "inca_empire", "rules_version": version, "seed": seed, "players": list(players),
        "epoch": 0, "moves": 0, "era": 1, "phase": SHOW, "first": first_player(seed, n, version),
        "decks": decks, "discard": [],
        "hands": [sorted(h) for h in hands],
        "goals": [sorted(goals[i * GOALS_DEALT:(i + 1) * GOALS_DEALT]) for i in range(n)],
        "supply": [TOKENS_PER_PLAYER] * n, "active": [0] * n, "terraces": [[] for _ in range(n)],
        "table": table, "roads": [], "restrictions_left": ROUTE_RESTRICTION_TOKENS,
        "trades": [None] * n, "draft": None, "turn": 0, "passed": [False] * n,
        "acted": [0] * n, "pending": None, "cash": None, "final": None, "log": [],
    }
    start_era(state)
    return state


FIRST_PLAYER_SEAT_VERSIONS = ("1", "2", "3")   # the first seat listed always began


def first_player(seed: int, players: int, version: str) -> int:
    """Setup 1: "Decide on a first player and give them the First Player Marker."  Decided by
    lot from the seed: the seat a player happens to be listed in must not decide who begins,
    for where a seat sits from the first player matters (docs/games/inca_empire.md gives the
    figures).  Games of versions 1 to 3 gave the marker to the first seat listed."""
    if str(version) in FIRST_PLAYER_SEAT_VERSIONS:
        return 0
    return rng(seed, "first-player").randrange(players)


def keep_rules_version(state: dict, version) -> None:
    """A game created under an older ``version`` is set up again as that version set it up
    (its first player and its Goal cards), so its recorded moves replay exactly."""
    if version is None or str(version) == state["rules_version"]:
        return
    if state["moves"]:
        raise AssertionError("keep_rules_version is for a state right after setup")
    older = new_state(state["players"], state["seed"], {}, str(version))
    state.clear()
    state.update(older)


def reshuffle_unseen(state: dict, key: int) -> None:
    """After a rollback: no seat has seen the order of the Era decks (Goals nobody holds are
    never drawn), so each deck is shuffled again from ``key`` (sorted first, so the old order
    leaves no trace).  Hands, Goals, the table, the discards and the decks' sizes stay."""
    if state["phase"] == OVER:
        return
    for number, deck in state["decks"].items():
        deck.sort()
        rng(key, "deck", number).shuffle(deck)


def to_act(state: dict) -> list[int]:
    phase = state["phase"]
    if phase == SHOW:
        return [s for s in range(len(state["players"]))
                if len(state["draft"]["shown"][s]) < draft_need(state, s)]
    if phase == PICK:
        return [state["draft"]["order"][state["draft"]["index"]]]
    if phase == ACTIONS:
        return [state["turn"]]
    if phase == CASH:
        return [state["cash"]["seat"]]
    return []


def legal(state: dict, seat: int) -> list[dict]:
    if seat not in to_act(state):
        return []
    if state["phase"] == SHOW:
        return era.show_options(state, seat)
    if state["phase"] == PICK:
        return era.pick_options(state, seat)
    return actions.legal(state, seat)


def find(state: dict, seat: int, action) -> dict:
    """The ``legal`` entry equal to ``action`` (labels aside), else ``IllegalAction`` with the
    refusal ``find_legal`` gives -- checked directly, without listing them all (building every
    placement and road to validate one move was most of replay time).  test_validation.py
    checks that this accepts exactly what ``legal`` lists."""
    if seat not in to_act(state):
        return find_legal([], action)  # raises
    return _chosen(state, seat, action)


def _chosen(state: dict, seat: int, action) -> dict:
    """``find`` for a seat already known to act (``apply`` has checked it)."""
    if not isinstance(action, dict):
        raise IllegalAction(phrase("an action must be a JSON object"))
    wanted = without_label(action)
    phase = state["phase"]
    if phase == SHOW:
        chosen = era.show_option(state, seat, wanted.get("card")) \
            if wanted.get("type") == "show" else None
    elif phase == PICK:
        chosen = era.pick_option(state, seat, wanted.get("card")) \
            if wanted.get("type") == "take" else None
    else:
        chosen = actions.find(state, seat, wanted)
    if chosen is None or without_label(chosen) != wanted:
        raise IllegalAction(not_legal(canonical_json(wanted)))
    return chosen


def apply(state: dict, seat: int, action) -> None:
    """Validate completely (nothing is touched on IllegalAction), then mutate."""
    if state["phase"] == OVER:
        raise IllegalAction(phrase("the game is over"))
    if seat not in to_act(state):
        raise IllegalAction(phrase("it is not your turn to act"))
    chosen = _chosen(state, seat, action)
    state["moves"] += 1
    log_public(state, seat, chosen)
    if state["phase"] == SHOW:
        era.apply_show(state, seat, chosen["card"])
    elif state["phase"] == PICK:
        era.apply_take(state, seat, chosen["card"])
    else:
        actions.apply(state, seat, chosen)


def log_public(state: dict, seat: int, action: dict) -> None:
    """A short public record of what happened (for mails), never naming a secret card.

    Each line is a phrase (engine.text), so every reader gets it in their own language; in
    English it reads "Era 2: Ana: Build a temple in ...", as the lines always did."""
    kind = action["type"]
    if kind in ("show", "build"):
        return  # the draft choice is secret; a build is logged when placed
    said = action.get("_say") or action["label"]
    if kind == "terrace":
        text = phrase("built a Terrace (card face down)")
    elif kind == "place":
        cid = state["pending"]["card"]
        text = phrase("built {card} ({id}): {action}", card=term(CARDS[cid]["name"]), id=cid,
                      action=said)
    else:
        text = said
    state["log"].append(phrase("Era {era}: {player}: {text}", era=state["era"],
                               player=state["players"][seat], text=text))
    del state["log"][:-LOG_LENGTH]
