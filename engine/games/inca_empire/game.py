"""The ``GAME`` object: the engine protocol (engine.core.Game) wired to the rule modules."""
from __future__ import annotations

from engine.core import GameBase

from . import bot, hidden, rules, scoring, strong_bot, view as view_mod


class IncaEmpire(GameBase):
    name = "inca_empire"
    title = "Inca Empire: The Card Game"
    min_players = 2
    max_players = 5
    # "2": log lines are phrases (engine.text), no longer English strings; snapshots of
    # version 1 states are not reused (service.store.snapshots keys on this).
    # "3": log lines with a count (roads, temples, placements) are counted phrases.
    # "4": the first player is chosen by lot, and the Goal cards redesigned so that each is
    #    met neither nearly always nor rarely (data.GOALS); games of versions 1 to 3 keep the
    #    first seat as first player and the first Goal designs (``keep_rules_version``).
    rules_version = "4"
    search_settings = strong_bot.SETTINGS

    def setup(self, players: list[str], seed: int, options: dict) -> dict:
        self.check_setup(players, seed)
        return rules.new_state(players, seed, options, self.rules_version)

    def keep_rules_version(self, state: dict, version) -> None:
        rules.keep_rules_version(state, version)

    def to_act(self, state: dict) -> list[int]:
        return rules.to_act(state)

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        return rules.legal(state, seat)

    def find_listed_action(self, state: dict, seat: int, action) -> dict:
        return rules.find(state, seat, action)

    def apply_in_place(self, state: dict, seat: int, action: dict) -> None:
        rules.apply(state, seat, action)

    def view(self, state: dict, seat: int | None) -> dict:
        return view_mod.view(state, seat)

    def vary_hidden(self, state: dict, seat: int | None) -> None:
        view_mod.vary_hidden(state, seat)

    def redeal_hidden(self, state: dict, seat: int, chooser) -> None:
        hidden.redeal_hidden(state, seat, chooser)

    def reshuffle_unseen(self, state: dict, key: int) -> None:
        rules.reshuffle_unseen(state, key)

    def decision_key(self, state: dict, seat: int) -> str:
        return view_mod.decision_key(state, seat)

    def outcome(self, state: dict) -> dict | None:
        return scoring.outcome(state)

    def score_breakdown(self, state: dict) -> dict | None:
        return scoring.score_breakdown(state)

    def default_action(self, state: dict, seat: int) -> dict:
        return bot.default_action(state, seat)

    def easy_bot_action(self, state: dict, seat: int) -> dict:
        return bot.bot_action(state, seat)


GAME = IncaEmpire()
