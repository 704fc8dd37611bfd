"""The table of cards: grid geometry, legal connections, road systems and placements.

Why one module: every build, road, temple and stock rule asks the same two questions, "may
these two locations be joined by a road?" and "is this location on my road system back to
Cusco?", so both live here and nowhere else (rulebook "Build a City or Colca", "Examples of
Legal Connections", "Route Restrictions", "Machu Picchu")."""
from __future__ import annotations

from collections.abc import Set
from functools import lru_cache

from .data import CARDS, CUSCO, MACHU_PICCHU, REGIONS

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


# Memoised pure functions of their (string) arguments: a late move asks them hundreds of
# thousands of times over the same few dozen locations (parsing "c,r" alone was a sixth of a
# late move's engine time).  Sized far above one game's grid, so a busy process keeps them.
MEMO = 1 << 14


@lru_cache(maxsize=MEMO)
def pos(k: str) -> tuple[int, int]:
    c, r = k.split(",")
    return int(c), int(r)


@lru_cache(maxsize=MEMO)
def reading_order(k: str) -> tuple[int, int]:
    """``(row, column)``: north to south, then west to east, the order every list of
    locations is given in."""
    col, row = pos(k)
    return row, col


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


@lru_cache(maxsize=MEMO)
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


def network(state: dict, owners: Set[int]) -> frozenset[str]:
    """Locations joined to Cusco by roads of ``owners`` (a player, plus shared-road partners).

    Every check of a build, road, temple or stock asks it, several times per move, so it is
    remembered per exact list of those owners' road ends (outside the state: nothing of it
    reaches a view or a hash).  Callers only read it, and never rely on its order."""
    return _network_of(tuple((road["a"], road["b"]) for road in state["roads"]
                             if road["owner"] in owners))


@lru_cache(maxsize=256)
def _network_of(ends: tuple[tuple[str, str], ...]) -> frozenset[str]:
    adj: dict[str, list[str]] = {}
    for a, b in ends:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    seen = {CUSCO_KEY}
    todo = [CUSCO_KEY]
    while todo:
        here = todo.pop()
        for there in adj.get(here, ()):
            if there not in seen:
                seen.add(there)
                todo.append(there)
    return frozenset(seen)


def has_road(state: dict, a: str, b: str, owner: int) -> bool:
    return (a, b) in roads_built(state, owner)


def roads_built(state: dict, owner: int) -> set[tuple[str, str]]:
    """The ends of ``owner``'s roads, both ways round: ``has_road`` for every candidate of a
    listing at the price of one pass over the roads."""
    built = set()
    for road in state["roads"]:
        if road["owner"] == owner:
            built.add((road["a"], road["b"]))
            built.add((road["b"], road["a"]))
    return built


@lru_cache(maxsize=MEMO)
def neighbours(k: str) -> tuple[str, ...]:
    """Every position a road could reach from ``k`` (edges, corners, corners two apart)."""
    c, r = pos(k)
    out = []
    for name, (dc, dr) in DIRS.items():
        out.append(key(c + dc, r + dr))
        if name in CORNERS:
            out.append(key(c + 2 * dc, r + 2 * dr))
    return tuple(out)


def column_allows(card: dict, col: int) -> bool:
    if card["region"] == "wild":
        return 0 <= col < COLUMNS
    return 0 <= col < COLUMNS and REGIONS[col] == card["region"]


def placements(state: dict, card_id: str, net: Set[str], discount: int, budget: int):
    """Every ``(at, via, road_tokens)`` where the card may be built now and paid for.

    A Start card goes only to its own spot beside Cusco (Machu Picchu: its own column);
    any other card goes into its region's column, never edge-to-edge with Cusco, joined by one
    road to a location on the builder's road system that carries no Route Restriction."""
    found = []
    for at, via in placement_candidates(state, card_id, net):
        tokens = placement_cost(state, card_id, at, via, discount, budget)
        if tokens is not None:
            found.append((at, via, tokens))
    found.sort(key=lambda p: (*reading_order(p[0]), *reading_order(p[1])))
    return found


def can_place(state: dict, card_id: str, net: Set[str], discount: int, budget: int,
              sites: dict[int, list[tuple[str, str]]] | None = None) -> bool:
    """``bool(placements(...))``, stopping at the first spot found.  ``sites``: what
    ``build_sites(state, net)`` returns, when the caller asks this for several cards of one
    hand (it is the same for all of them); only the candidates in the card's columns are
    then priced."""
    card = CARDS[card_id]
    if card["type"] == "start":
        candidates = placement_candidates(state, card_id, net)
    elif sites is None:  # one card: its columns' free spots, in the order they come
        table = state["table"]
        candidates = ((at, via) for at, via in placement_candidates(state, card_id, net)
                      if at not in table and column_allows(card, pos(at)[0]))
    else:
        candidates = (site for col in range(COLUMNS) if column_allows(card, col)
                      for site in sites.get(col, ()))
    for at, via in candidates:
        if placement_cost(state, card_id, at, via, discount, budget) is not None:
            return True
    return False


def build_sites(state: dict, net: Set[str]) -> dict[int, list[tuple[str, str]]]:
    """The ``placement_candidates`` of any card but a Start card, less those no such card may
    use whatever it is (``at`` taken, outside the three columns, edge to edge with Cusco), by
    the column of ``at``.  ``placement_cost`` still decides each one: this only spares it the
    candidates it would refuse for every card of a hand."""
    table = state["table"]
    sites: dict[int, list[tuple[str, str]]] = {}
    for via in net:
        if table[via]["restricted"]:
            continue
        for at in neighbours(via):
            if at in table:
                continue
            col, row = pos(at)
            if 0 <= col < COLUMNS and not orth_next_to_cusco(col, row):
                sites.setdefault(col, []).append((at, via))
    return sites


def placement(state: dict, card_id: str, at, via, net: Set[str], discount: int,
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


def placement_candidates(state: dict, card_id: str, net: Set[str]):
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


def road_options(state: dict, seat: int, net: Set[str], discount: int, budget: int):
    """Every ``(a, b, tokens)`` road the seat may add between two existing locations."""
    table = state["table"]
    built = roads_built(state, seat)
    found = []
    for a in sorted(table, key=reading_order):
        if table[a]["restricted"]:
            continue
        a_on_net = a in net
        for b in road_ends(table, a):
            if b not in table or not (a_on_net or b in net):  # most: spared the call's "no"
                continue
            tokens = road_cost_between(state, seat, a, b, net, discount, budget, built)
            if tokens is not None:
                found.append((a, b, tokens))
    return found


def road_option(state: dict, seat: int, a, b, net: Set[str], discount: int,
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


def road_cost_between(state: dict, seat: int, a: str, b: str, net: Set[str], discount: int,
                      budget: int, built: set[tuple[str, str]] | None = None) -> int | None:
    """Tokens for a new road from ``a`` (unrestricted, on the table) to ``b`` (one of
    ``road_ends``) if the rules allow it and the budget pays it, else ``None``.  Each road is
    listed once: from its end that comes first north to south, west to east (Machu Picchu:
    always from Machu Picchu).  ``built``: ``roads_built(state, seat)``, when the caller has
    it."""
    table = state["table"]
    if b not in table or table[b]["restricted"] or not (a in net or b in net):
        return None
    if reading_order(b) < reading_order(a) and table[a]["card"] != MACHU_PICCHU:
        return None
    numbers = road_numbers(table[a]["card"], a, table[b]["card"], b)
    if numbers is None:
        return None
    if (a, b) in (built if built is not None else roads_built(state, seat)):
        return None
    tokens = road_cost(numbers, discount)
    return tokens if tokens <= budget else None
