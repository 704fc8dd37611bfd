"""The Incatrail: moving a scout, the granary and llama stable, the summit.

Why a module of its own: steps come from six places (temple stones, sacrifices, Moon Tiles,
the Sun Clock, night and day 9), and the summit interrupts whatever is going on with a decision
of the scout's owner.  Every one of them calls ``advance``; nothing else moves a scout.
"""
from __future__ import annotations

from . import data


def advance(state: dict, seat: int, steps: int) -> None:
    """Move ``seat``'s scout; queue the granary/stable goods (paid at the end of the turn,
    zh.full 印加之路) and one summit frame per pass of field 20 (continue from 0)."""
    if steps <= 0:
        return
    player = state["players"][seat]
    pos = player["scout"]
    summits = 0
    due = player["due"]
    while steps > 0:
        room = data.SUMMIT - pos
        end = data.SUMMIT if steps >= room else pos + steps
        for field, pay in data.TRAIL_PAYOUTS:
            if pos < field <= end:
                for good, n in pay.items():
                    due[good] = due.get(good, 0) + n
        if steps >= room:
            summits += 1
            steps -= room
            pos = 0
        else:
            pos = end
            steps = 0
    player["scout"] = pos
    if summits:
        # Interrupts whatever frame is in progress: resolved before anything else.
        state["queue"].insert(0, {"k": "summit", "seat": seat, "count": summits,
                                  "to_return": None})


def pay_dues(state: dict) -> None:
    """Pay granary corn and stable llamas queued this turn, as far as the bank has them."""
    bank = state["bank"]
    for player in state["players"]:
        due = player["due"]
        if due:
            for good, n in due.items():
                got = min(n, bank[good])
                bank[good] -= got
                player["goods"][good] += got
            player["due"] = {}


def draw_at_summit(state: dict, frame: dict) -> None:
    """Draw up to 3 cards (dec: 2 left: return 1; 1 left: take it; none: 3 VP owed)."""
    player = state["players"][frame["seat"]]
    deck = state["deck"]
    n = min(data.SUMMIT_DRAW, len(deck))
    if n == 0:
        player["owed"] += 1
        frame["count"] -= 1
        return
    player["cards"].extend(deck[:n])
    del deck[:n]
    state["epoch"] += 1
    frame["to_return"] = n - data.SUMMIT_KEEP
    if frame["to_return"] == 0:
        frame["count"] -= 1
        frame["to_return"] = None
