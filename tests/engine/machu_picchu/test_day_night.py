"""Day end, night, day 9 (en: Day and Night, What happens at night, Special rules for the
last day; decisions.md: Day end, time track; Moon Tiles)."""
from engine.games.machu_picchu import data

from .helpers import GAME, act, goods, started, turn_of


def all_placed(n=3):
    state = started(n)
    for p in state["players"]:
        p["prince"] = "central_plaza"
    return state


def test_third_moon_tile_ends_the_day_taker_gets_the_sun_tile_others_one_more_turn():
    """en: 'The player who takes the third moon tile ... triggers the end of the day. He also
    takes the yellow Sun Tile ... The other players all take one last turn on this day'."""
    state = all_placed(3)
    turn_of(state, 0, "central_plaza")
    act(state, 0, type="stay", tile="steps2")
    act(state, 1, type="stay", tile="steps3")
    act(state, 2, type="move", to="sun_clock")
    act(state, 2, type="done")                     # keeps its Inca on the terraces
    act(state, 0, type="move", to="sun_clock")
    act(state, 0, type="done")
    act(state, 1, type="stay", tile="llama")       # the 3rd tile: seat 1 takes the Sun Tile
    assert state["start"] == 1 and state["day_end"]["remaining"] == [0]
    assert GAME.to_act(state) == [2]
    assert GAME.view(state, 0)["day_ending"] is True
    act(state, 2, type="stay", tile="coca")        # last turns may take tiles too
    assert GAME.to_act(state) == [0]
    corn0 = state["players"][0]["goods"]["corn"]
    track = state["track_corn"]
    day = state["day"]
    act(state, 0, type="move", to="main_temple")   # the last turn of the day
    while state["day"] == day:
        act(state, GAME.to_act(state)[0], type="done")
    assert state["track_corn"] == track - 1        # the last player took the day's corn
    assert state["players"][0]["goods"]["corn"] >= corn0 + 1
    assert GAME.to_act(state) == [1] and state["cur"] == 1   # the Sun Tile holder starts


def test_night_moon_tiles_pay_steps_or_goods_for_1_corn_and_corn3_can_pay():
    """en: 'Their owners receive either 2 or 3 steps ... or the goods depicted. Except for the
    3 corn, for any other goods the player has to pay 1 corn ... he can use these corn units
    at the same time to pay for the other goods'."""
    state = all_placed(2)
    goods(state, 0, corn=0)
    state["players"][0]["moon"] = ["cloth", "corn3", "steps3"]
    state["moon_left"] = ["steps2", "llama", "coca", "pottery"]
    state["moon_taken"] = 2
    turn_of(state, 1, "central_plaza")
    act(state, 1, type="stay", tile="llama")       # 3rd tile: night after seat 0's turn
    act(state, 0, type="stay", tile="coca")        # seat 0 has cloth, corn3, steps3, coca
    p = state["players"][0]
    assert p["goods"]["cloth"] == 2 and p["goods"]["coca"] == 2 and p["goods"]["corn"] == 1 + 1
    assert p["scout"] == 1 + 3 and p["moon"] == []
    assert state["moon_left"] == list(data.MOON_TILE_ORDER)


def test_a_moon_good_that_cannot_be_paid_is_forfeited():
    """decisions.md: 'a good the player cannot pay for is forfeited'."""
    state = all_placed(2)
    goods(state, 0, corn=0)
    state["moon_taken"] = 2
    state["moon_left"] = ["llama", "coca", "pottery", "cloth", "steps2"]
    turn_of(state, 0, "central_plaza")
    act(state, 0, type="stay", tile="cloth")       # no corn to pay at night
    act(state, 1, type="stay", tile="llama")       # (the day's track corn goes to seat 1)
    assert state["players"][0]["goods"]["cloth"] == 1
    assert state["players"][1]["goods"]["llama"] == 2


def test_night_adds_one_bonus_unit_per_district_at_most_two():
    """en: '9 new bonus units ... In each district only a maximum of two bonus units'."""
    state = all_placed(2)
    state["bonus"]["coca_plantation"] = 2
    state["bonus"]["sun_temple"] = 0
    state["bank"]["coca"] += 1
    state["moon_taken"] = 2
    turn_of(state, 0, "central_plaza")
    act(state, 0, type="stay", tile="steps2")
    day = state["day"]
    act(state, 1, type="stay", tile="steps3")
    assert state["day"] == day + 1
    assert state["bonus"]["coca_plantation"] == 2 and state["bonus"]["sun_temple"] == 1
    assert state["bonus"]["corn_terraces"] == 2 and state["bonus"]["main_temple"] == 2
    assert state["used_today"] == [] and state["moon_taken"] == 0


def test_day_9_moon_tile_pays_at_once_and_stays_with_the_player():
    """en: 'The bonus of a Moon Tile will be paid immediately ... he pays 1 corn and receives
    1 llama from the bank immediately. The Moon Tile still remains with the player'."""
    state = all_placed(2)
    state["day"] = 9
    turn_of(state, 0, "central_plaza")
    act(state, 0, type="stay", tile="llama")
    assert state["players"][0]["goods"]["llama"] == 2 and state["players"][0]["goods"]["corn"] == 2
    assert state["players"][0]["moon"] == ["llama"]


def test_after_day_9_the_spanish_conquer_no_night():
    """en: 'the game ends after day 9 is over. After the 3rd Moon Tile has been taken on the
    9th day, all other players still execute one final turn'."""
    state = all_placed(3)
    state["day"] = 9
    state["moon_taken"] = 2
    turn_of(state, 0, "central_plaza")
    act(state, 0, type="stay", tile="steps2")
    assert state["over"] is None
    act(state, 1, type="stay", tile="steps3")
    assert state["over"] is None
    act(state, 2, type="stay", tile="corn3")
    assert GAME.outcome(state)["reason"] == "conquest" and GAME.to_act(state) == []
