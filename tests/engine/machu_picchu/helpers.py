"""Small builders for Machu Picchu scenarios: the state is plain JSON, so a test may set up
exactly the position a rule sentence talks about and then play real actions on it."""
from __future__ import annotations

from engine import canonical_json, get_game
from engine.core import without_label
from engine.games.machu_picchu import data

GAME = get_game("machu_picchu")


def new(n: int = 2, seed: int = 1) -> dict:
    return GAME.setup([f"P{i}" for i in range(n)], seed, {})


def started(n: int = 2, seed: int = 1, free: str = "corn_terraces") -> dict:
    """Setup done: every seat placed its free Inca on ``free``; seat 0's first turn."""
    state = new(n, seed)
    for seat in range(n):
        act(state, seat, type="place_free", district=free)
    return state


def act(state: dict, seat: int, **action) -> None:
    GAME.apply_in_place(state, seat, action)


def turn_of(state: dict, seat: int, prince: str | None = "central_plaza") -> dict:
    """Make it ``seat``'s move with its Prince on ``prince`` (nothing else pending)."""
    state["queue"] = [{"k": "move", "seat": seat}]
    state["cur"] = seat
    state["players"][seat]["prince"] = prince
    return state


def goods(state: dict, seat: int, **amounts) -> None:
    """Set a seat's goods, moving the difference from/to the bank (keeps conservation)."""
    for good, amount in amounts.items():
        diff = amount - state["players"][seat]["goods"][good]
        state["bank"][good] -= diff
        state["players"][seat]["goods"][good] = amount


def give_priest(state: dict, seat: int, kind: str, n: int = 1) -> None:
    state["priests_left"][kind] -= n
    state["players"][seat]["priests"][kind] += n


def options(state: dict, seat: int) -> list[dict]:
    """The legal actions without their display keys (``label``, the ``_say`` phrase)."""
    return [without_label(a) for a in GAME.legal_actions(state, seat)]


def phase(state: dict) -> str:
    return state["queue"][0]["k"] if state["queue"] else "none"


def totals(state: dict) -> dict:
    """Every good wherever it is: bank + players + market + district bonuses + time track."""
    out = dict(state["bank"])
    for p in state["players"]:
        for g, k in p["goods"].items():
            out[g] += k
    for g, k in state["market"].items():
        out[g] += k
    for d, g in data.PRODUCTION.items():
        out[g] += state["bonus"][d] * (data.CORN_TERRACE_UNIT if g == "corn" else 1)
    out["corn"] += state["track_corn"]
    return out


def incas(state: dict, seat: int) -> int:
    return (state["players"][seat]["supply"] + state["sun_clock"][seat]
            + sum(state["incas"][d][seat] for d in data.PRODUCTION))


def same(a, b) -> bool:
    return canonical_json(a) == canonical_json(b)
