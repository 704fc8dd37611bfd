"""Setup by player count (en: Game Start / Setup; zh.full 开始游戏; decisions.md: Setup)."""
import pytest

from engine import IllegalAction
from engine.games.machu_picchu import data

from .helpers import GAME, act, new, options, phase, started, totals


@pytest.mark.parametrize("n,count", [(2, 12), (3, 10), (4, 9), (5, 8)])
def test_incas_per_player_depend_on_player_count(n, count):
    """en: '8 Incas each for 5 players, 9 for 4, 10 for 3, 12 for 2'."""
    state = new(n)
    assert all(p["supply"] == count for p in state["players"])


@pytest.mark.parametrize("n,day", [(2, 1), (3, 2), (4, 3), (5, 3)])
def test_time_marker_start_day_and_one_corn_per_day_to_day_9(n, day):
    """en: time marker on day 1 (2p), 2 (3p), 3 (4–5p); decisions.md: one corn on each day
    from the start day to day 9."""
    state = new(n)
    assert state["day"] == day
    assert state["track_corn"] == 9 - day + 1
    assert GAME.view(state, 0)["last_day"] == 9


def test_each_player_gets_3_corn_and_one_of_each_good():
    """en: 'Each player receives at the start: 3 corn + 1 llama + 1 coca + 1 pottery + 1 cloth'."""
    for p in new(4)["players"]:
        assert p["goods"] == {"corn": 3, "llama": 1, "coca": 1, "pottery": 1, "cloth": 1}


def test_each_player_draws_one_hidden_sacrifice_card_from_the_shuffled_28():
    """en: 'each player randomly draws 1 Sacrifice Card ... kept secret'."""
    state = new(5, seed=3)
    cards = [c for p in state["players"] for c in p["cards"]]
    assert all(len(p["cards"]) == 1 for p in state["players"])
    assert sorted(cards + state["deck"]) == list(range(28))
    assert new(5, seed=3)["deck"] == state["deck"] and new(5, seed=4)["deck"] != state["deck"]
    view = GAME.view(state, 1)
    assert [c["id"] for c in view["your_cards"]] == state["players"][1]["cards"]
    assert all("cards" not in p for p in view["players"])


def test_scouts_start_on_fields_1_to_n_in_seat_order():
    """en: 'The starting player places his Scout onto the first field ... second onto 2'."""
    assert [p["scout"] for p in new(5)["players"]] == [1, 2, 3, 4, 5]


def test_market_holds_a_good_on_the_6_and_5_fields_of_each_column():
    """en: 'market filled with 8 units (two ... at the two topmost fields of each column)'."""
    assert new(3)["market"] == {"llama": 2, "coca": 2, "pottery": 2, "cloth": 2}


def test_one_bonus_unit_per_production_district_and_one_stone_per_temple():
    """en: 'Place one temple stone on each of the 4 temples ... 1 unit of goods on each of
    the 5 production districts (3 corn count as 1 bonus unit)'."""
    state = new(2)
    assert all(state["bonus"][d] == 1 for d in list(data.PRODUCTION) + list(data.TEMPLES))
    assert GAME.view(state, 0)["districts"]["corn_terraces"]["bonus_goods"] == {"corn": 3}


def test_the_bank_holds_the_component_counts_minus_what_is_out():
    """zh.full 游戏配件 / decisions.md: the bank is limited to the component counts."""
    for n in (2, 5):
        assert totals(new(n)) == data.COMPONENTS


def test_free_inca_placed_in_seat_order_on_any_production_district():
    """en: 'The starting player places 1 of his Incas ... The other players, in clockwise
    order, also place one Inca of their choice'."""
    state = new(3)
    assert GAME.to_act(state) == [0]
    assert {a["district"] for a in options(state, 0)} == set(data.PRODUCTION)
    act(state, 0, type="place_free", district="weavers_quarter")
    assert GAME.to_act(state) == [1]
    act(state, 1, type="place_free", district="weavers_quarter")
    act(state, 2, type="place_free", district="coca_plantation")
    assert state["incas"]["weavers_quarter"] == [1, 1, 0]
    assert state["players"][2]["supply"] == 9
    assert phase(state) == "move" and GAME.to_act(state) == [0]


def test_first_turn_places_the_prince_on_any_district_and_triggers_it():
    """en: 'The starting player is the first to place his Prince on any district ... and thus
    performs the related action'."""
    state = started(2)
    assert {a["to"] for a in options(state, 0)} == set(data.DISTRICTS)
    assert not any(a["type"] == "stay" for a in options(state, 0))
    act(state, 0, type="move", to="house_of_virgins")   # no llama paid, nothing affordable
    assert state["players"][0]["prince"] == "house_of_virgins"
    assert state["players"][0]["goods"]["llama"] == 1


@pytest.mark.parametrize("players", [["a"], ["a"] * 6])
def test_wrong_player_count_is_refused(players):
    """en: 2–5 players."""
    with pytest.raises(IllegalAction):
        GAME.setup(players, 1, {})


def test_unknown_option_is_refused():
    """The game has no options: an unknown one is an error, not silently ignored."""
    with pytest.raises(IllegalAction, match="unknown option"):
        GAME.setup(["a", "b"], 1, {"speed": "fast"})
