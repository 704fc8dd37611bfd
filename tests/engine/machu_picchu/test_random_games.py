"""Random legal games for 2–5 players (brief: hypothesis): they end without a dead end,
goods and Incas are conserved (bank + players + board + market), no count goes negative, and
replay equals live play.  Two choosers: uniform (the shared playthrough helper) and one that
rarely stays, so games go deeper (more trading, Incas, priests, summits)."""
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from engine import canonical_json
from engine.games.machu_picchu import data
from engine.games.machu_picchu.data import ORDER_CHOICES
from tests.engine.playthrough import assert_replay_equals_live, play_random_game

from .helpers import GAME, incas, totals


def check_invariants(state):
    assert totals(state) == data.COMPONENTS
    n = state["n"]
    for seat in range(n):
        assert incas(state, seat) == data.INCAS_PER_PLAYER[n]
        p = state["players"][seat]
        assert min(p["goods"].values()) >= 0 and p["supply"] >= 0
        assert 0 <= p["scout"] < data.SUMMIT
    assert min(state["bank"].values()) >= 0
    assert all(0 <= v <= len(data.MARKET_PRICES) for v in state["market"].values())
    assert all(0 <= v <= data.BONUS_CAP for v in state["bonus"].values())
    cards = sorted(state["deck"] + [c for p in state["players"] for c in p["cards"]])
    assert cards == list(range(len(data.CARDS)))
    assert all(v >= 0 for v in state["priests_left"].values())
    assert sum(state["priests_left"].values()) + sum(
        sum(p["priests"].values()) for p in state["players"]) == data.TOTAL_PRIESTS


def _check(game, before, after, seat, action):
    check_invariants(after)


SETTINGS = settings(max_examples=25, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(players=st.integers(2, 5), seed=st.integers(0, 2**31))
def test_uniform_random_games_end_conserve_and_replay(players, seed):
    state, moves = play_random_game("machu_picchu", players, seed, {}, _check)
    assert_replay_equals_live("machu_picchu", players, seed, {}, state, moves)
    assert GAME.outcome(state)["winners"]


def near_the_end(state, variant):
    """Move cards / priests to seat 0 (still conserved) so a rescue end comes quickly."""
    if variant == "short_deck":
        state["players"][0]["cards"] += state["deck"][3:]
        del state["deck"][3:]
    elif variant == "few_priests":
        for kind, left in state["priests_left"].items():
            state["players"][0]["priests"][kind] += left - 1
            state["priests_left"][kind] = 1


def play_deep(players, seed, variant=None):
    names = [f"P{i}" for i in range(players)]
    start = GAME.setup(names, seed, {})
    near_the_end(start, variant)
    state = GAME.apply(start, 0, {"type": "standing_orders", "orders": {"produce": "ask"}})
    chooser = random.Random(seed)
    moves = []
    check_invariants(state)  # and every state after a move, once
    while GAME.outcome(state) is None:
        assert len(moves) < 20_000
        seats = GAME.to_act(state)
        assert seats
        if chooser.random() < 0.02:          # some seat changes its standing orders
            seat = chooser.randrange(players)
            action = {"type": "standing_orders", "orders": {
                key: chooser.choice(values) for key, values in ORDER_CHOICES.items()}}
            GAME.apply_in_place(state, seat, action)
            moves.append((seat, action))
            check_invariants(state)
            continue
        seat = chooser.choice(seats)
        legal = GAME.legal_actions(state, seat)
        assert legal
        active = [a for a in legal if a["type"] not in ("stay", "done")]
        action = chooser.choice(active if active and chooser.random() < 0.9 else legal)
        GAME.apply_in_place(state, seat, action)
        moves.append((seat, action))
        check_invariants(state)
        if len(moves) % 50 == 0:
            for s in range(players):
                view = GAME.view(state, s)
                assert all("cards" not in p for p in view["players"]) or state["over"]
    assert GAME.to_act(state) == []
    again = GAME.apply(start, 0, {"type": "standing_orders", "orders": {"produce": "ask"}})
    for seat, action in moves:
        GAME.apply_in_place(again, seat, action)
    assert canonical_json(again) == canonical_json(state)
    return GAME.outcome(state)


@SETTINGS
@given(players=st.integers(2, 5), seed=st.integers(0, 2**31))
def test_deep_random_games_end_conserve_and_replay(players, seed):
    assert play_deep(players, seed)["reason"] in ("conquest", "rescue_deck", "rescue_priests")


@settings(max_examples=8, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**31))
def test_random_games_reach_the_rescue_ends(players, seed):
    assert play_deep(players, seed, "short_deck")["reason"] in ("rescue_deck", "rescue_priests")
    assert play_deep(players, seed, "few_priests")["reason"]   # random play may not buy all


def test_every_player_count_reaches_an_end():
    """One fixed game per player count, so each count is always covered."""
    for players in (2, 3, 4, 5):
        state, moves = play_random_game("machu_picchu", players, 1000 + players, {}, _check)
        assert GAME.outcome(state)["reason"] in ("conquest", "rescue_deck", "rescue_priests")
