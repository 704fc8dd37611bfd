"""The ``GAME`` object: the engine protocol (engine.core.Game) wired to the rule functions."""
from __future__ import annotations

from engine.core import GameBase, IllegalAction, find_legal
from engine.text import phrase

from . import bot, data, rules, view as view_mod


class IncanGold(GameBase):
    name = "incan_gold"
    title = "Incan Gold"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    rules_version = "1"

    def setup(self, players: list[str], seed: int, options: dict) -> dict:
        if not isinstance(players, list):
            raise IllegalAction(phrase("players must be a list of names"))
        self.check_player_count(players)
        if type(seed) is not int:
            raise IllegalAction(phrase("seed must be an integer"))
        return rules.new_state(players, seed, {} if options is None else options,
                               self.rules_version)

    def to_act(self, state: dict) -> list[int]:
        return rules.to_act(state)

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if not rules.must_act(state, seat):
            return []
        return [dict(data.ACTIONS["stay"]), dict(data.ACTIONS["leave"])]

    def apply_in_place(self, state: dict, seat: int, action: dict) -> None:
        """Validate completely (nothing is touched on IllegalAction), then mutate."""
        if not rules.must_act(state, seat):
            raise IllegalAction(rules.why_not(state, seat))
        chosen = find_legal(data.ACTIONS.values(), action)
        rules.choose(state, seat, chosen["type"])

    def view(self, state: dict, seat: int | None) -> dict:
        key = self.decision_key(state, seat) if type(seat) is int else None
        return view_mod.view(state, seat, key)

    def outcome(self, state: dict) -> dict | None:
        return view_mod.outcome(state)

    def decision_key(self, state: dict, seat: int) -> str:
        """One key per turn of a round: every seat inside is asked the same question."""
        if state["phase"] == rules.PHASE_OVER:
            return "over"
        return f"r{state['round']}t{state['turn']}"

    def default_action(self, state: dict, seat: int) -> dict:
        return bot.default_action(state, seat)

    def bot_action(self, state: dict, seat: int) -> dict:
        return bot.bot_action(state, seat)


GAME = IncanGold()
