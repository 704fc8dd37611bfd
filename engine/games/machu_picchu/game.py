"""The ``GAME`` object: the engine protocol (engine.core.Game) wired to the rule functions."""
from __future__ import annotations

from engine.core import GameBase, without_label
from engine.text import labelled

from . import bot, hidden, rules, scoring, strong_bot, view as view_mod


class MachuPicchu(GameBase):
    name = "machu_picchu"
    title = "The Princes of Machu Picchu"
    min_players = 2
    max_players = 5
    # 2: log lines are phrases (engine.text), no longer English strings.
    # 3: a standing order answering during another seat's move raises the epoch.
    # 4: log lines with a count are counted phrases (one form per count in each language);
    #    states of version 3 snapshots hold the former lines, so they are not reused.
    # 5: a plaza visit trades once, the whole exchange as one decision (``plaza``); games of
    #    versions 1 to 4 keep trading one good at a time (``keep_rules_version``).
    rules_version = "5"
    search_settings = strong_bot.SETTINGS

    def setup(self, players, seed, options):
        self.check_setup(players, seed)
        return rules.new_state(list(players), seed, options)

    def keep_rules_version(self, state, version):
        rules.keep_rules_version(state, version)

    def to_act(self, state):
        return rules.to_act(state)

    def legal_actions(self, state, seat):
        return [labelled(dict(a), view_mod.label(state, seat, a)) for a in rules.legal(state, seat)]

    def find_listed_action(self, state, seat, action):
        """A whole trade at the plaza is checked as such: any exchange the market allows is
        legal, the links offer only the common ones."""
        if isinstance(action, dict) and rules.legal(state, seat):
            wanted = without_label(action)
            if rules.is_whole_trade(state, state["queue"][0], wanted):
                checked = rules.checked_trade(state, seat, wanted)
                return labelled(dict(checked), view_mod.label(state, seat, checked))
        return super().find_listed_action(state, seat, action)

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

    def redeal_hidden(self, state, seat, chooser):
        hidden.redeal_hidden(state, seat, chooser)

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

    def easy_bot_action(self, state, seat):
        return bot.bot_action(state, seat)

    def strong_bot_action(self, state, seat):
        return strong_bot.strong_action(self, state, seat)


GAME = MachuPicchu()
