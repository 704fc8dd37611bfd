"""``reshuffle_unseen``, the engine's half of a rollback that hands nobody the future: on any
state of any game it keeps every seat's view, the epoch and every piece, changes only the
piles nobody sees, and replays exactly."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import GAMES, canonical_json, clone, get_game
from engine.core import RESHUFFLED
from tests.engine.playthrough import play_random_game

GAME_NAMES = sorted(GAMES)
KEY = 2 ** 255 + 12345  # as large as a real key: a SHA-256 digest read as a number


def hidden_piles(name: str, state: dict) -> dict[str, list]:
    """The piles no seat sees, by game (what each game's ``vary_hidden`` varies for nobody)."""
    if name == "incan_gold":
        return {"deck": state["deck"], "artifacts_to_come": state["artifacts_to_come"]}
    if name == "machu_picchu":
        return {"deck": state["deck"]}
    return {f"era {number}": deck for number, deck in state["decks"].items()}


def without_piles(name: str, state: dict) -> dict:
    """The state with its hidden piles emptied and the reshuffle key left out."""
    rest = clone(state)
    rest.pop(RESHUFFLED, None)
    for pile in hidden_piles(name, rest).values():
        pile.clear()
    return rest


def views(game, state: dict) -> list[str]:
    return [canonical_json(game.view(state, seat))
            for seat in [None, *range(len(game_players(state)))]]


def game_players(state: dict) -> list:
    return state["players"] if "players" in state else state["names"]


def states_of_a_random_game(name: str, seed: int) -> list[dict]:
    """Every state of a random legal game, from setup to the end."""
    game = get_game(name)
    states = []

    def keep(game_, before, after, seat, action):
        states.append(before)
    final, _ = play_random_game(name, game.min_players + seed % 2, seed, check_every_move=keep)
    return states + [final]


def assert_reshuffle_keeps_what_anyone_saw(name: str, state: dict, key: int = KEY) -> dict:
    game = get_game(name)
    shuffled = clone(state)
    game.reshuffle_unseen(shuffled, key)
    assert views(game, shuffled) == views(game, state)
    assert shuffled["epoch"] == state["epoch"]
    assert without_piles(name, shuffled) == without_piles(name, state)
    for pile, cards in hidden_piles(name, state).items():
        assert sorted(hidden_piles(name, shuffled)[pile]) == sorted(cards), pile
    for watcher in views(game, shuffled):
        assert str(key) not in watcher
    return shuffled


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_reshuffle_changes_no_view_no_epoch_and_no_piece(name):
    for state in states_of_a_random_game(name, 5)[::7]:
        assert_reshuffle_keeps_what_anyone_saw(name, state)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_reshuffle_reorders_the_unseen_piles_by_its_key_alone(name):
    game = get_game(name)
    state = game.setup([f"P{i}" for i in range(game.min_players)], 11, {})
    once, again, other = clone(state), clone(state), clone(state)
    game.reshuffle_unseen(once, KEY)
    game.reshuffle_unseen(again, KEY)
    game.reshuffle_unseen(other, KEY + 1)
    assert once == again
    assert hidden_piles(name, once) != hidden_piles(name, state)
    assert hidden_piles(name, once) != hidden_piles(name, other)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_finished_game_is_not_reshuffled(name):
    final = states_of_a_random_game(name, 3)[-1]
    game = get_game(name)
    assert game.outcome(final) is not None
    shuffled = clone(final)
    game.reshuffle_unseen(shuffled, KEY)
    assert shuffled == final


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_reshuffled_game_plays_on_to_its_end(name):
    """After the reshuffle the game is an ordinary one: random legal play ends it."""
    game = get_game(name)
    states = states_of_a_random_game(name, 2)
    rewound = assert_reshuffle_keeps_what_anyone_saw(name, states[len(states) // 3])
    chooser = random.Random(9)
    for _ in range(20_000):
        if game.outcome(rewound) is not None:
            break
        seat = chooser.choice(game.to_act(rewound))
        game.apply_in_place(rewound, seat, chooser.choice(game.legal_actions(rewound, seat)))
    assert game.outcome(rewound) is not None and game.to_act(rewound) == []


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAME_NAMES), seed=st.integers(0, 10_000),
       where=st.floats(0, 1), key=st.integers(2 ** 128, 2 ** 256 - 1))
def test_any_state_of_any_game_reshuffles_keeping_every_view(name, seed, where, key):
    states = states_of_a_random_game(name, seed)
    assert_reshuffle_keeps_what_anyone_saw(name, states[int(where * (len(states) - 1))], key)
