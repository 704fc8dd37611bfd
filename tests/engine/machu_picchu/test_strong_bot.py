"""The strong bot (a search over what the seat cannot see, ``strong_bot``): it plays legal
moves, the same move for the same state, never one that depends on other seats' cards or
orders, the deck's order or the seed; and it finds the Sun Clock, the House of Virgins and
the rescue of Machu Picchu when they are clearly best."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.core import without_label
from engine.games.machu_picchu import data, hidden, strong_bot

from .helpers import GAME, act, give_priest, goods, options, started, turn_of

CONDOR_PUMA_CARD = next(c["id"] for c in data.CARDS if set(c["icons"]) == {"condor", "puma"})


@pytest.fixture
def quick(monkeypatch):
    """A small budget, so each decision of a test takes a few milliseconds."""
    monkeypatch.setattr(GAME, "search_settings", replace(strong_bot.SETTINGS, iterations=12))


def decisions(players: int, seed: int, every: int):
    """(state, seat) every ``every`` decisions of a game the simple bots play."""
    state = started(players, seed)
    for move in range(300):
        if GAME.outcome(state) is not None:
            return
        seat = GAME.to_act(state)[0]
        if move % every == 0:
            yield state, seat
        GAME.apply_in_place(state, seat, strong_bot.bot.simple_bot_action(state, seat))


def test_the_strong_bot_plays_a_legal_move_and_the_same_one_when_asked_again(quick):
    for state, seat in decisions(3, 11, every=17):
        chosen = GAME.bot_action(state, seat, "strong")
        assert without_label(chosen) in options(state, seat)
        assert GAME.bot_action(state, seat, "strong") == chosen


def test_the_strong_bot_is_blind_to_other_hands_their_orders_the_deck_and_the_seed(quick):
    for state, seat in decisions(4, 12, every=29):
        for other in range(4):
            if other != seat:
                act(state, other, type="standing_orders",
                    orders={"produce": "never", "temple_sacrifice": "none"})
        chosen = without_label(GAME.bot_action(state, seat, "strong"))
        for holder in [None, *(s for s in range(4) if s != seat)]:
            varied = GAME.vary_secrets(state, holder)
            assert without_label(GAME.bot_action(varied, seat, "strong")) == chosen


def test_a_redeal_keeps_each_hand_size_and_every_card_and_guesses_orders_alike():
    state = started(3, 13)
    state["players"][1]["orders"] = {"produce": "never", "temple_sacrifice": "ask",
                                     "main_temple": "goods_only"}
    before = sorted(state["deck"] + [c for p in state["players"] for c in p["cards"]])
    world = GAME.determinize(state, 0, random.Random(5))
    assert sorted(world["deck"] + [c for p in world["players"] for c in p["cards"]]) == before
    assert [len(p["cards"]) for p in world["players"]] == [1, 1, 1]
    assert world["players"][0]["cards"] == state["players"][0]["cards"]
    assert world["players"][1]["orders"] == {"produce": "always", "temple_sacrifice": "ask",
                                             "main_temple": "all"}
    assert hidden.neutral_orders(state["players"][0]["orders"]) == state["players"][0]["orders"]


def nothing_else_to_do(state: dict, seat: int) -> None:
    """Every temple and production district used today, no goods, no Moon Tile left."""
    state["used_today"] = list(data.PRODUCTION) + list(data.TEMPLES)
    goods(state, seat, corn=0, llama=0, coca=0, pottery=0, cloth=0)
    state["moon_left"] = []


def test_at_the_sun_clock_it_sends_an_inca_there_when_nothing_else_is_to_be_had():
    """Its Prince at the Sun Clock, nothing else to gain today: the Inca sent there brings
    three goods and three steps (to the summit: a Sacrifice Card) at night."""
    state = turn_of(started(3, 14), 0, "main_temple")
    nothing_else_to_do(state, 0)
    state["players"][0]["scout"] = 17
    act(state, 0, type="move", to="sun_clock")
    chosen = without_label(GAME.bot_action(state, 0, "strong"))
    assert chosen == {"type": "sun_clock", "from": "corn_terraces"}
    act(state, 0, **chosen)
    assert state["sun_clock"][0] == 1


def test_it_takes_the_last_virgin_to_rescue_machu_picchu_when_that_wins():
    """Ahead on points with the goods for a Virgin of the Sun and only one left: the House of
    Virgins ends the game at once (rescue), and the seat wins it."""
    state = turn_of(started(3, 15), 0, "central_plaza")
    for kind in data.PRIEST_KINDS:
        give_priest(state, 0, kind, data.PRIESTS[kind]["count"] - (kind == "sun"))
    state["deck"].append(state["players"][0]["cards"][0])
    state["deck"].remove(CONDOR_PUMA_CARD)
    state["players"][0]["cards"] = [CONDOR_PUMA_CARD]
    goods(state, 0, cloth=3, coca=1, pottery=1)
    chosen = GAME.bot_action(state, 0, "strong")
    assert without_label(chosen) == {"type": "move", "to": "house_of_virgins"}
    act(state, 0, **without_label(chosen))
    act(state, 0, **without_label(GAME.bot_action(state, 0, "strong")))
    outcome = GAME.outcome(state)
    assert outcome["reason"] == "rescue_priests" and outcome["winners"] == [0]


def test_a_playout_runs_until_the_seat_is_to_move_its_prince_again():
    """After its move, the other seats' turns are played and the playout stops where the
    seat's Prince is to move again: the next turn is valued, not guessed."""
    state = started(3, 16)
    before = state["turn"]
    act(state, 0, type="move", to="central_plaza")
    strong_bot.play_on(state, 0)
    assert state["queue"][0] == {"k": "move", "seat": 0}
    assert state["turn"] == before + 3
    assert GAME.outcome(state) is None


def test_on_the_last_day_a_playout_runs_to_the_end_of_the_game():
    """On the last day the conquest's multipliers decide: the playout reaches them."""
    state = turn_of(started(3, 17), 0)
    state["day"] = data.LAST_DAY
    act(state, 0, type="move", to="corn_terraces")
    strong_bot.play_on(state, 0)
    assert GAME.outcome(state) is not None


def test_it_may_choose_a_move_the_lookahead_ranks_below_its_first(quick):
    """The candidates are the lookahead's best few, and the playouts may prefer another than
    its first: somewhere in a game the strong bot's Prince move differs from the easy one's."""
    differs = 0
    for state, seat in decisions(3, 18, every=7):
        if state["queue"][0]["k"] != "move":
            continue
        strong = without_label(GAME.bot_action(state, seat, "strong"))
        ranked = strong_bot.candidates(state, seat)
        assert strong in ranked
        differs += strong != ranked[0]
    assert differs > 0


def test_a_stay_is_always_among_the_moves_the_strong_bot_weighs():
    """A day ends only when its third Moon Tile is taken (zh 一日完结), so a bot that never
    weighs staying could keep a game going without end."""
    from engine.games.machu_picchu import rules, strong_bot
    from engine import get_game
    import random
    game = get_game("machu_picchu")
    chooser = random.Random(7)
    for seed in range(6):
        state = game.setup(["A", "B", "C"], seed, {})
        weighed = 0
        while game.outcome(state) is None and weighed < 12:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            if strong_bot.searched(state) and any(a["type"] == "stay" for a in legal):
                assert any(m["type"] == "stay" for m in strong_bot.candidates(state, seat))
                weighed += 1
            game.apply_in_place(state, seat, chooser.choice(legal))


def test_a_prince_move_that_gains_nothing_is_not_weighed_where_the_seat_may_stay():
    """Shuttling between emptied districts only delays the day's end, which comes only by
    Moon Tiles (zh 一日完结); where a stay is offered, every Prince move weighed gains
    something this turn."""
    from engine.games.machu_picchu import bot, lookahead, rules, strong_bot
    from engine.core import without_label
    from engine import get_game
    import random
    game = get_game("machu_picchu")
    chooser = random.Random(11)
    checked = 0
    for seed in range(4):
        state = game.setup(["A", "B"], seed, {})
        while game.outcome(state) is None and checked < 40:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            if strong_bot.searched(state) and any(a["type"] == "stay" for a in legal):
                world = lookahead.seen_world(state, seat)
                now = lookahead.value(world, seat)
                for move in strong_bot.candidates(state, seat):
                    if move["type"] == "move":
                        assert lookahead.worth_after(world, seat, without_label(move),
                                                     bot.default_action) > now
                checked += 1
            game.apply_in_place(state, seat, chooser.choice(legal))
    assert checked >= 20
