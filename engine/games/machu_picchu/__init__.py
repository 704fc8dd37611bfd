"""The Princes of Machu Picchu (2–5 players), rules engine.

Modules: ``data`` (every table; reconstructed board values are marked there), ``rules`` (the
turn machine: a queue of frames, see its docstring), ``trail`` (Incatrail and summit),
``scoring``, ``view`` (what a seat may see, labels, decision keys), ``bot``.
Rules as implemented, decisions and the rule → test table: docs/games/machu_picchu.md.

Standing orders
---------------
``{"type": "standing_orders", "orders": {"produce": "ask"|"always"|"never",
"temple_sacrifice": "ask"|"all"|"none", "main_temple": "ask"|"all"|"goods_only"|"none"}}``
is accepted by ``apply_in_place`` from **any seat at any time** while the game runs, but it is
**not** listed in ``legal_actions`` (so a seat that need not act keeps an empty list, as the
contract wants).  The engine then answers that seat's production / sacrifice decisions itself
instead of waiting ("always" produces as many as the seat can pay and the bank has; "all"
sacrifices every llama allowed, or one of each kind at the Main Temple, "goods_only" there
keeps the corn).  Setting orders never changes the epoch.
"""
from __future__ import annotations

from engine.core import GameBase, IllegalAction, rng
from engine.text import labelled, phrase

from . import bot, rules, scoring, view as view_mod


class MachuPicchu(GameBase):
    name = "machu_picchu"
    title = "The Princes of Machu Picchu"
    min_players = 2
    max_players = 5
    # 2: log lines are phrases (engine.text), no longer English strings (issue 7).
    rules_version = "2"

    def setup(self, players, seed, options):
        self.check_player_count(players)
        if options:  # any at all, of any type: the game takes none
            unknown = sorted(map(str, options)) if isinstance(options, dict) else [repr(options)[:40]]
            raise IllegalAction(phrase("unknown option(s): {unknown}; this game has no options",
                                       unknown=", ".join(unknown)))
        return rules.setup(list(players), seed, options, rng)

    def to_act(self, state):
        return rules.to_act(state)

    def legal_actions(self, state, seat):
        return [labelled(dict(a), view_mod.label(state, seat, a)) for a in rules.legal(state, seat)]

    def apply_in_place(self, state, seat, action):
        rules.apply(state, seat, action)

    def view(self, state, seat):
        return view_mod.view(state, seat)

    def outcome(self, state):
        return scoring.outcome(state)

    def decision_key(self, state, seat):
        return view_mod.decision_key(state, seat)

    def default_action(self, state, seat):
        return bot.default_action(state, seat)

    def bot_action(self, state, seat):
        return bot.bot_action(state, seat)


GAME = MachuPicchu()
