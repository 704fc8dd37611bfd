"""Moving the Prince (en: Moving the Princes; zh.full 游戏流程; decisions.md: Moving the Prince,
adjacency)."""
import pytest

from engine import IllegalAction, canonical_json
from engine.games.machu_picchu import data

from .helpers import GAME, act, goods, options, started, turn_of


def test_adjacency_is_undirected_and_matches_the_published_constraints():
    """decisions.md: adjacency undirected; neither House borders a temple or production
    district; the plaza is central."""
    for d, near in data.ADJACENT.items():
        assert d not in near
        assert all(d in data.ADJACENT[o] for o in near)
    for house in data.HOUSE_OFFERS:
        assert not data.ADJACENT[house] & (set(data.TEMPLES) | set(data.PRODUCTION))
    assert len(data.ADJACENT["central_plaza"]) == max(len(v) for v in data.ADJACENT.values())
    assert len(data.DISTRICTS) == 15


def test_moving_to_a_neighbour_is_free():
    """en: 'move his Prince into an adjacent city district'."""
    state = turn_of(started(), 0, "sun_clock")
    act(state, 0, type="move", to="main_temple")
    assert state["players"][0]["prince"] == "main_temple"
    assert state["players"][0]["goods"]["llama"] == 1


def test_paying_one_llama_moves_anywhere_else():
    """en: 'pay 1 llama and move his Prince into any other city district'."""
    state = turn_of(started(), 0, "sun_clock")
    bank = state["bank"]["llama"]
    act(state, 0, type="move", to="weavers_quarter")
    assert state["players"][0]["goods"]["llama"] == 0 and state["bank"]["llama"] == bank + 1


def test_without_a_llama_only_neighbours_are_offered():
    """en: the far move costs a llama; with none, only neighbours (and Moon Tiles) remain."""
    state = turn_of(started(), 0, "sun_clock")
    goods(state, 0, llama=0)
    moves = {a["to"] for a in options(state, 0) if a["type"] == "move"}
    assert moves == set(data.ADJACENT["sun_clock"])
    with pytest.raises(IllegalAction):
        act(state, 0, type="move", to="weavers_quarter")


def test_a_district_is_never_used_twice_in_a_row():
    """decisions.md: 'A district is never used twice in a row' — moving to where you are is
    not a move."""
    state = turn_of(started(), 0, "sun_clock")
    before = canonical_json(state)
    with pytest.raises(IllegalAction):
        act(state, 0, type="move", to="sun_clock")
    assert canonical_json(state) == before


def test_staying_takes_a_moon_tile_of_choice_and_does_not_trigger_the_district():
    """en: 'have his Prince remain ... takes a moon tile ... the action connected with the
    district is NOT triggered'."""
    state = turn_of(started(), 0, "corn_terraces")
    corn = state["players"][0]["goods"]["corn"]
    stays = [a["tile"] for a in options(state, 0) if a["type"] == "stay"]
    assert stays == list(data.MOON_TILE_ORDER)
    act(state, 0, type="stay", tile="coca")
    assert state["players"][0]["moon"] == ["coca"] and "coca" not in state["moon_left"]
    assert state["players"][0]["goods"]["corn"] == corn
    assert state["bonus"]["corn_terraces"] == 1
    assert GAME.to_act(state) == [1]
