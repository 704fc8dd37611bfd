"""The ``GAME`` object: the engine protocol (engine.core.Game) wired to the rule functions."""
from __future__ import annotations

from engine.core import GameBase

from . import bot, data, hidden, rules, scoring, strong_bot, view as view_mod


class IncanGold(GameBase):
    name = "incan_gold"
    title = "Incan Gold"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    rules_version = "1"
    search_settings = strong_bot.SETTINGS

    def setup(self, players: list[str], seed: int, options: dict) -> dict:
        self.check_setup(players, seed)
        return rules.new_state(players, seed, {} if options is None else options,
                               self.rules_version)

    def to_act(self, state: dict) -> list[int]:
        return rules.to_act(state)

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        return rules.legal(state, seat)

    def apply_in_place(self, state: dict, seat: int, action: dict) -> None:
        rules.apply(state, seat, action)

    def view(self, state: dict, seat: int | None) -> dict:
        return view_mod.view(state, seat)

    def vary_hidden(self, state: dict, seat: int | None) -> None:
        view_mod.vary_hidden(state, seat)

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

    def strong_bot_action(self, state: dict, seat: int) -> dict:
        return strong_bot.action(self, state, seat)

    def redeal_hidden(self, state: dict, seat: int, chooser) -> None:
        hidden.redeal_hidden(state, seat, chooser)


GAME = IncanGold()
