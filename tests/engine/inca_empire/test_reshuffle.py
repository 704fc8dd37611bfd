"""After a rollback every Era deck is in a new order: the cards dealt next are not the ones
the rolled-back moves showed."""
from __future__ import annotations

from engine import clone, get_game

GAME = get_game("inca_empire")
KEY = 2 ** 255 + 7


def test_the_next_cards_dealt_differ_after_a_rollback():
    state = GAME.setup(["A", "B", "C"], 42, {})
    again = clone(state)
    GAME.reshuffle_unseen(again, KEY)
    for era, deck in state["decks"].items():
        assert sorted(again["decks"][era]) == sorted(deck)
        assert again["decks"][era][-3:] != deck[-3:], era  # cards are dealt from the end
    assert again["hands"] == state["hands"] and again["goals"] == state["goals"]
    assert again["discard"] == state["discard"] and again["table"] == state["table"]
