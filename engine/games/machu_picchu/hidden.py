"""What a seat cannot see, drawn again for a search (``GameBase.determinize``).

Two things are secret from a seat in Machu Picchu.  Other seats' Sacrifice Cards: the rules
say "玩家所得的献祭牌内容是秘密，但持有献祭牌的数量则必须公开" (zh.full 印加之路: a player's cards
are secret, only how many they hold is public).  And what other seats' standing orders answer
(``view.vary_hidden``): whether a seat answers by itself shows, what it answers does not.

Why the cards are pooled with the deck and sorted before they are shuffled: the seat knows
only which cards it does not hold, never where they are, so every card it has not seen may be
in any other hand or anywhere in the deck.  Sorting the pool first removes every trace of the
real deal; what is dealt then depends only on the seat's own view and the chooser.
"""
from __future__ import annotations

import random

from . import data


def redeal_hidden(state: dict, seat: int, chooser: random.Random) -> None:
    """Deal other seats' cards again from the pool of cards ``seat`` has not seen (the same
    count each), the rest back to the deck; give their standing orders a neutral answer."""
    if state["over"]:
        return                     # every hand is shown at the end
    for player in deal_unseen_cards(state, seat, chooser):
        player["orders"] = neutral_orders(player["orders"])


def deal_unseen_cards(state: dict, seat: int, chooser: random.Random) -> list[dict]:
    """Deal the cards ``seat`` has not seen to the other seats again (the same count each, from
    the sorted pool), the rest back to the deck; the other seats' players, for their orders."""
    others = [p for s, p in enumerate(state["players"]) if s != seat]
    unseen = sorted(state["deck"] + [c for p in others for c in p["cards"]])
    chooser.shuffle(unseen)
    for player in others:
        count = len(player["cards"])
        player["cards"], unseen = unseen[:count], unseen[count:]
    state["deck"] = unseen
    return others


def neutral_orders(orders: dict) -> dict:
    """A seat's standing orders as another seat may guess them: "ask" stays (everyone sees the
    seat asked), any other answer becomes the first answer the order offers (produce
    "always", sacrifice "all"): the most common wish, and the same whatever was set."""
    return {key: value if value == "ask" else first_answer(key)
            for key, value in orders.items()}


def first_answer(key: str) -> str:
    return next(choice for choice in data.ORDER_CHOICES[key] if choice != "ask")
