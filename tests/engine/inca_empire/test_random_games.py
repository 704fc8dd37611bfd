"""Random legal games for 2-5 players: no crash, no dead end, tokens conserved, replay exact,
views JSON and secret-safe, default and bot actions always legal."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from engine.core import canonical_json, without_label
from engine.games.inca_empire import GAME, era
from engine.games.inca_empire.data import CARDS
from engine.text import render
from tests.engine.playthrough import assert_replay_equals_live, play_random_game

from .helpers import tokens_of


def _check(game, before, after, seat, action):
    n = len(after["players"])
    for s in range(n):
        assert tokens_of(after, s) == 70, (s, action)
    assert after["epoch"] >= before["epoch"]
    public_view = game.view(after, None)
    # Log lines are phrases whose arguments hold card ids as JSON strings; they name only cards
    # shown face up (a draft pick, a build, a Workforce), so they are checked as the English
    # text players read, where an id is never a whole JSON string.
    public_view["log"] = [render(line) for line in public_view["log"]]
    public = canonical_json(public_view)
    if after["phase"] != era.OVER:
        for s in range(n):
            face_down = [c for c in after["terraces"][s] if CARDS[c]["type"] != "workforce"]
            for cid in after["hands"][s] + after["goals"][s] + face_down:
                if not (after["pending"] and after["pending"]["card"] == cid
                        and after["pending"]["step"] in ("restrict", "stock", "temple")):
                    assert f'"{cid}"' not in public, cid  # secret until the end
    json.dumps(game.view(after, seat))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**31))
def test_random_legal_games_conserve_tokens_and_replay(players, seed):
    """Hypothesis: random legal play to the end of Era IV, checking every move."""
    state, moves = play_random_game("inca_empire", players, seed, {}, _check)
    assert_replay_equals_live("inca_empire", players, seed, {}, state, moves)
    result = GAME.outcome(state)
    assert result["winners"] and set(result["scores"]) == set(range(players))
    assert state["era"] == 4 and state["phase"] == era.OVER


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**31), bots=st.booleans())
def test_default_and_bot_actions_are_always_legal_and_finish(players, seed, bots):
    """Timeout default and bot: always a listed legal action; games driven by them end."""
    state = GAME.setup([f"P{i}" for i in range(players)], seed, {})
    for _ in range(5000):
        if GAME.outcome(state) is not None:
            break
        seat = GAME.to_act(state)[0]
        legal = [without_label(a) for a in GAME.legal_actions(state, seat)]
        for chosen in (GAME.default_action(state, seat), GAME.bot_action(state, seat)):
            assert without_label(chosen) in legal
        pick = GAME.bot_action(state, seat) if bots else GAME.default_action(state, seat)
        GAME.apply_in_place(state, seat, pick)
    assert GAME.outcome(state) is not None


def test_bot_beats_random_on_average():
    """The bot heuristic is better than random play (seat 0 bot vs random others)."""
    import random
    wins, bot_total, other_total = 0, 0, 0
    for seed in range(12):
        state = GAME.setup(["a", "b", "c"], seed, {})
        chooser = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            action = GAME.bot_action(state, seat) if seat == 0 else chooser.choice(
                GAME.legal_actions(state, seat))
            GAME.apply_in_place(state, seat, action)
        result = GAME.outcome(state)
        wins += 0 in result["winners"]
        bot_total += result["scores"][0]
        other_total += (result["scores"][1] + result["scores"][2]) / 2
    assert wins > 12 / 3 and bot_total > other_total


def test_views_hide_hands_goals_and_terraces_until_the_end():
    """Hidden information: another seat's hand, Goals and face-down Terraces are never shown
    before the end; counts are public."""
    state, _ = play_random_game("inca_empire", 3, 5)
    view = GAME.view(state, 1)
    assert len(view["hands"][0]) == len(state["hands"][0]) and view["final"]
    live = GAME.setup(["a", "b", "c"], 5, {})
    v = GAME.view(live, 1)
    assert "hands" not in v and "goals" not in v and v["you"]["seat"] == 1
    assert v["players"][0]["hand_count"] == len(live["hands"][0])
    assert not any(g in canonical_json(v) for g in live["goals"][0])
