"""After a rollback the quest deck, the classic artifacts' order and every later round's deck
are drawn again: the cards the rolled-back turns showed do not come back in that order."""
from __future__ import annotations

from engine import clone

from .helpers import GAME, everyone

KEY = 2 ** 255 + 7


def turned_cards(state: dict, turns: int) -> list[str]:
    """The cards turned while everyone stays ``turns`` times (or until the round ends)."""
    seen = []
    for _ in range(turns):
        round_ = state["round"]
        everyone(state, "stay")
        if state["round"] != round_:
            seen.append(state["history"][-1]["path"][-1]["card"])
            break
        seen.append(state["path"][-1]["card"])
    return seen


def rewound(state: dict, key: int = KEY) -> dict:
    again = clone(state)
    GAME.reshuffle_unseen(again, key)
    return again


def test_cards_turned_after_a_rollback_differ_from_the_ones_the_rolled_back_turns_showed():
    start = GAME.setup(["A", "B", "C"], 42, {})
    before = turned_cards(clone(start), 4)
    after = turned_cards(rewound(start), 4)
    assert before != after
    assert rewound(start)["path"] == start["path"]  # the card already turned stays turned


def every_card_turned(state: dict) -> list[str]:
    paths = [h["path"] for h in state["history"]] + [state["path"]]
    return [card["card"] for path in paths for card in path]


def test_the_rounds_after_a_rollback_are_shuffled_anew():
    start = GAME.setup(["A", "B", "C"], 42, {})
    plain, shuffled = clone(start), rewound(start)
    for state in (plain, shuffled):
        everyone(state, "leave")  # round 1 ends at once, round 2 begins
    assert plain["history"][0] == shuffled["history"][0]
    assert every_card_turned(plain) != every_card_turned(shuffled)
    assert plain["deck"] != shuffled["deck"]


def test_the_classic_artifacts_enter_in_a_new_order_the_printed_ones_in_theirs():
    classic = GAME.setup(["A", "B", "C"], 42, {"artifacts": "classic"})
    assert rewound(classic)["artifacts_to_come"] != classic["artifacts_to_come"]
    printed = GAME.setup(["A", "B", "C"], 42, {})
    assert rewound(printed)["artifacts_to_come"] == printed["artifacts_to_come"]


def test_a_state_never_rewound_shuffles_its_rounds_as_it_always_did():
    """Games recorded before rollbacks reshuffled replay unchanged: no key, no new salt."""
    state = GAME.setup(["A", "B", "C"], 42, {})
    assert "reshuffled" not in state
    everyone(state, "leave")
    assert "reshuffled" not in state
