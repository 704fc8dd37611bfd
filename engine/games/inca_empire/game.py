"""The ``GAME`` object: the engine protocol (engine.core.Game) wired to the rule modules."""
from __future__ import annotations

from engine.core import (GameBase, IllegalAction, canonical_json, find_legal, not_legal,
                         without_label)
from engine.text import phrase, term

from . import actions, bot, rules, scoring, view as view_mod
from .cards import CARDS


class IncaEmpire(GameBase):
    name = "inca_empire"
    title = "Inca Empire: The Card Game"
    min_players = 2
    max_players = 5
    # "2": log lines are phrases (engine.text), no longer English strings; snapshots of
    # version 1 states are not reused (service.store.snapshots keys on this).
    rules_version = "2"

    def setup(self, players: list[str], seed: int, options: dict) -> dict:
        if not isinstance(players, list):
            raise IllegalAction(phrase("players must be a list of names"))
        self.check_player_count(players)
        if type(seed) is not int:
            raise IllegalAction(phrase("seed must be an integer"))
        if options is not None and not isinstance(options, dict):
            raise IllegalAction(phrase("options must be an object"))
        return rules.new_state(players, seed, options or {}, self.rules_version)

    def to_act(self, state: dict) -> list[int]:
        return rules.to_act(state)

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if seat not in rules.to_act(state):
            return []
        if state["phase"] == rules.SHOW:
            return rules.show_options(state, seat)
        if state["phase"] == rules.PICK:
            return rules.pick_options(state, seat)
        return actions.legal(state, seat)

    def apply_in_place(self, state: dict, seat: int, action: dict) -> None:
        """Validate completely (nothing is touched on IllegalAction), then mutate."""
        if state["phase"] == rules.OVER:
            raise IllegalAction(phrase("the game is over"))
        if seat not in rules.to_act(state):
            raise IllegalAction(phrase("it is not your turn to act"))
        chosen = self._check(state, seat, action)
        state["moves"] += 1
        log_public(state, seat, chosen)
        if state["phase"] == rules.SHOW:
            rules.apply_show(state, seat, chosen["card"])
        elif state["phase"] == rules.PICK:
            rules.apply_take(state, seat, chosen["card"])
        else:
            actions.apply(state, seat, chosen)

    def find_legal_action(self, state: dict, seat: int, action) -> dict:
        """``find_legal(self.legal_actions(state, seat), action)``: the listed action (with its
        label) equal to ``action`` labels aside, else ``IllegalAction`` -- but checking the one
        action directly instead of listing them all (building every placement and road to
        validate one move was 92 % of replay time).  test_validation.py checks that this
        accepts exactly what ``legal_actions`` lists."""
        if seat not in rules.to_act(state):
            return find_legal([], action)  # raises
        return self._check(state, seat, action)

    def _check(self, state: dict, seat: int, action) -> dict:
        """``find_legal_action`` for a seat known to be one of ``to_act``."""
        if not isinstance(action, dict):
            raise IllegalAction(phrase("an action must be a JSON object"))
        wanted = without_label(action)
        phase = state["phase"]
        if phase == rules.SHOW:
            chosen = rules.show_option(state, seat, wanted.get("card")) \
                if wanted.get("type") == "show" else None
        elif phase == rules.PICK:
            chosen = rules.pick_option(state, seat, wanted.get("card")) \
                if wanted.get("type") == "take" else None
        else:
            chosen = actions.find(state, seat, wanted)
        if chosen is None or without_label(chosen) != wanted:
            raise IllegalAction(not_legal(canonical_json(wanted)))
        return chosen

    def view(self, state: dict, seat: int | None) -> dict:
        key = self.decision_key(state, seat) if type(seat) is int else None
        return view_mod.view(state, seat, key)

    def outcome(self, state: dict) -> dict | None:
        return scoring.outcome(state)

    def decision_key(self, state: dict, seat: int) -> str:
        """Draft choice: one decision per card still to show (other seats' choices never
        change it); everything else: the decision opened by the latest move."""
        phase = state["phase"]
        if phase == rules.OVER:
            return "over"
        if seat not in rules.to_act(state):
            return ""
        if phase == rules.SHOW:
            return f"e{state['era']}:show:{len(state['draft']['shown'][seat])}"
        return f"e{state['era']}:{phase}:m{state['moves']}"

    def default_action(self, state: dict, seat: int) -> dict:
        return bot.default_action(state, seat)

    def bot_action(self, state: dict, seat: int) -> dict:
        return bot.bot_action(state, seat)


LOG_LENGTH = 30


def log_public(state: dict, seat: int, action: dict) -> None:
    """A short public record of what happened (for mails), never naming a secret card.

    Each line is a phrase (engine.text), so every reader gets it in their own language; in
    English it reads "Era 2: Ana: Build a temple in ...", as the lines always did."""
    kind = action["type"]
    if kind in ("show", "build"):
        return  # the draft choice is secret; a build is logged when placed
    said = action.get("_say") or action["label"]
    if kind == "terrace":
        text = phrase("built a Terrace (card face down)")
    elif kind == "place":
        cid = state["pending"]["card"]
        text = phrase("built {card} ({id}): {action}", card=term(CARDS[cid]["name"]), id=cid,
                      action=said)
    else:
        text = said
    state["log"].append(phrase("Era {era}: {player}: {text}", era=state["era"],
                               player=state["players"][seat], text=text))
    del state["log"][:-LOG_LENGTH]


GAME = IncaEmpire()
