"""A Machu Picchu game recorded under an older rules version (its GameCreated pins it) still
replays exactly, though the plaza now trades once per visit: its one-good-at-a-time trades
and their "done" are taken as they were."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from engine import IllegalAction, get_game
from service.store.events import Event
from service.store.history import rebuild

WHEN = datetime(2026, 1, 1, tzinfo=timezone.utc)
OLD_TRADES = [(0, {"type": "place_free", "district": "corn_terraces"}),
              (1, {"type": "place_free", "district": "corn_terraces"}),
              (0, {"type": "move", "to": "central_plaza"}),
              (0, {"type": "market_remove", "good": "coca"}),
              (0, {"type": "sell", "good": "cloth"}),
              (0, {"type": "sell", "good": "pottery"}),
              (0, {"type": "buy", "good": "llama"}),
              (0, {"type": "done"})]


def recorded(rules_version: str, moves) -> list[Event]:
    created = Event(1, "GameCreated", {"game": "machu_picchu", "rules_version": rules_version,
                                       "seed": 7, "players": ["A", "B"], "options": {}},
                    "admin", WHEN, "0", "h1")
    return [created, *(Event(i + 2, "MoveMade", {"seat": seat, "action": action}, "A", WHEN,
                             f"h{i + 1}", f"h{i + 2}") for i, (seat, action) in enumerate(moves))]


def test_a_game_of_rules_version_4_replays_its_step_by_step_trades():
    _, state = rebuild(recorded("4", OLD_TRADES))
    assert state["market"] == {"llama": 1, "coca": 1, "pottery": 3, "cloth": 3}
    assert state["players"][0]["goods"] == {"corn": 3 + 4 + 4 - 5, "llama": 2, "coca": 1,
                                            "pottery": 0, "cloth": 0}
    assert get_game("machu_picchu").to_act(state) == [1]


def test_a_game_of_the_current_rules_version_refuses_them():
    with pytest.raises(IllegalAction):
        rebuild(recorded(get_game("machu_picchu").rules_version, OLD_TRADES))
