"""After a rollback the Sacrifice deck, the one pile nobody sees, is in a new order: the cards
the next summit draws are not the ones the rolled-back moves let someone draw."""
from __future__ import annotations

from engine import clone, get_game

GAME = get_game("machu_picchu")
KEY = 2 ** 255 + 7


def test_the_next_summit_draws_other_cards_after_a_rollback():
    state = GAME.setup(["A", "B", "C"], 42, {})
    again = clone(state)
    GAME.reshuffle_unseen(again, KEY)
    assert again["deck"][:3] != state["deck"][:3]
    assert sorted(again["deck"]) == sorted(state["deck"])
    assert [p["cards"] for p in again["players"]] == [p["cards"] for p in state["players"]]


def test_cards_returned_to_the_bottom_stay_in_the_deck():
    state = GAME.setup(["A", "B", "C"], 42, {})
    returned = state["players"][0]["cards"].pop()
    state["deck"].append(returned)
    GAME.reshuffle_unseen(state, KEY)
    assert returned in state["deck"] and returned not in state["players"][0]["cards"]
