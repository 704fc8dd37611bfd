"""Every game's setup refuses options of the wrong shape or type with ``IllegalAction`` (a
400 at every entry point), never a ``TypeError`` from deep inside the rules (a 500)."""
from __future__ import annotations

import pytest

from engine import GAMES, IllegalAction, get_game

BAD_OPTIONS = [["artifacts"], "classic", 7, {"artifacts": {"edition": "2018"}},
               {"artifacts": ["2018"]}, {"artifacts": 2018}, {"artifacts": None},
               {"artifacts": float("nan")}, {"unknown": {"deep": [1]}}, {1: "x", "y": 2}]


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("options", BAD_OPTIONS, ids=repr)
def test_options_of_the_wrong_shape_or_type_are_an_illegal_action(name, options):
    game = get_game(name)
    with pytest.raises(IllegalAction):
        game.setup([f"P{i}" for i in range(game.min_players)], 1, options)


def test_a_known_option_with_a_known_value_is_still_taken():
    state = get_game("incan_gold").setup(["A", "B", "C"], 1, {"artifacts": "classic"})
    assert state["options"] == {"artifacts": "classic"}
