"""Every registered game keeps the engine protocol (engine/core.py)."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import GAMES, IllegalAction, canonical_json, get_game
from engine.core import find_legal, without_label
from tests.engine.playthrough import assert_replay_equals_live, play_random_game

GAME_NAMES = sorted(GAMES)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_registry_entry_describes_the_game(name):
    game = get_game(name)
    assert game.name == name and game.title
    assert 1 <= game.min_players <= game.max_players
    assert game.rules_version


def test_unknown_game_is_a_clear_error():
    with pytest.raises(IllegalAction, match="unknown game"):
        get_game("chess")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_wrong_player_count_is_refused(name):
    game = get_game(name)
    with pytest.raises(IllegalAction):
        game.setup(["solo"] * (game.max_players + 1), 1, {})


@pytest.mark.parametrize("name", GAME_NAMES)
def test_garbage_action_is_illegal_and_changes_nothing(name):
    game = get_game(name)
    state = game.setup([f"P{i}" for i in range(game.min_players)], 7, {})
    before = canonical_json(state)
    seat = game.to_act(state)[0]
    for garbage in ({"type": "no-such-thing"}, {}, {"type": None}):
        with pytest.raises(IllegalAction):
            game.apply(state, seat, garbage)
        with pytest.raises(IllegalAction):
            game.apply_in_place(state, seat, garbage)
        assert canonical_json(state) == before


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_seat_that_need_not_act_cannot_act(name):
    game = get_game(name)
    state = game.setup([f"P{i}" for i in range(game.max_players)], 3, {})
    idle = [s for s in range(game.max_players) if s not in game.to_act(state)]
    for seat in idle:
        assert game.legal_actions(state, seat) == []


@pytest.mark.parametrize("name", GAME_NAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_legal_games_end_and_replay_exactly(name, data):
    game = get_game(name)
    players = data.draw(st.integers(game.min_players, game.max_players))
    seed = data.draw(st.integers(0, 2**31))

    def check(game, before, after, seat, action):
        json.dumps(game.view(after, None))
        assert game.decision_key(after, seat) is not None or True

    state, moves = play_random_game(name, players, seed, {}, check)
    assert_replay_equals_live(name, players, seed, {}, state, moves)
    result = game.outcome(state)
    assert set(result) >= {"scores", "winners"}
    assert result["winners"] and set(result["winners"]) <= set(range(players))
    for seat in range(players):
        json.dumps(game.view(state, seat))


def bot_decisions(name: str, seed: int, moves: int):
    """(game, state, seat) at each of the first ``moves`` decisions of a game the bots play
    with the fewest players; the caller looks, then the bot's move is applied."""
    game = get_game(name)
    state = game.setup([f"P{i}" for i in range(game.min_players)], seed, {})
    for _ in range(moves):
        if game.outcome(state) is not None:
            return
        seat = game.to_act(state)[0]
        yield game, state, seat
        state = game.apply(state, seat, game.bot_action(state, seat))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_default_and_bot_actions_are_legal(name):
    for game, state, seat in bot_decisions(name, 11, 200):
        legal = [without_label(a) for a in game.legal_actions(state, seat)]
        for chosen in (game.default_action(state, seat), game.bot_action(state, seat)):
            assert without_label(chosen) in legal


@pytest.mark.parametrize("name", GAME_NAMES)
def test_finding_a_submitted_action_gives_the_listed_one_and_refuses_the_rest(name):
    """``find_legal_action`` (what the service checks a submitted move with) answers as
    looking the action up in ``legal_actions`` does: the listed action with its label for
    each one listed, sent without labels; the same refusal for one that is not listed."""
    bogus = {"type": "no-such-move"}
    for game, state, seat in bot_decisions(name, 5, 120):
        legal = game.legal_actions(state, seat)
        for action in legal:
            assert game.find_legal_action(state, seat, without_label(action)) == action
        with pytest.raises(IllegalAction) as refused:
            game.find_legal_action(state, seat, bogus)
        with pytest.raises(IllegalAction) as listed:
            find_legal(legal, bogus)
        assert str(refused.value) == str(listed.value)


# A seed no view could show by chance: 256 bits, as the service draws them (fair play).
TELLTALE_SEED = 2 ** 255 + 987_654_321_123_456_789


@pytest.mark.parametrize("name", GAME_NAMES)
def test_no_view_ever_contains_the_seed(name):
    """The state keeps ``state["seed"]`` for later draws; a view (a seat's or the public's)
    must never copy it, or every hand and future draw would be known to whoever sees it."""
    game = get_game(name)
    players = game.max_players
    seen = []

    def check(game, before, after, seat, action):
        for state in (before, after):
            for viewer in [None, *range(players)]:
                shown = canonical_json(game.view(state, viewer))
                seen.append(shown)
                assert str(TELLTALE_SEED) not in shown, (name, viewer)
                assert '"seed"' not in shown, (name, viewer)

    state, _moves = play_random_game(name, players, TELLTALE_SEED, {}, check)
    assert state["seed"] == TELLTALE_SEED and seen  # the state does keep it
