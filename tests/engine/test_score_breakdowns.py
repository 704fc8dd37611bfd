"""Every final score shows where its points came from: each game's ``score_breakdown`` adds up
to the score its ``outcome`` gives (the record's score), part by part, and says each part in
words that name the number they count."""
from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings, strategies as st

from engine import get_game
from engine.core import clone
from engine.text import render
from tests.engine.playthrough import play_random_game

PLAYERS = {"incan_gold": (3, 8), "machu_picchu": (2, 5), "inca_empire": (2, 5)}


def finished(name: str, players: int, seed: int) -> dict:
    state, _moves = play_random_game(name, players, seed)
    return state


def assert_adds_up(name: str, state: dict) -> None:
    game = get_game(name)
    scores = game.outcome(state)["scores"]
    breakdown = game.score_breakdown(state)
    assert set(breakdown) == set(scores)
    for seat, explained in breakdown.items():
        factor = (explained.get("multiplier") or {"by": 1})["by"]
        assert explained["total"] == scores[seat]
        assert sum(part["points"] for part in explained["parts"]) * factor == scores[seat]
        for part in explained["parts"]:
            words = render(part["say"])
            assert str(part["points"]) in re.findall(r"\d+", words), words
            assert re.search(r"[A-Za-z]{3}", words), words


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(PLAYERS)), data=st.data(), seed=st.integers(0, 2**31))
def test_every_final_score_is_the_sum_of_its_parts(name, data, seed):
    players = data.draw(st.integers(*PLAYERS[name]))
    assert_adds_up(name, finished(name, players, seed))


def test_no_breakdown_while_the_game_runs():
    for name, (low, _high) in PLAYERS.items():
        game = get_game(name)
        state = game.setup([f"P{i}" for i in range(low)], 7, {})
        assert game.score_breakdown(state) is None


def test_incan_gold_names_the_tent_and_each_artifact():
    state = finished("incan_gold", 3, 11)
    player = state["players"][0]
    player["tent"], player["artifacts"] = 31, [10, 7]
    explained = get_game("incan_gold").score_breakdown(state)[0]
    assert explained["total"] == 48
    assert [render(p["say"]) for p in explained["parts"]] == [
        "31 gems in the tent", "an artifact worth 10", "an artifact worth 7"]


def test_machu_picchu_conquest_multiplies_the_victory_points_by_the_gold_rank():
    game = get_game("machu_picchu")
    state = clone(finished("machu_picchu", 3, 5))
    state["over"]["reason"] = "conquest"
    assert_adds_up("machu_picchu", state)
    said = [render(b["multiplier"]["say"]) for b in game.score_breakdown(state).values()]
    assert any("the most gold" in s for s in said), said


def test_inca_empire_counts_tokens_by_where_they_stand_and_names_each_scored_goal():
    game = get_game("inca_empire")
    state = finished("inca_empire", 3, 3)
    for seat, explained in game.score_breakdown(state).items():
        final = state["final"][seat]
        goals = [p for p in explained["parts"] if "Goal" in render(p["say"])]
        assert sum(p["points"] for p in goals) == final["goal_points"]
        assert len(goals) <= 3
