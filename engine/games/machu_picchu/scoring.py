"""Final scoring: Victory Points, gold, the Spanish conquest multipliers, the tie-break.

Why pure functions over plain numbers: the worked conquest example of the English rules must
be checkable on its own (``conquest_scores``), without building a whole game state.
"""
from __future__ import annotations

from engine.text import counted, phrase, term

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


def score_breakdown(state: dict) -> dict[int, dict] | None:
    """Where each score came from, as the rules count it (zh.full 计分): each kind of icon on
    the seat's Sacrifice Cards times its Incas in that district or its priest cards of that
    kind, the trail bonus, 3 per card still owed; in a conquest the whole times its gold
    rank's multiplier.  The parts add up to ``victory_points`` and, multiplied, to the score."""
    found = outcome(state)
    if found is None:
        return None
    conquest = found["reason"] == "conquest"
    golds = [found["detail"][s]["gold"] for s in range(state["n"])]
    return {seat: {"total": score, "parts": vp_parts(state, seat),
                   "multiplier": _multiplier(golds, seat) if conquest else None}
            for seat, score in found["scores"].items()}


def vp_parts(state: dict, seat: int) -> list[dict]:
    """``victory_points`` counted part by part; parts worth nothing are left out."""
    player = state["players"][seat]
    icons = [icon for cid in player["cards"] for icon in data.CARDS[cid]["icons"]]
    parts = [_icon_part(state, seat, icon, icons.count(icon))
             for icon in data.ICONS if icon in icons]
    bonus = data.trail_bonus(player["scout"])
    if bonus:
        parts.append({"points": bonus, "say": phrase(
            "{points} trail bonus (the scout on field {field})", points=bonus,
            field=player["scout"])})
    if player["owed"]:
        points = data.OWED_CARD_VP * player["owed"]
        parts.append({"points": points, "say": counted(
            "{points} for {n} Sacrifice Card owed", "{points} for {n} Sacrifice Cards owed",
            player["owed"], points=points)})
    return [part for part in parts if part["points"]]


def _icon_part(state: dict, seat: int, icon: str, icons: int) -> dict:
    name = term(data.ICON_NAMES[icon])
    if icon in data.ICON_DISTRICT:
        district = data.ICON_DISTRICT[icon]
        incas = state["incas"][district][seat]
        return {"points": icons * incas, "say": counted(
            "{points} for {icon} icons: {icons} on the cards × {n} Inca in the {district}",
            "{points} for {icon} icons: {icons} on the cards × {n} Incas in the {district}",
            incas, points=icons * incas, icons=icons, icon=name,
            district=term(data.DISTRICT_NAMES[district]))}
    cards = state["players"][seat]["priests"][icon]
    return {"points": icons * cards, "say": counted(
        "{points} for {icon} icons: {icons} on the cards × {n} {priest} card",
        "{points} for {icon} icons: {icons} on the cards × {n} {priest} cards",
        cards, points=icons * cards, icons=icons, icon=name,
        priest=term(data.PRIESTS[icon]["name"]))}


def _multiplier(golds: list[int], seat: int) -> dict:
    """The conquest's factor for ``seat``, with the gold that earned it."""
    by = conquest_multipliers(golds)[seat]
    if by == 3:
        say = phrase("× 3 for {gold} gold, the most gold", gold=golds[seat])
    elif by == 2:
        say = phrase("× 2 for {gold} gold, the next most gold", gold=golds[seat])
    else:
        say = phrase("× 1 for {gold} gold, less than the two richest", gold=golds[seat])
    return {"by": by, "say": say}
