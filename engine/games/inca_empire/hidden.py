"""What a seat cannot see, drawn again for the strong bot's search (``redeal_hidden``).

A seat knows its own hand, Goals, Terraces and draft choice, the table, the discards and every
count; it does not know what the other seats hold (``view.vary_hidden`` declares exactly what
is secret).  So a determinization pools, for each kind of secret, everything the seat cannot
tell apart -- other seats' Era cards in hand and face-down Terraces together with the current
Era deck; the Start cards other seats still hold; the Goals other seats hold together with the
Goals nobody holds -- sorts each pool (so the result cannot depend on where the cards really
were), shuffles it with the chooser and deals back the same counts.  Other seats' pending
draft choices are then chosen again from their new hands."""
from __future__ import annotations

import random

from . import era
from .data import CARDS, goal_deck


def redeal_hidden(state: dict, seat: int, chooser: random.Random) -> None:
    """Redraw, in place, the other seats' secrets (everything ``seat`` cannot see)."""
    if state["phase"] == era.OVER:
        return  # every hand, Goal and Terrace is shown at the end
    others = [s for s in range(len(state["players"])) if s != seat]
    _redeal_era_cards(state, others, chooser)
    _redeal_start_cards(state, others, chooser)
    _redeal_goals(state, others, chooser)
    _redraw_draft_choices(state, others, chooser)


def _fixed(state: dict) -> set[str]:
    """A card the seat may know although another seat holds it: the one being built or
    terraced right now (its step is open on the table)."""
    pending = state["pending"]
    return {pending["card"]} if pending is not None else set()


def _secret_positions(state: dict, others: list[int]) -> list[tuple[list, int]]:
    """Where other seats hold an Era card the seat cannot see: (list, index) pairs."""
    fixed = _fixed(state)
    places = []
    for s in others:
        for cards in (state["hands"][s], state["terraces"][s]):
            places.extend((cards, i) for i, c in enumerate(cards)
                          if c not in fixed and CARDS[c]["type"] != "start")
    return places


def _redeal_era_cards(state: dict, others: list[int], chooser: random.Random) -> None:
    """Other seats' hidden Era cards and the current deck are one unknown pool to the seat."""
    deck = state["decks"][str(min(state["era"], era.ERAS))]
    places = _secret_positions(state, others)
    pool = sorted([cards[i] for cards, i in places] + deck)
    chooser.shuffle(pool)
    for cards, i in places:
        cards[i] = pool.pop()
    deck[:] = pool
    for s in others:
        state["hands"][s].sort()


def _redeal_start_cards(state: dict, others: list[int], chooser: random.Random) -> None:
    """The Start cards not yet built are held one each by seats the seat cannot tell apart."""
    fixed = _fixed(state)
    holders = [(s, i) for s in others for i, c in enumerate(state["hands"][s])
               if CARDS[c]["type"] == "start" and c not in fixed]
    pool = sorted(state["hands"][s][i] for s, i in holders)
    chooser.shuffle(pool)
    for s, i in holders:
        state["hands"][s][i] = pool.pop()
    for s in others:
        state["hands"][s].sort()


def _redeal_goals(state: dict, others: list[int], chooser: random.Random) -> None:
    """Goals held by other seats and Goals nobody holds look the same to the seat."""
    mine = set()
    for s in range(len(state["players"])):
        if s not in others:
            mine.update(state["goals"][s])
    pool = sorted(set(goal_deck(state["rules_version"])) - mine)
    chooser.shuffle(pool)
    for s in others:
        count = len(state["goals"][s])
        state["goals"][s] = sorted(pool[:count])
        del pool[:count]


def _redraw_draft_choices(state: dict, others: list[int], chooser: random.Random) -> None:
    """A seat sees only how many cards another has chosen to show, not which."""
    if state["phase"] != era.SHOW:
        return
    shown = state["draft"]["shown"]
    for s in others:
        if shown[s]:
            shown[s][:] = chooser.sample(era.draftable(state, s), len(shown[s]))
