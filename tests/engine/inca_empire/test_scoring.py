"""End of the Game: tokens on the table, best three of five Goals, Wild Colcas, Cusco, ties."""
from __future__ import annotations

from engine.games.inca_empire import GAME, era, scoring
from engine.games.inca_empire.data import GOALS_BY_ID

from .helpers import act, in_actions, put


def goal(kind, **kw):
    return next(g for g in GOALS_BY_ID.values()
                if g["kind"] == kind and all(g.get(k) == v for k, v in kw.items()))


def test_one_point_per_token_on_the_table_only():
    """End: one point per token placed in the field of play; Supply and Active Pool tokens
    do not count."""
    state = in_actions(2, active=[20, 20])
    put(state, "S-NAZCA", 0, 0, owner=0, road_from="1,0")        # 2 road + 1 fame
    put(state, "E1-21", 0, -1, owner=0, road_from="0,0")          # 2 road + 1 fame
    state["table"]["0,-1"]["huts"][0].append(0)                    # 1 hut token
    assert scoring.tokens_on_table(state, 0) == 7
    assert scoring.tokens_on_table(state, 1) == 0


def test_best_three_of_five_goals():
    """End: choose three of your five goal cards to score (the engine picks the best)."""
    state = in_actions(2, active=[20, 20])
    state["goals"][0] = [goal("terraces", n=4)["id"], goal("terraces", n=6)["id"],
                         goal("temples", n=1)["id"], goal("colcas", n=2)["id"], goal("cities", n=6)["id"]]
    state["terraces"][0] = ["x"] * 6
    put(state, "S-CAJAMARCA", 1, -1, owner=0, road_from="1,0")
    state["table"]["1,-1"]["temple"] = {"owner": 0, "tokens": 2}
    put(state, "E1-21", 0, -1, owner=0, road_from="1,-1")
    put(state, "S-NAZCA", 0, 0, owner=0, road_from="0,-1")
    put(state, "S-VILCABAMBA", 2, 0, owner=0, road_from="1,0")
    put(state, "E1-23", 2, -1, owner=0, road_from="2,0")
    result = scoring.seat_score(state, 0)
    met = {g["id"]: g["points"] for g in result["goals"] if g["points"]}
    assert set(met) == set(state["goals"][0][:4])  # four of five met, only three score
    assert len(result["scored_goals"]) == 3
    assert result["goal_points"] == sum(sorted(met.values(), reverse=True)[:3])


def test_wild_colca_counts_as_colca_and_its_column_region():
    """End: Wild Colca cards count as a Colca and as the region in which they were placed."""
    state = in_actions(2, active=[30, 30])
    put(state, "S-NAZCA", 0, 0, owner=0, road_from="1,0")
    put(state, "E1-21", 0, -1, owner=0, road_from="0,0")
    state["table"]["1,-2"] = era.location("E1-24", 0)  # Wild Colca in the plateau column
    state["roads"].append({"a": "0,-1", "b": "1,-2", "owner": 0, "cost": 2})
    assert scoring.goal_met(state, 0, goal("colcas", n=2))
    assert scoring._region(state, "1,-2") == "plateau"


def test_cusco_counts_as_plateau():
    """End: Cusco counts as a plateau for scoring."""
    state = in_actions(2, active=[30, 30])
    state["goals"][0] = [goal("region_cities", region="plateau", n=3)["id"]]
    put(state, "S-CAJAMARCA", 1, -1, owner=0, road_from="1,0")
    put(state, "S-TIWANAKU", 1, 1, owner=0, road_from="1,0")
    assert scoring.goal_met(state, 0, goal("region_cities", region="plateau", n=3))
    assert not scoring.goal_met(state, 1, goal("region_cities", region="plateau", n=3))


def test_tied_leaders_share_the_victory():
    """Ties (project decision, docs): the rulebook has no tie-breaker; tied leaders all win."""
    state = in_actions(3)
    state["goals"] = [[], [], []]
    state["era"] = 4
    state["acted"] = [2, 2, 2]
    for seat in (0, 1, 2):
        act(state, seat, type="pass")
    result = GAME.outcome(state)
    assert result == {"scores": {0: 0, 1: 0, 2: 0}, "winners": [0, 1, 2]}


def test_every_goal_kind_is_scorable():
    """Goal cards: every one of the 26 reads the final table without error."""
    state = in_actions(5, active=[30] * 5)
    put(state, "S-NAZCA", 0, 0, owner=0, road_from="1,0")
    for g in GOALS_BY_ID.values():
        assert scoring.goal_met(state, 0, g) in (True, False)
