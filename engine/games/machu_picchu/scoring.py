"""Final scoring: Victory Points, gold, the Spanish conquest multipliers, the tie-break.

Why pure functions over plain numbers: the worked conquest example of the English rules must
be checkable on its own (``conquest_scores``), without building a whole game state.
"""
from __future__ import annotations

from . import data


def victory_points(state: dict, seat: int) -> int:
    """Card icons (production icon: 1 VP per own Inca in that district; temple icon: 1 VP per
    own card of that temple), + trail bonus, + 3 VP per card still owed (zh.full 计分)."""
    player = state["players"][seat]
    vp = 0
    for cid in player["cards"]:
        for icon in data.CARDS[cid]["icons"]:
            if icon in data.ICON_DISTRICT:
                vp += state["incas"][data.ICON_DISTRICT[icon]][seat]
            else:
                vp += player["priests"][icon]
    return vp + data.trail_bonus(player["scout"]) + data.OWED_CARD_VP * player["owed"]


def gold(state: dict, seat: int) -> int:
    """Card gold + the trail bonus counted as gold too (dec: End and scoring)."""
    player = state["players"][seat]
    return sum(data.CARDS[c]["gold"] for c in player["cards"]) + data.trail_bonus(player["scout"])


def goods_left(state: dict, seat: int) -> int:
    """Tie-break: goods, 3 corn counting as one good."""
    goods = state["players"][seat]["goods"]
    return sum(goods[g] for g in data.MARKET_GOODS) + goods["corn"] // data.CORN_PER_GOOD


def conquest_multipliers(golds: list[int]) -> list[int]:
    """Most gold x3, the next lower gold value x2, the rest x1; ties share (dense ranks)."""
    ranks = sorted(set(golds), reverse=True)
    factor = {g: 3 if i == 0 else 2 if i == 1 else 1 for i, g in enumerate(ranks)}
    return [factor[g] for g in golds]


def conquest_scores(vps: list[int], golds: list[int]) -> list[int]:
    return [v * m for v, m in zip(vps, conquest_multipliers(golds))]


def winners(scores: list[int], tie_break: list[int]) -> list[int]:
    best = max(scores)
    top = [s for s, v in enumerate(scores) if v == best]
    most = max(tie_break[s] for s in top)
    return [s for s in top if tie_break[s] == most]


def outcome(state: dict) -> dict | None:
    if not state["over"]:
        return None
    seats = range(state["n"])
    vps = [victory_points(state, s) for s in seats]
    golds = [gold(state, s) for s in seats]
    conquest = state["over"]["reason"] == "conquest"
    finals = conquest_scores(vps, golds) if conquest else vps
    left = [goods_left(state, s) for s in seats]
    return {
        "scores": {s: finals[s] for s in seats},
        "winners": winners(finals, left),
        "reason": state["over"]["reason"],
        "detail": {s: {"vp": vps[s], "gold": golds[s], "goods_left": left[s],
                       "multiplier": (conquest_multipliers(golds)[s] if conquest else 1)}
                   for s in seats},
    }
