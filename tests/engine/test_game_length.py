"""No game runs without end: random legal games of every game and table size end within a
stated number of moves, also when the chooser keeps every visit going as long as it can."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import GAMES, get_game
from engine.core import without_label
from engine.games.incan_gold import data as incan_gold
from engine.games.machu_picchu import data as machu_picchu

# Incan Gold: each draw asks every explorer still in the cave once, and a round ends at the
# latest on the draw after every treasure, every artifact and one hazard of each kind are
# out (the next card repeats a hazard).
INCAN_GOLD_DRAWS_PER_ROUND = (len(incan_gold.TREASURE_VALUES) + incan_gold.ROUNDS
                              + len(incan_gold.HAZARD_KINDS) + 1)
# Machu Picchu: a plaza visit is one trade, so each turn is a bounded number of decisions (the
# move, one visit, each seat's sacrifices and production, summit cards); a day ends with its
# third Moon Tile, which the rules leave to the players, so this is the bound for players who
# stay now and then, as random ones do: 640 random games of 2 to 5 seats (both choosers
# below) took at most 8.4 moves a seat per day (150 moves at two seats, 210 at five), against
# thousands when the plaza traded one good per decision.
MACHU_PICCHU_MOVES_PER_SEAT_PER_DAY = 20
# Inca Empire: a seat's actions of an Era end when it passes or runs out of what it may
# place (70 tokens in all); 480 random games of 2 to 5 seats took at most 78 moves a seat.
INCA_EMPIRE_MOVES_PER_SEAT = 100


def most_moves(name: str, players: int) -> int:
    """The most moves a game of ``name`` at a table of ``players`` may take."""
    if name == "incan_gold":
        return incan_gold.ROUNDS * INCAN_GOLD_DRAWS_PER_ROUND * players
    if name == "machu_picchu":
        days = machu_picchu.LAST_DAY - machu_picchu.START_DAY[players] + 1
        return MACHU_PICCHU_MOVES_PER_SEAT_PER_DAY * days * players
    return INCA_EMPIRE_MOVES_PER_SEAT * players


ENDS_A_STEP = frozenset({"done", "pass", "leave"})


def moves_until_the_end(name: str, players: int, seed: int, keep_going: bool,
                        rules_version: str | None = None) -> int:
    """Moves of a random legal game (``random.Random(seed)`` chooses); ``keep_going``: the
    chooser never ends a step it may continue (no "done" while anything else is offered: at
    the plaza it trades whenever it can).  Stops counting past twice the bound."""
    game = get_game(name)
    state = game.setup([f"P{i}" for i in range(players)], seed, {})
    game.keep_rules_version(state, rules_version)
    chooser = random.Random(seed)
    moves, cap = 0, 2 * most_moves(name, players)
    while game.outcome(state) is None and moves <= cap:
        seat = chooser.choice(game.to_act(state))
        legal = game.legal_actions(state, seat)
        if keep_going:
            legal = [a for a in legal if a["type"] not in ENDS_A_STEP] or legal
        game.apply_in_place(state, seat, without_label(chooser.choice(legal)))
        moves += 1
    return moves


@pytest.mark.parametrize("keep_going", [False, True], ids=["uniform", "keeps-going"])
@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_random_game_ends_within_its_stated_number_of_moves(name, keep_going, data):
    game = get_game(name)
    players = data.draw(st.integers(game.min_players, game.max_players))
    seed = data.draw(st.integers(0, 2**31))
    assert moves_until_the_end(name, players, seed, keep_going) <= most_moves(name, players)


def test_the_plaza_game_that_ran_for_thousands_of_moves_now_ends():
    """Three seats, seed 151, a chooser that keeps trading: with the plaza's one-good trades
    (rules version 4, still used to replay old games) it never ends; with one trade per
    visit it ends within the bound."""
    bound = most_moves("machu_picchu", 3)
    assert moves_until_the_end("machu_picchu", 3, 151, True) <= bound
    assert moves_until_the_end("machu_picchu", 3, 151, True, rules_version="4") > 2 * bound
