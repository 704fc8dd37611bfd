"""Every game's bots keep what engine/core.py and engine/search.py promise.

A bot sits at the table for an absent friend, so the group must be able to trust it as they
trust a player: it plays only legal moves, it cannot peek (its choice is the same whatever the
other seats hold and whatever order the piles are in), and the same situation always gives the
same move, so a replayed game shows what was played.  The strong bot searches over
*determinizations*, so those are checked first: the seat cannot tell one from the real state,
and nothing the seat cannot see leaks into it.
"""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import GAMES, canonical_json, get_game, search
from engine.core import without_label

GAME_NAMES = sorted(GAMES)
SMALL = search.Settings(iterations=6, horizon=6)


def decisions(name: str, players: int, seed: int, every: int, limit: int = 400):
    """(game, state, seat) every ``every`` decisions of a game random players play."""
    game = get_game(name)
    state = game.setup([f"P{i}" for i in range(players)], seed, {})
    chooser = random.Random(seed)
    for move in range(limit):
        if game.outcome(state) is not None:
            return
        asked = game.to_act(state)
        seat = chooser.choice(asked)
        if move % every == 0:
            yield game, state, seat
        game.apply_in_place(state, seat, chooser.choice(game.legal_actions(state, seat)))


def small_search(game):
    """The game's own strong-bot settings with a budget small enough for a test."""
    own = game.search_settings or search.Settings()
    return replace(own, iterations=SMALL.iterations,
                   horizon=SMALL.horizon if own.evaluate is not None else own.horizon)


def player_counts(game) -> list[int]:
    return sorted({game.min_players, game.max_players})


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_determinization_looks_to_the_seat_exactly_like_the_real_state(name):
    game = get_game(name)
    for players in player_counts(game):
        for game, state, seat in decisions(name, players, 3, every=7):
            world = game.determinize(state, seat, random.Random(1))
            assert canonical_json(game.view(world, seat)) == canonical_json(game.view(state, seat))
            assert game.to_act(world) == game.to_act(state)
            assert ([without_label(a) for a in game.legal_actions(world, seat)]
                    == [without_label(a) for a in game.legal_actions(state, seat)])


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_determinization_depends_on_nothing_the_seat_cannot_see(name):
    """Whatever another seat holds and whatever order the piles are in, the same chooser draws
    the same world: a search over such worlds cannot learn a secret."""
    game = get_game(name)
    for players in player_counts(game):
        for game, state, seat in decisions(name, players, 5, every=9):
            expected = canonical_json(game.determinize(state, seat, random.Random(2)))
            for other in [None, *(s for s in range(players) if s != seat)]:
                varied = game.vary_secrets(state, other)
                assert canonical_json(game.determinize(varied, seat, random.Random(2))) == expected


@pytest.mark.parametrize("name", GAME_NAMES)
def test_determinizations_can_be_played_to_the_end(name):
    game = get_game(name)
    for game, state, seat in decisions(name, game.max_players, 8, every=25):
        world = game.determinize(state, seat, random.Random(3))
        search.simulate(game, world, random.Random(4), search.random_rollout, None, None)
        assert game.outcome(world) is not None


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_strong_bot_plays_a_legal_move_the_same_way_every_time(name, monkeypatch):
    game = get_game(name)
    monkeypatch.setattr(game, "search_settings", small_search(game))
    for game, state, seat in decisions(name, game.min_players, 9, every=23):
        before = canonical_json(state)
        chosen = game.bot_action(state, seat, "strong")
        assert canonical_json(state) == before, "the bot changed the state it was shown"
        legal = [without_label(a) for a in game.legal_actions(state, seat)]
        assert without_label(chosen) in legal
        assert game.bot_action(state, seat, "strong") == chosen


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_strong_bot_cannot_peek_at_other_seats_or_the_piles(name, monkeypatch):
    game = get_game(name)
    monkeypatch.setattr(game, "search_settings", small_search(game))
    for game, state, seat in decisions(name, game.max_players, 12, every=31):
        chosen = without_label(game.bot_action(state, seat, "strong"))
        for other in [None, *(s for s in range(game.max_players) if s != seat)]:
            varied = game.vary_secrets(state, other)
            assert without_label(game.bot_action(varied, seat, "strong")) == chosen


@pytest.mark.parametrize("name", GAME_NAMES)
def test_an_unknown_bot_level_is_refused_by_name(name):
    game = get_game(name)
    state = game.setup([f"P{i}" for i in range(game.min_players)], 1, {})
    with pytest.raises(Exception, match="unknown bot level 'genius'"):
        game.bot_action(state, game.to_act(state)[0], "genius")


def test_flat_monte_carlo_plays_a_legal_move():
    game = get_game("incan_gold")
    for game, state, seat in decisions("incan_gold", 3, 2, every=5, limit=40):
        chosen = search.flat_monte_carlo_action(game, state, seat, rollouts=3)
        assert without_label(chosen) in [without_label(a)
                                         for a in game.legal_actions(state, seat)]
