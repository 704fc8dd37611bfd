"""What a seat may see (ja 2 注意: 他人のテントに触ったり、その中身を見て数えることはできない;
protocol: view = everything that seat may know and nothing more)."""
from __future__ import annotations

import random

from engine import canonical_json

from .helpers import GAME, STAY, everyone, staged


def test_view_has_the_public_table():
    """Protocol: round, path, players, you, your_choice, removed hazards, deck size."""
    state = staged(3, path=[("t7", 1), "h:fire", "a5"], next_cards=["t4"], carrying=[2, 2, 2])
    view = GAME.view(state, 1)
    assert view["round"] == 1 and view["you"] == 1 and view["your_choice"] is None
    assert view["path"] == [{"type": "treasure", "value": 7, "gems_left": 1},
                            {"type": "hazard", "hazard": "fire", "gems_left": 0},
                            {"type": "artifact", "value": 5, "gems_left": 0}]
    assert view["deck_left"] == len(state["deck"])
    assert view["removed_hazards"] == [] and view["hazards_showing"] == ["fire"]
    assert view["players"][0] == {"seat": 0, "name": "P0", "in_temple": True, "carrying": 2,
                                  "tent": None, "artifacts": [], "decided": False}
    assert view["to_act"] == [0, 1, 2] and view["phase"] == "choose"
    assert view["decision_key"] == "r1t1"


def test_only_your_own_tent_is_shown():
    """Rule (ja 2 注意): tents are secret; a seat sees its own."""
    state = staged(3, path=["t1"], next_cards=["t2"])
    for player, tent in zip(state["players"], (4, 5, 6)):
        player["tent"] = tent
    assert [p["tent"] for p in GAME.view(state, 1)["players"]] == [None, 5, None]
    assert [p["tent"] for p in GAME.view(state, None)["players"]] == [None, None, None]


def test_all_tents_are_shown_once_the_game_is_over():
    """Decision (docs): final scores reveal tents, so the end view shows them all."""
    state = staged(3, path=["t1"], next_cards=["t2"], carrying=[1, 2, 3])
    while GAME.outcome(state) is None:
        everyone(state, "leave")
    view = GAME.view(state, None)
    tents = [p["tent"] for p in state["players"]]
    assert [p["tent"] for p in view["players"]] == tents and tents[2] > tents[0]
    assert view["game_over"] and view["outcome"]["winners"] == [2]


def test_own_pending_choice_is_shown_others_only_as_decided():
    """Rule (ja 1: ひそかに握り): others see that a seat chose, never what."""
    state = staged(3, path=["t1"], next_cards=["t2"])
    GAME.apply_in_place(state, 0, STAY)
    mine, theirs = GAME.view(state, 0), GAME.view(state, 1)
    assert mine["your_choice"] == "stay" and theirs["your_choice"] is None
    assert theirs["players"][0]["decided"] is True
    assert "stay" not in canonical_json(theirs)


def test_view_does_not_depend_on_deck_order():
    """Protocol: the deck order is hidden; reshuffling it changes no seat's view."""
    state = staged(4, path=["t1", "h:mummies"], next_cards=["t2"])
    other = staged(4, path=["t1", "h:mummies"], next_cards=["t2"])
    random.Random(3).shuffle(other["deck"])
    assert other["deck"] != state["deck"]
    for seat in (None, 0, 1, 2, 3):
        assert canonical_json(GAME.view(state, seat)) == canonical_json(GAME.view(other, seat))


def test_view_is_a_copy():
    """Protocol: a page editing its view cannot change the state."""
    state = staged(3, path=["t1"], next_cards=["t2"])
    before = canonical_json(state)
    view = GAME.view(state, 0)
    view["path"][0]["gems_left"] = 99
    view["players"][0]["artifacts"].append(1)
    view["removed_hazards"].append("fire")
    assert canonical_json(state) == before


def test_last_reveal_shows_who_stayed_and_who_left():
    """Rule (ja 1: 拳を開き): after the reveal everybody knows every choice of that turn."""
    state = staged(3, path=["t1"], next_cards=["t2"])
    everyone(state, {0: "leave", 1: "stay", 2: "stay"})
    reveal = GAME.view(state, 2)["last_reveal"]
    assert reveal == {"round": 1, "turn": 1, "stayed": [1, 2], "left": [0], "share": 0,
                      "artifacts": []}
