"""The ``GAME`` object: the engine protocol (engine.core.Game) wired to the rule functions."""
from __future__ import annotations

from engine.core import GameBase
from engine.text import labelled

from . import bot, rules, scoring, view as view_mod


class MachuPicchu(GameBase):
    name = "machu_picchu"
    title = "The Princes of Machu Picchu"
    min_players = 2
    max_players = 5
    # 2: log lines are phrases (engine.text), no longer English strings.
    # 3: a standing order answering during another seat's move raises the epoch.
    # 4: log lines with a count are counted phrases (one form per count in each language);
    #    states of version 3 snapshots hold the former lines, so they are not reused.
    rules_version = "4"

    def setup(self, players, seed, options):
        self.check_setup(players, seed)
        return rules.new_state(list(players), seed, options)

    def to_act(self, state):
        return rules.to_act(state)

    def legal_actions(self, state, seat):
        return [labelled(dict(a), view_mod.label(state, seat, a)) for a in rules.legal(state, seat)]

    def standing_orders(self, state, seat):
        return rules.standing_orders(state, seat)

    def apply_in_place(self, state, seat, action):
        rules.apply(state, seat, action)

    def view(self, state, seat):
        return view_mod.view(state, seat)

    def vary_hidden(self, state, seat):
        view_mod.vary_hidden(state, seat)

    def reshuffle_unseen(self, state, key):
        rules.reshuffle_unseen(state, key)

    def decision_key(self, state, seat):
        return view_mod.decision_key(state, seat)

    def outcome(self, state):
        return scoring.outcome(state)

    def score_breakdown(self, state: dict) -> dict | None:
        return scoring.score_breakdown(state)

    def default_action(self, state, seat):
        return bot.default_action(state, seat)

    def standing_action(self, state, seat):
        return bot.standing_action(state, seat)

    def bot_action(self, state, seat):
        return bot.bot_action(state, seat)


GAME = MachuPicchu()
