"""Sun Clock (zh.full 拴日石; en: What happens at night / day 9)."""
from engine.games.machu_picchu import data

from .helpers import GAME, act, options, phase, started, turn_of


def test_moves_one_own_inca_from_a_production_district():
    """zh.full: '将1个放在某生产区内的己方工人，移到这区域内' (one per visit)."""
    state = turn_of(started(free="coca_plantation"), 0, "central_plaza")
    act(state, 0, type="move", to="sun_clock")
    assert options(state, 0) == [{"type": "sun_clock", "from": "coca_plantation"},
                                 {"type": "done"}]
    GAME.apply_in_place(state, 0, {"type": "sun_clock", "from": "coca_plantation"})
    assert state["sun_clock"] == [1, 0] and state["incas"]["coca_plantation"] == [0, 1]
    assert GAME.to_act(state) == [1]


def test_night_returns_the_inca_with_3_different_goods_and_3_steps():
    """en: 'They receive for each withdrawn Inca 3 different units of goods from the bank (3
    corn count as 1 unit of goods) and 3 additional steps'."""
    state = turn_of(started(free="coca_plantation"), 0, "central_plaza")
    state["players"][1]["prince"] = "central_plaza"
    GAME.apply_in_place(state, 0, {"type": "move", "to": "sun_clock"})
    GAME.apply_in_place(state, 0, {"type": "sun_clock", "from": "coca_plantation"})
    day = state["day"]
    while phase(state) != "clock_goods":
        seat = GAME.to_act(state)[0]
        act(state, seat, type="stay", tile=state["moon_left"][-1])
    assert GAME.to_act(state) == [0] and len(options(state, 0)) == 10
    assert state["players"][0]["supply"] == 12 and state["sun_clock"] == [0, 0]
    before = dict(state["players"][0]["goods"])
    scout = state["players"][0]["scout"]
    act(state, 0, type="sun_clock_goods", goods=["llama", "cloth", "corn"])
    after = state["players"][0]["goods"]
    assert after["llama"] == before["llama"] + 1 and after["cloth"] == before["cloth"] + 1
    assert after["corn"] >= before["corn"] + 3
    assert state["players"][0]["scout"] == scout + 3
    assert state["day"] == day + 1


def test_day_9_sun_clock_pays_at_once_and_the_inca_stays():
    """en: 'the bonus for the Incas serving at the Sun Clock on the last day is paid
    immediately. The round wooden disks ... stay at the Sun Clock'."""
    state = turn_of(started(free="coca_plantation"), 0, "central_plaza")
    state["day"] = data.LAST_DAY
    GAME.apply_in_place(state, 0, {"type": "move", "to": "sun_clock"})
    GAME.apply_in_place(state, 0, {"type": "sun_clock", "from": "coca_plantation"})
    assert phase(state) == "clock_goods" and GAME.to_act(state) == [0]
    act(state, 0, type="sun_clock_goods", goods=["coca", "pottery", "cloth"])
    assert state["players"][0]["goods"]["coca"] == 2 and state["sun_clock"] == [1, 0]
    assert state["players"][0]["scout"] == 1 + 3
