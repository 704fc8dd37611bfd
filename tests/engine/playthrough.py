"""Random legal play through any game, shared by the contract tests and per-game tests."""
from __future__ import annotations

import json
import random

from engine import canonical_json, get_game, replay

MAX_MOVES = 20_000


def play_random_game(name: str, players: int, seed: int, options: dict | None = None,
                     check_every_move=None):
    """Play legal moves chosen by ``random.Random(seed)`` until the game ends.

    Returns ``(state, moves)``.  Fails the test on a dead end (someone must act but has no
    legal action), on an input state mutated by ``apply``, or on a game that never ends."""
    game = get_game(name)
    options = options or {}
    names = [f"P{i}" for i in range(players)]
    state = game.setup(names, seed, options)
    chooser = random.Random(seed)
    moves: list[tuple[int, dict]] = []
    while game.outcome(state) is None:
        assert len(moves) < MAX_MOVES, f"{name}: no end after {MAX_MOVES} moves"
        seats = game.to_act(state)
        assert seats, f"{name}: nobody to act but no outcome (dead end) after {len(moves)} moves"
        seat = chooser.choice(seats)
        legal = game.legal_actions(state, seat)
        assert legal, f"{name}: seat {seat} must act but has no legal action"
        action = chooser.choice(legal)
        before = canonical_json(state)
        new_state = game.apply(state, seat, action)
        assert canonical_json(state) == before, f"{name}: apply mutated its input"
        moves.append((seat, action))
        if check_every_move:
            check_every_move(game, state, new_state, seat, action)
        state = new_state
    assert game.to_act(state) == [], f"{name}: game over but to_act is not empty"
    return state, moves


def assert_replay_equals_live(name: str, players: int, seed: int, options: dict, state, moves):
    game = get_game(name)
    names = [f"P{i}" for i in range(players)]
    again = replay(game, names, seed, options, moves)
    assert canonical_json(again) == canonical_json(state)
    assert json.loads(canonical_json(state)) == state, "state is not plain JSON data"
