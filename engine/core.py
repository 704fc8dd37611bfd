"""The protocol every game module follows, and the few helpers they share.

Why a protocol and not a base class: a game is a bundle of pure functions over plain JSON
state (as in boardgame.io and OpenSpiel), so the service can snapshot, compare and hash
states without knowing any game.  Nothing here may touch a clock, the network, a database or
global randomness: all chance comes from the seed ``GameCreated`` fixes (the service keeps it
sealed while the game runs and reveals it at the end, so it may have any number of bits).

State contract
--------------
* A state is JSON data only (dict, list, str, int, bool, None; dict keys are str).
* ``apply`` never mutates the state it is given.  ``apply_in_place`` *does* mutate, and is
  the replay hot path: it must validate the action completely before changing anything, so an
  ``IllegalAction`` always leaves the state exactly as it was.
* ``view(state, seat)`` and ``view(state, None)`` never contain ``state["seed"]``: whoever
  knew the seed would know every hidden card and future draw.
* ``state["epoch"]`` is an int that a game increases whenever chance is drawn or hidden
  information becomes known to any seat.  The service lets a player undo their own move only
  while the epoch is unchanged (nobody learnt anything new meanwhile).
"""
from __future__ import annotations

import hashlib
import json
import random
from typing import Any, Iterable, Protocol, runtime_checkable

from engine.text import phrase, render, term

State = dict[str, Any]
Action = dict[str, Any]


class IllegalAction(ValueError):
    """A move the rules do not allow now.

    Made from a phrase (``engine.text``) or a plain text: ``str(error)`` is always the English
    message (the JSON API and the audit log keep it), and ``error.say`` is what a reader is
    shown, translated by the service into their language -- the phrase, else the text itself
    (a catalog msgid when it was marked)."""

    def __init__(self, message: Any, say: Any = None):
        if type(message) is dict:
            message, say = render(message), message
        super().__init__(message)
        self.say = message if say is None else say


@runtime_checkable
class Game(Protocol):
    name: str            # registry key, e.g. "incan_gold"
    title: str           # human name, e.g. "Incan Gold"
    min_players: int
    max_players: int
    rules_version: str   # pinned in GameCreated; bump when replay of old games would change

    def setup(self, players: list[str], seed: int, options: dict) -> State: ...

    def to_act(self, state: State) -> list[int]: ...

    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    def find_legal_action(self, state: State, seat: int, action: Any) -> Action: ...

    def apply_in_place(self, state: State, seat: int, action: Action) -> None: ...

    def apply(self, state: State, seat: int, action: Action) -> State: ...

    def view(self, state: State, seat: int | None) -> dict: ...

    def outcome(self, state: State) -> dict | None: ...

    def decision_key(self, state: State, seat: int) -> str: ...

    def default_action(self, state: State, seat: int) -> Action: ...

    def bot_action(self, state: State, seat: int) -> Action: ...


class GameBase:
    """Shared plumbing: subclasses write ``setup``, ``to_act``, ``legal_actions``,
    ``_validate`` + ``_mutate`` (or ``apply_in_place``), ``view``, ``outcome``,
    ``decision_key``, ``default_action`` and ``bot_action``."""

    name = ""
    title = ""
    min_players = 1
    max_players = 1
    rules_version = "1"

    def check_player_count(self, players: list[str]) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalAction(phrase("{game} needs {low}–{high} players, not {count}",
                                       game=term(self.title), low=self.min_players,
                                       high=self.max_players, count=len(players)))

    def find_legal_action(self, state: State, seat: int, action: Any) -> Action:
        """The listed legal action equal to ``action`` (with its label), else
        ``IllegalAction``.  An engine whose turns list many actions checks the one given
        directly instead (Inca Empire), with the same answers."""
        return find_legal(self.legal_actions(state, seat), action)

    def apply(self, state: State, seat: int, action: Action) -> State:
        work = clone(state)
        self.apply_in_place(work, seat, action)
        return work

    def bot_action(self, state: State, seat: int) -> Action:
        return self.default_action(state, seat)


def clone(data: Any) -> Any:
    """Deep copy of JSON data, several times faster than ``copy.deepcopy``."""
    if type(data) is dict:
        return {k: clone(v) if type(v) in (dict, list) else v for k, v in data.items()}
    if type(data) is list:
        return [clone(v) if type(v) in (dict, list) else v for v in data]
    return data


def without_label(action: Action) -> Action:
    """Actions are compared without their human ``label`` (and other display-only keys
    starting with ``_``), so a client may echo an action back with or without them."""
    return {k: v for k, v in action.items() if k != "label" and not k.startswith("_")}


def find_legal(legal: Iterable[Action], action: Any) -> Action:
    """Return the listed legal action equal to ``action`` or raise ``IllegalAction``."""
    if not isinstance(action, dict):
        raise IllegalAction(phrase("an action must be a JSON object"))
    wanted = without_label(action)
    for candidate in legal:
        if without_label(candidate) == wanted:
            return candidate
    raise IllegalAction(not_legal(canonical_json(wanted)))


def not_legal(shown: str) -> dict:
    """The refusal of an action that is not listed; ``shown`` is the action as sent."""
    return phrase("not a legal action now: {action}", action=shown)


def rng(seed: int, *keys: Any) -> random.Random:
    """A private generator for one named draw (e.g. ``rng(seed, "round", 3)``).

    Seeding from a string makes the sequence independent of PYTHONHASHSEED and of how many
    draws came before, so replay is exact and adding a new draw never shifts old ones."""
    material = ":".join([str(seed), *map(str, keys)])
    return random.Random(hashlib.sha256(material.encode()).hexdigest())


def canonical_json(data: Any) -> str:
    """The one JSON spelling used for hashes and byte-for-byte comparisons."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def replay(game: Game, players: list[str], seed: int, options: dict,
           moves: Iterable[tuple[int, Action]]) -> State:
    """Rebuild a state from its moves, mutating one working copy (the hot path)."""
    state = game.setup(players, seed, options)
    for seat, action in moves:
        game.apply_in_place(state, seat, action)
    return state
