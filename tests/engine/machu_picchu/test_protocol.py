"""The engine protocol for this game: decision keys, defaults, bot, epoch, views
(engine/core.py; the brief's View / default / bot requirements)."""
import random

import pytest

from engine import IllegalAction, canonical_json
from engine.games.machu_picchu import data

from .helpers import GAME, act, give_priest, new, started, turn_of

VIEW_KEYS = {"day", "last_day", "phase", "to_act", "players", "districts", "market",
             "moon_tiles_left", "priests_left", "deck_left", "sun_clock", "you", "your_cards",
             "standing_orders", "log"}
PLAYER_KEYS = {"seat", "name", "goods", "incas_supply", "prince", "scout", "sacrifice_cards",
               "priests", "moon_tiles"}


def test_view_has_the_documented_fields():
    """Brief: View fields."""
    view = GAME.view(started(4), 2)
    assert VIEW_KEYS <= set(view) and view["you"] == 2
    assert all(PLAYER_KEYS <= set(p) for p in view["players"])
    assert set(view["districts"]) == set(data.DISTRICTS)
    assert {"incas", "bonus"} <= set(view["districts"]["corn_terraces"])
    assert "your_cards" not in GAME.view(started(4), None)


def test_every_legal_action_has_a_label():
    """Brief: each legal action carries a human label (mail links)."""
    state = turn_of(started(), 0, "central_plaza")
    assert all(a["label"] for a in GAME.legal_actions(state, 0))


def test_decision_key_same_within_own_turn_other_seats_get_their_own():
    """Brief: sub-steps of one player's own turn keep the same key; other seats' decisions
    (production) get a new one."""
    state = turn_of(started(2, free="weavers_quarter"), 0, "royal_palace")
    key = GAME.decision_key(state, 0)
    act(state, 0, type="move", to="weavers_quarter")
    assert GAME.decision_key(state, 0) == key
    assert GAME.decision_key(state, 1) not in ("", key) and "produce" in GAME.decision_key(state, 1)


def test_default_action_stays_for_a_moon_tile_and_declines_to_pay():
    """Brief: default = stay and take a moon tile; decline to pay production; done."""
    state = turn_of(started(2, free="weavers_quarter"), 0, "royal_palace")
    assert GAME.default_action(state, 0)["type"] == "stay"
    act(state, 0, type="move", to="weavers_quarter")
    assert GAME.default_action(state, 1) == {"type": "produce", "count": 0}
    state = turn_of(started(), 0, "sun_clock")
    act(state, 0, type="move", to="central_plaza")
    assert GAME.default_action(state, 0) == {"type": "done"}


def test_default_sacrifices_nothing():
    """Brief: default = sacrifice nothing."""
    state = turn_of(started(), 0, "central_plaza")
    give_priest(state, 1, "puma")
    act(state, 0, type="move", to="puma_temple")
    assert GAME.default_action(state, 1) == {"type": "done"}


def test_bot_beats_random_play():
    """Brief: bot_action is a heuristic better than random (seat 0 bot vs seat 1 random)."""
    wins = 0
    for seed in range(8):
        state = GAME.setup(["bot", "rnd"], seed, {})
        chooser = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            action = (GAME.bot_action(state, seat) if seat == 0
                      else chooser.choice(GAME.legal_actions(state, seat)))
            GAME.apply_in_place(state, seat, action)
        wins += 0 in GAME.outcome(state)["winners"]
    assert wins >= 6


def test_epoch_rises_on_a_draw_but_not_on_ordinary_moves_or_orders():
    """core.py: epoch increases whenever chance is drawn or hidden information is revealed."""
    state = turn_of(started(), 0, "sun_clock")
    epoch = state["epoch"]
    act(state, 1, type="standing_orders", orders={"produce": "always"})
    act(state, 0, type="move", to="central_plaza")
    act(state, 0, type="done")
    assert state["epoch"] == epoch
    state = turn_of(started(), 0, "central_plaza")
    state["players"][0]["scout"] = 18
    act(state, 0, type="move", to="main_temple")
    assert state["epoch"] == epoch + 1


@pytest.mark.parametrize("seat,action", [
    (1, {"type": "move", "to": "main_temple"}),                 # not your turn
    (0, {"type": "move", "to": "nowhere"}),
    (0, {"type": "move", "to": "main_temple", "extra": 1}),
    (0, {"type": "stay", "tile": "gold"}),
    (0, {"type": "done"}),                                      # nothing to finish
    (0, {"type": "standing_orders", "orders": {}}),
    (7, {"type": "move", "to": "main_temple"}),
    (0, "move"),
])
def test_illegal_actions_change_nothing(seat, action):
    """core.py: 'an IllegalAction always leaves the state exactly as it was'."""
    state = turn_of(started(), 0, "central_plaza")
    before = canonical_json(state)
    with pytest.raises(IllegalAction):
        GAME.apply_in_place(state, seat, action)
    assert canonical_json(state) == before


def test_standing_orders_are_accepted_from_any_seat_but_never_listed():
    """Design (docs: Standing orders): accepted at any time, not in legal_actions."""
    state = new(3)
    assert GAME.legal_actions(state, 2) == []
    act(state, 2, type="standing_orders", orders={"temple_sacrifice": "all"})
    assert GAME.view(state, 2)["standing_orders"]["temple_sacrifice"] == "all"
    assert "standing_orders" not in GAME.view(state, 1) or \
        GAME.view(state, 1)["standing_orders"]["temple_sacrifice"] == "ask"
