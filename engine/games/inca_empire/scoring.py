"""End of the Game: one point per token on the table, plus the best three of five Goals.

Tokens "placed in the field of play" are road, fame, temple and storage-hut tokens; tokens in
the Supply or Active Pool do not score.  Goals read the final table: "your road system"
means the locations joined to Cusco by your own roads (agreements have all ended by then),
Wild Colcas count as a Colca and as the region of their column, Cusco counts as a plateau
city."""
from __future__ import annotations

from engine.text import counted, phrase, term

from . import board
from .data import CARDS, GOALS_BY_ID, REGIONS

BEST_GOALS = 3


def tokens_on_table(state: dict, seat: int) -> int:
    return sum(tokens_by_kind(state, seat).values())


def tokens_by_kind(state: dict, seat: int) -> dict[str, int]:
    """The seat's tokens in the field of play, by where they stand (roads, Fame, temples,
    storage huts): the rulebook's one point per token, counted so a player can check it."""
    counts = {"roads": sum(r["cost"] for r in state["roads"] if r["owner"] == seat),
              "fame": 0, "temples": 0, "huts": 0}
    for here in state["table"].values():
        if here["owner"] == seat:
            counts["fame"] += here["fame"]
        if here["temple"] and here["temple"]["owner"] == seat:
            counts["temples"] += here["temple"]["tokens"]
        counts["huts"] += sum(hut.count(seat) for hut in here["huts"])
    return counts


def _region(state: dict, k: str) -> str:
    return board.region_of(state["table"][k]["card"], board.pos(k)[0] if board.pos(k)[0] < 3 else 2)


def goal_met(state: dict, seat: int, goal: dict) -> bool:
    have, need = goal_progress(state, seat, goal)
    return have >= need


def goal_progress(state: dict, seat: int, goal: dict, facts: dict | None = None
                  ) -> tuple[int, int]:
    """How far the seat is towards ``goal``: (what it has, what the goal needs); the goal is
    met when the first reaches the second (the strong bot also reads partial progress).
    ``facts`` are the seat's ``table_facts``, when already at hand."""
    facts = facts if facts is not None else table_facts(state, seat)
    kind = goal["kind"]
    need = needed(goal, len(state["players"]))
    if kind == "region_cities":
        return sum(_region(state, k) == goal["region"] for k in facts["cities"]), need
    if kind == "colcas":
        return len(facts["colcas"]), need
    if kind == "claimed":
        return len(facts["claimed"]), need
    if kind == "temples":
        return facts["temples"], need
    if kind == "temple_tokens":
        return facts["temple_tokens"], need
    stocked = facts["stocked"]
    if kind == "huts_good":
        goods = goal.get("goods") or [goal["good"]]
        return sum(stocked.count(good) for good in goods), need
    if kind == "all_goods":
        return sum(g in stocked for g in ("fish", "corn", "potatoes")), 3
    if kind == "colca_each_region":
        return len({_region(state, k) for k in facts["colcas"]} & set(REGIONS)), len(REGIONS)
    if kind == "city_each_region":
        table = state["table"]
        return len({_region(state, k) for k in facts["claimed"]
                    if board.is_city(CARDS[table[k]["card"]])} & set(REGIONS)), len(REGIONS)
    if kind == "terraces":
        return len(state["terraces"][seat]), need
    if kind == "cities":
        return len(facts["cities"]), need
    if kind == "far":
        rows = facts["rows"]
        reach = -min(rows) if goal["side"] == "north" else max(rows)
        return max(reach, 0), need
    raise AssertionError(kind)


def needed(goal: dict, players: int) -> int:
    """The count a Goal asks for; some ask more of fewer players (``n_by_players``)."""
    by_players = goal.get("n_by_players")
    return by_players[players] if by_players else goal.get("n", 0)


def table_facts(state: dict, seat: int) -> dict:
    """What the Goals read of the table for one seat, gathered once: the locations its own
    road system reaches (cities, Colcas, rows), the cards it claimed, its temples, and the
    goods of the storage huts it stocked."""
    table = state["table"]
    net = board.network(state, {seat})
    return {
        "cities": [k for k in net if board.is_city(CARDS[table[k]["card"]])],
        "colcas": [k for k in net if board.is_colca(CARDS[table[k]["card"]])],
        "rows": [board.pos(k)[1] for k in net],
        "claimed": [k for k, v in table.items() if v["owner"] == seat],
        "temples": sum(1 for v in table.values() if v["temple"] and v["temple"]["owner"] == seat),
        "temple_tokens": sum(v["temple"]["tokens"] for v in table.values()
                             if v["temple"] and v["temple"]["owner"] == seat),
        "stocked": [CARDS[v["card"]]["huts"][i] for v in table.values()
                    for i, hut in enumerate(v["huts"]) if seat in hut],
    }


def seat_score(state: dict, seat: int) -> dict:
    goals = [{"id": g, "points": GOALS_BY_ID[g]["points"] if goal_met(state, seat, GOALS_BY_ID[g]) else 0}
             for g in state["goals"][seat]]
    best = sorted(goals, key=lambda g: (-g["points"], g["id"]))[:BEST_GOALS]
    tokens = tokens_on_table(state, seat)
    return {"tokens": tokens, "goals": goals, "scored_goals": [g["id"] for g in best],
            "goal_points": sum(g["points"] for g in best),
            "total": tokens + sum(g["points"] for g in best)}


def final_scores(state: dict) -> list[dict]:
    return [seat_score(state, s) for s in range(len(state["players"]))]


def outcome(state: dict) -> dict | None:
    """Ties: the rulebook names no tie-breaker, so tied leaders share the victory."""
    if state["final"] is None:
        return None
    scores = {s: f["total"] for s, f in enumerate(state["final"])}
    top = max(scores.values())
    return {"scores": scores, "winners": [s for s, v in scores.items() if v == top]}


TOKEN_PARTS = {   # where tokens stand -> how a player reads their points (a point a token)
    "roads": lambda n: counted("{n} token on roads", "{n} tokens on roads", n),
    "fame": lambda n: counted("{n} Fame token", "{n} Fame tokens", n),
    "temples": lambda n: counted("{n} token in temples", "{n} tokens in temples", n),
    "huts": lambda n: counted("{n} token in storage huts", "{n} tokens in storage huts", n),
}


def score_breakdown(state: dict) -> dict[int, dict] | None:
    """Where each score came from, as the rulebook counts it (End of the Game): one point per
    token on the table, by where it stands, then each of the best three Goals that scored."""
    if state["final"] is None:
        return None
    return {seat: {"total": final["total"], "parts": _parts(state, seat, final)}
            for seat, final in enumerate(state["final"])}


def _parts(state: dict, seat: int, final: dict) -> list[dict]:
    tokens = [{"points": n, "say": TOKEN_PARTS[kind](n)}
              for kind, n in tokens_by_kind(state, seat).items() if n]
    points = {g["id"]: g["points"] for g in final["goals"]}
    goals = [{"points": points[gid], "say": phrase(
        "{points} for the Goal “{goal}”", points=points[gid],
        goal=term(GOALS_BY_ID[gid]["text"]))}
        for gid in final["scored_goals"] if points[gid]]
    return tokens + goals
