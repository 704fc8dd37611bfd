"""The bot: legal, reproducible, blind to other seats' secrets, and using the whole board
(the Sun Clock, the House of Virgins, Priests and Virgins, Moon Tiles by their worth)."""
from __future__ import annotations

from collections import Counter

import pytest

from engine import canonical_json
from engine.games.machu_picchu import bot, lookahead

from .helpers import GAME, goods, options, started, turn_of

SEEDS = (1, 2, 3)


def bot_game(players: int, seed: int, check=None, rules_version=None) -> tuple[dict, Counter]:
    """An all-bot game; counts the districts visited and the Priests and Virgins taken;
    ``check(state, seat, action)`` runs before each move."""
    state = GAME.setup([f"P{i}" for i in range(players)], seed, {})
    GAME.keep_rules_version(state, rules_version)
    counts = Counter()
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        action = GAME.bot_action(state, seat)
        if check:
            check(state, seat, action)
        counts[action.get("to") or action.get("priest") or action["type"]] += 1
        GAME.apply_in_place(state, seat, action)
    return state, counts


def test_every_choice_is_legal_and_the_same_when_asked_again():
    def check(state, seat, action):
        assert GAME.find_legal_action(state, seat, action) is not None
        assert GAME.bot_action(state, seat) == action

    state, _ = bot_game(3, 1, check)
    assert GAME.outcome(state)


def test_a_choice_does_not_change_with_what_other_seats_or_nobody_know():
    """Other hands, their standing orders and the deck order differ; the choice does not."""
    seen = 0

    def check(state, seat, action):
        nonlocal seen
        seen += 1
        if seen % 7:
            return
        for holder in [None] + [s for s in range(state["n"]) if s != seat]:
            assert GAME.bot_action(GAME.vary_secrets(state, holder), seat) == action

    bot_game(3, 2, check)


def test_its_own_secret_may_change_its_choice_only_through_its_own_view():
    """The world it plans in is dealt from its own view: the same view gives the same world."""
    state = started(3, 4)
    first = lookahead.seen_world(state, 0)
    again = lookahead.seen_world(GAME.vary_secrets(state, 1), 0)
    assert canonical_json(first) == canonical_json(again)
    assert first["players"][0]["cards"] == state["players"][0]["cards"]


@pytest.fixture(scope="module")
def games():
    return [bot_game(players, seed) for players in (2, 4) for seed in SEEDS]


def test_bots_visit_the_sun_clock_and_the_house_of_virgins(games):
    visits = sum((counts for _, counts in games), Counter())
    assert visits["sun_clock"] >= 1 and visits["house_of_virgins"] >= 1


def test_bots_take_priests_and_virgins(games):
    taken = sum((counts for _, counts in games), Counter())
    assert taken["sun"] >= 1 and taken["condor"] + taken["puma"] >= 1


def test_bot_games_end(games):
    assert all(GAME.outcome(state) for state, _ in games)


def test_bots_finish_a_game_that_trades_one_good_at_a_time():
    """A game of an older rules version trades step by step at the plaza; the bot still
    ends every visit and the game."""
    state, counts = bot_game(2, 5, rules_version="4")
    assert GAME.outcome(state) and sum(counts.values()) < 1000


def test_a_moon_tile_is_chosen_by_what_it_gives_the_seat():
    """With the goods for a Priest of the Condor but its cloth, the cloth tile is worth more
    to the seat than the llama tile, three steps more than two; the best is not the first
    listed (3 corn)."""
    state = turn_of(started(2), 0, "sun_clock")
    goods(state, 0, corn=5, cloth=0, coca=1, pottery=1, llama=0)
    world = lookahead.seen_world(state, 0)
    worth = {a["tile"]: lookahead.worth_after(world, 0, a)
             for a in options(state, 0) if a["type"] == "stay"}
    assert worth["cloth"] > worth["llama"] and worth["steps3"] > worth["steps2"]
    assert max(worth, key=worth.get) != "corn3"


def test_the_simple_bot_stays_available_as_the_easy_level():
    state = started(2)
    assert GAME.find_legal_action(state, 0, bot.simple_bot_action(state, 0)) is not None


def test_at_the_plaza_it_buys_in_one_trade_what_completes_a_priest():
    """Coca and pottery but no cloth: one trade buys the cloth a Priest needs, no more than
    the dearest Priest it then completes (2 cloth: a Priest of the Puma)."""
    state = turn_of(started(2), 0, "sun_clock")
    GAME.apply_in_place(state, 0, {"type": "move", "to": "central_plaza"})
    goods(state, 0, corn=12, cloth=0, coca=1, pottery=1)
    chosen = GAME.bot_action(state, 0)
    assert chosen["type"] == "trade" and chosen["buy"] in ({"cloth": 1}, {"cloth": 2})
    assert not chosen["sell"]
