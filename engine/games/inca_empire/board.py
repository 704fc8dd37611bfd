"""The table of cards: grid geometry, legal connections, road systems and placements.

Why one module: every build, road, temple and stock rule asks the same two questions, "may
these two locations be joined by a road?" and "is this location on my road system back to
Cusco?", so both live here and nowhere else (rulebook "Build a City or Colca", "Examples of
Legal Connections", "Route Restrictions", "Machu Picchu")."""
from __future__ import annotations

from .cards import CARDS, CUSCO, MACHU_PICCHU, REGIONS

CUSCO_KEY = "1,0"
COLUMNS = 3  # coastal, plateau, mountain; Machu Picchu alone sits in column 3

DIRS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0),
        "NE": (1, -1), "SE": (1, 1), "SW": (-1, 1), "NW": (-1, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E", "NE": "SW", "SW": "NE", "SE": "NW", "NW": "SE"}
ORTHOGONAL = ("N", "E", "S", "W")
CORNERS = ("NE", "SE", "SW", "NW")
START_SPOTS = {c["id"]: tuple(c["spot"]) for c in CARDS.values() if c["type"] == "start"}


def key(col: int, row: int) -> str:
    return f"{col},{row}"


def pos(k: str) -> tuple[int, int]:
    c, r = k.split(",")
    return int(c), int(r)


def is_city(card: dict) -> bool:
    """Cusco and the Start cards are cities (Cusco "counts as a plateau")."""
    return card["type"] in ("city", "start", "cusco")


def is_colca(card: dict) -> bool:
    return card["type"] == "colca"


def region_of(card_id: str, col: int) -> str:
    """Wild Colcas count as the region they were placed in (End of the Game)."""
    card = CARDS[card_id]
    if card.get("region") == "wild":
        return REGIONS[col]
    return card["region"]


def orth_next_to_cusco(col: int, row: int) -> bool:
    return abs(col - 1) + abs(row) == 1


def link_kind(a: dict, b: dict, direction: str, dist: int) -> bool:
    """May cards ``a`` and ``b`` (b lies ``dist`` steps from a in ``direction``) be joined?

    Cities meet Colcas edge to edge; cities meet cities corner to corner, at most two cards
    apart; Colcas never meet Colcas except at the corners when one of them is Wild.  The only
    edge-to-edge city pair is Cusco and a Start card."""
    if direction in ORTHOGONAL:
        if dist != 1:
            return False
        if is_city(a) and is_city(b):
            return {a["type"], b["type"]} == {"cusco", "start"}
        return (is_city(a) and is_colca(b)) or (is_colca(a) and is_city(b))
    if is_city(a) and is_city(b):
        return dist in (1, 2)
    if is_colca(a) and is_colca(b):
        return dist == 1 and "wild" in (a["region"], b["region"])
    return False


def road_numbers(a_id: str, a_key: str, b_id: str, b_key: str) -> tuple[int, int] | None:
    """The two road numbers of a legal connection between two positions, else ``None``."""
    if MACHU_PICCHU in (a_id, b_id):
        # Machu Picchu: roads only at its lower-left corner, and only to Cusco (one token).
        other = b_id if a_id == MACHU_PICCHU else a_id
        return (1, 0) if other == CUSCO["id"] else None
    ac, ar = pos(a_key)
    bc, br = pos(b_key)
    dc, dr = bc - ac, br - ar
    dist = max(abs(dc), abs(dr))
    if dist == 0 or (dc and dr and abs(dc) != abs(dr)) or dist > 2:
        return None
    step = (dc // dist, dr // dist)
    direction = next(d for d, v in DIRS.items() if v == step)
    a, b = CARDS[a_id], CARDS[b_id]
    if not link_kind(a, b, direction, dist):
        return None
    pa = a["ports"].get(direction)
    pb = b["ports"].get(OPPOSITE[direction])
    if not pa or not pb or pa[0] != pb[0]:
        return None
    return pa[1], pb[1]


def road_cost(numbers: tuple[int, int], discount: int) -> int:
    """Sum of the two numbers; a road discount never takes a road below one token."""
    return max(1, numbers[0] + numbers[1] - discount)


def network(state: dict, owners: set[int]) -> set[str]:
    """Locations joined to Cusco by roads of ``owners`` (a player, plus shared-road partners)."""
    adj: dict[str, list[str]] = {}
    for road in state["roads"]:
        if road["owner"] in owners:
            adj.setdefault(road["a"], []).append(road["b"])
            adj.setdefault(road["b"], []).append(road["a"])
    seen = {CUSCO_KEY}
    todo = [CUSCO_KEY]
    while todo:
        here = todo.pop()
        for there in adj.get(here, ()):
            if there not in seen:
                seen.add(there)
                todo.append(there)
    return seen


def has_road(state: dict, a: str, b: str, owner: int) -> bool:
    for road in state["roads"]:
        if road["owner"] == owner and {road["a"], road["b"]} == {a, b}:
            return True
    return False


def neighbours(k: str):
    """Every position a road could reach from ``k`` (edges, corners, corners two apart)."""
    c, r = pos(k)
    for name, (dc, dr) in DIRS.items():
        yield key(c + dc, r + dr)
        if name in CORNERS:
            yield key(c + 2 * dc, r + 2 * dr)


def column_allows(card: dict, col: int) -> bool:
    if card["region"] == "wild":
        return 0 <= col < COLUMNS
    return 0 <= col < COLUMNS and REGIONS[col] == card["region"]


def placements(state: dict, card_id: str, net: set[str], discount: int, budget: int):
    """Every ``(at, via, road_tokens)`` where the card may be built now and paid for.

    A Start card goes only to its own spot beside Cusco (Machu Picchu: its own column);
    any other card goes into its region's column, never edge-to-edge with Cusco, joined by one
    road to a location on the builder's road system that carries no Route Restriction."""
    found = []
    for at, via in placement_candidates(state, card_id, net):
        tokens = placement_cost(state, card_id, at, via, discount, budget)
        if tokens is not None:
            found.append((at, via, tokens))
    found.sort(key=lambda p: (pos(p[0])[1], pos(p[0])[0], pos(p[1])[1], pos(p[1])[0]))
    return found


def can_place(state: dict, card_id: str, net: set[str], discount: int, budget: int) -> bool:
    """``bool(placements(...))``, stopping at the first spot found."""
    for at, via in placement_candidates(state, card_id, net):
        if placement_cost(state, card_id, at, via, discount, budget) is not None:
            return True
    return False


def placement(state: dict, card_id: str, at, via, net: set[str], discount: int,
              budget: int) -> int | None:
    """The road tokens of the one ``placements`` entry ``(at, via, tokens)``, or ``None`` when
    ``placements`` does not list ``(at, via)`` (checked directly, without listing them all)."""
    if not isinstance(at, str) or not isinstance(via, str):
        return None
    table = state["table"]
    if CARDS[card_id]["type"] == "start":
        if via != CUSCO_KEY or at != key(*START_SPOTS[card_id]):
            return None
    elif via not in net or table[via]["restricted"] or at not in neighbours(via):
        return None
    return placement_cost(state, card_id, at, via, discount, budget)


def placement_candidates(state: dict, card_id: str, net: set[str]):
    """The ``(at, via)`` pairs ``placements`` considers (its geometry, before the rules)."""
    table = state["table"]
    if CARDS[card_id]["type"] == "start":
        yield key(*START_SPOTS[card_id]), CUSCO_KEY
        return
    for via in net:
        if table[via]["restricted"]:
            continue
        for at in neighbours(via):
            yield at, via


def placement_cost(state: dict, card_id: str, at: str, via: str, discount: int,
                   budget: int) -> int | None:
    """Road tokens to build ``card_id`` at ``at`` joined to ``via`` (one candidate of
    ``placement_candidates``) if the rules allow it and the budget pays it, else ``None``."""
    card = CARDS[card_id]
    table = state["table"]
    if at in table:
        return None
    if card["type"] != "start":
        col, row = pos(at)
        if not column_allows(card, col) or orth_next_to_cusco(col, row):
            return None
    numbers = road_numbers(table[via]["card"], via, card_id, at)
    if numbers is None:
        return None
    tokens = road_cost(numbers, discount)
    return tokens if tokens + card["fame"] <= budget else None


def road_options(state: dict, seat: int, net: set[str], discount: int, budget: int):
    """Every ``(a, b, tokens)`` road the seat may add between two existing locations."""
    table = state["table"]
    found = []
    for a in sorted(table, key=lambda k: (pos(k)[1], pos(k)[0])):
        if table[a]["restricted"]:
            continue
        for b in road_ends(table, a):
            tokens = road_cost_between(state, seat, a, b, net, discount, budget)
            if tokens is not None:
                found.append((a, b, tokens))
    return found


def road_option(state: dict, seat: int, a, b, net: set[str], discount: int,
                budget: int) -> int | None:
    """The tokens of the one ``road_options`` entry ``(a, b, tokens)``, or ``None`` when
    ``road_options`` does not list ``(a, b)`` (checked directly, without listing them all)."""
    table = state["table"]
    if not isinstance(a, str) or not isinstance(b, str) or a not in table or table[a]["restricted"]:
        return None
    if b not in road_ends(table, a):
        return None
    return road_cost_between(state, seat, a, b, net, discount, budget)


def road_ends(table: dict, a: str):
    """Where ``road_options`` looks for the other end of a road from ``a``."""
    return neighbours(a) if table[a]["card"] != MACHU_PICCHU else (CUSCO_KEY,)


def road_cost_between(state: dict, seat: int, a: str, b: str, net: set[str], discount: int,
                      budget: int) -> int | None:
    """Tokens for a new road from ``a`` (unrestricted, on the table) to ``b`` (one of
    ``road_ends``) if the rules allow it and the budget pays it, else ``None``.  Each road is
    listed once: from its end that comes first north to south, west to east (Machu Picchu:
    always from Machu Picchu)."""
    table = state["table"]
    if b not in table or table[b]["restricted"] or not (a in net or b in net):
        return None
    if (pos(b)[1], pos(b)[0]) < (pos(a)[1], pos(a)[0]) and table[a]["card"] != MACHU_PICCHU:
        return None
    numbers = road_numbers(table[a]["card"], a, table[b]["card"], b)
    if numbers is None or has_road(state, a, b, seat):
        return None
    tokens = road_cost(numbers, discount)
    return tokens if tokens <= budget else None
