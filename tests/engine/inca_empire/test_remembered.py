"""What the engine remembers or shares between checks gives the answers it gave without.

A late move asks the same questions many times (the road network, the board positions, the
places a card could go, the roads already built), so ``board`` remembers pure answers outside
the state and shares one survey of the build sites between the cards of a hand.  Here the
straightforward versions those replaced (kept below as references, as they were; the road
listing with its per-road check written inline) are asked the same questions on every fourth
decision of random games, and must agree exactly."""
from __future__ import annotations

import random

import pytest

from engine.core import canonical_json
from engine.games.inca_empire import GAME, actions, board, view
from engine.games.inca_empire.data import CARDS, MACHU_PICCHU


def reference_network(state: dict, owners: set[int]) -> set[str]:
    """Cusco's network by another method than the engine's search: grow the set until no
    road of ``owners`` leads out of it (an independent oracle, not a copy)."""
    roads = [(road["a"], road["b"]) for road in state["roads"] if road["owner"] in owners]
    reached = {board.CUSCO_KEY}
    grown = True
    while grown:
        grown = False
        for a, b in roads:
            if (a in reached) != (b in reached):
                reached |= {a, b}
                grown = True
    return reached


def reference_has_road(state: dict, a: str, b: str, owner: int) -> bool:
    for road in state["roads"]:
        if road["owner"] == owner and {road["a"], road["b"]} == {a, b}:
            return True
    return False


def reference_road_options(state: dict, seat: int, net, discount: int, budget: int):
    table = state["table"]
    found = []
    for a in sorted(table, key=lambda k: (board.pos(k)[1], board.pos(k)[0])):
        if table[a]["restricted"]:
            continue
        for b in board.road_ends(table, a):
            if b not in table or table[b]["restricted"] or not (a in net or b in net):
                continue
            if ((board.pos(b)[1], board.pos(b)[0]) < (board.pos(a)[1], board.pos(a)[0])
                    and table[a]["card"] != MACHU_PICCHU):
                continue
            numbers = board.road_numbers(table[a]["card"], a, table[b]["card"], b)
            if numbers is None or reference_has_road(state, a, b, seat):
                continue
            tokens = board.road_cost(numbers, discount)
            if tokens <= budget:
                found.append((a, b, tokens))
    return found


def reference_table_view(state: dict) -> list[dict]:
    out = []
    for k, here in state["table"].items():
        col, row = board.pos(k)
        card = CARDS[here["card"]]
        out.append({
            "card": here["card"], "name": card["name"], "type": card["type"],
            "region": board.region_of(here["card"], min(col, 2)), "column": col, "row": row,
            "owner": here["owner"], "fame_tokens": here["fame"], "temple": here["temple"],
            "temple_cost": card["temple"], "restricted": here["restricted"],
            "huts": [{"good": good, "tokens": list(tokens)}
                     for good, tokens in zip(card["huts"], here["huts"])],
        })
    out.sort(key=lambda t: (t["row"], t["column"]))
    return out


BUILDABLE = sorted(c for c in CARDS if CARDS[c]["type"] in actions.BUILDABLE)


def check_state(state: dict, rnd: random.Random) -> None:
    players = len(state["players"])
    # The cards in hand, plus a few others (any region, Start cards, Wild Colcas in turn).
    buildable = sorted({c for hand in state["hands"] for c in hand if c in BUILDABLE}
                       | set(rnd.sample(BUILDABLE, 6)))
    owner_sets = [{s} for s in range(players)] + [{s, (s + 1) % players}
                                                   for s in range(players)]
    for owners in owner_sets:
        assert board.network(state, owners) == reference_network(state, owners)
    for seat in range(players):
        eff = actions.effects(state, seat)
        net = actions.my_network(state, seat, eff)
        sites = board.build_sites(state, net)
        for budget in (2, 40):
            for cid in buildable:
                listed = bool(board.placements(state, cid, net, eff["road_discount"], budget))
                assert board.can_place(state, cid, net, eff["road_discount"], budget) == listed
                assert board.can_place(state, cid, net, eff["road_discount"], budget,
                                       sites) == listed
            assert (board.road_options(state, seat, net, eff["road_discount"], budget)
                    == reference_road_options(state, seat, net, eff["road_discount"], budget))
        for road in state["roads"]:
            for a, b in ((road["a"], road["b"]), (road["b"], road["a"]), (road["a"], "1,0")):
                assert board.has_road(state, a, b, seat) == reference_has_road(state, a, b, seat)
    assert canonical_json(view.table_view(state)) == canonical_json(reference_table_view(state))
    assert view.table_view(state) == reference_table_view(state)


@pytest.mark.parametrize("players,seed", [(2, 11), (4, 12), (5, 13)])
def test_remembered_answers_equal_the_straightforward_ones(players, seed):
    state = GAME.setup([f"P{i}" for i in range(players)], seed, {})
    rnd = random.Random(seed)
    decisions = 0
    while GAME.outcome(state) is None:
        if decisions % 4 == 0:
            check_state(state, rnd)
        seat = rnd.choice(GAME.to_act(state))
        action = (GAME.bot_action(state, seat) if rnd.random() < 0.6
                  else rnd.choice(GAME.legal_actions(state, seat)))
        GAME.apply_in_place(state, seat, action)
        decisions += 1
    check_state(state, rnd)
    assert state["roads"], "the game built roads, so the networks were worth comparing"


def test_network_is_recomputed_when_a_road_changes_hands():
    """The remembered network is keyed by the roads themselves, not by the state object: an
    edited road list (as tests and a replay from scratch make) never gets a stale answer."""
    state = GAME.setup(["A", "B"], 3, {})
    state["roads"] = [{"a": "1,0", "b": "0,-1", "owner": 0, "cost": 1}]
    assert board.network(state, {0}) == {"1,0", "0,-1"}
    state["roads"][0]["owner"] = 1
    assert board.network(state, {0}) == {"1,0"}
    assert board.network(state, {1}) == {"1,0", "0,-1"}
