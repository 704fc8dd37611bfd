"""The protocol every game module follows, and the few helpers they share.

Why a protocol and not a base class: a game is a bundle of pure functions over plain JSON
state (as in boardgame.io and OpenSpiel), so the service can snapshot, compare and hash
states without knowing any game.  Nothing here may touch a clock, the network, a database or
global randomness: all chance comes from the seed ``GameCreated`` fixes (the service keeps it
sealed while the game runs and reveals it at the end, so it may have any number of bits).

One folder a game
-----------------
Every game is a package under ``engine/games/`` with the same modules for the same roles, and
is listed in ``engine/registry.py`` (the one list of games):

* ``__init__.py`` -- what the game is, in a docstring; exports ``GAME`` only.
* ``game.py`` -- the ``GAME`` object: this protocol wired to the functions below, nothing else.
* ``data.py`` -- the tables (cards, board, costs), as data.
* ``rules.py`` -- setup (``new_state``), ``to_act``, the legal actions and applying one.
* ``view.py`` -- what a seat may see (``view``), what it may not (``vary_hidden``), and
  ``decision_key``.
* ``scoring.py`` -- ``outcome``: scores and winners; ``score_breakdown``: where each score
  came from, as the rulebook counts it (shown to players; the record keeps only ``outcome``).
* ``bot.py`` -- ``default_action`` (a seat's time ran out) and ``easy_bot_action``.
* ``hidden.py`` -- ``redeal_hidden``: what a seat cannot see, drawn again (``determinize``).
* ``strong_bot.py`` -- ``SETTINGS`` (and the evaluation they use) for the strong bot, which
  searches (``engine/search.py``).

A game may add modules of one concept each (a board's geometry, a phase's actions).  All chance
is drawn with ``rng(seed, <name>, ...)`` at setup, or ``draw_rng(state, <name>, ...)`` during
play (which mixes in the last rollback's reshuffle key), imported from here, never passed around.

State contract
--------------
* A state is JSON data only (dict, list, str, int, bool, None; dict keys are str).
* ``apply`` never mutates the state it is given.  ``apply_in_place`` *does* mutate, and is
  the replay hot path: it must validate the action completely before changing anything, so an
  ``IllegalAction`` always leaves the state exactly as it was.
* ``view(state, seat)`` and ``view(state, None)`` never contain ``state["seed"]``: whoever
  knew the seed would know every hidden card and future draw.
* ``state["epoch"]`` is an int that a game increases whenever chance is drawn or hidden
  information becomes known to a seat other than the one that held it (a seat playing its
  own card face up teaches itself nothing).  The service lets a player undo their own move
  only while the epoch is unchanged (nobody learnt anything new meanwhile).
* ``reshuffle_unseen(state, key)`` is called by the service after a rollback has rewound the
  state: it mutates the state so that whatever no seat has seen (the order of the draw piles,
  the draws of rounds still to come) is drawn again from ``key``, a number nobody can know
  while the seed is secret.  Everything a seat has seen (hands, face-up cards, discards,
  counts) stays as it was, no piece is added or lost, and the epoch does not move: the
  rolled-back moves then teach nobody what comes next.  ``view`` never shows the key.
* ``vary_secrets(state, seat)`` is how a game declares what is secret: a copy of the state in
  which what only ``seat`` knows (its hand, its pending secret choice) is different, or, for
  ``None``, what no seat knows (the order of the decks, the seed).  No other seat's view may
  tell the copy from the state; tests/engine/test_contract.py checks that, and that a move
  whose public result depends on such a secret raises the epoch.
* ``decision_key(state, seat)`` names the decision a seat in ``to_act`` is asked for (mails,
  deadlines and links are keyed on it): unchanged while other seats' moves leave that
  decision as it was, and never given again to that seat once it has answered and stopped
  being asked.  Several steps of one's own turn may share one key (one mail per turn).

Standing orders
---------------
A game may let a seat answer some future decisions in advance.  ``standing_orders(state,
seat)`` declares them: ``{order: {"value": current, "choices": [...]}}``, or ``None`` when
the seat has nothing to set (the default, and always once the game is over).  The action
``{"type": "standing_orders", "orders": {order: choice, ...}}`` is then accepted by
``find_legal_action`` and ``apply`` from that seat at any time, whether or not it is to act;
it is never listed by ``legal_actions``.  ``standing_action(state, seat)`` is what the
seat's orders answer to its current decision, or its ``default_action`` where they say
nothing (the deadline policy "standing").
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

    def keep_rules_version(self, state: State, version: str) -> None: ...

    def to_act(self, state: State) -> list[int]: ...

    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    def find_legal_action(self, state: State, seat: int, action: Any) -> Action: ...

    def standing_orders(self, state: State, seat: int) -> dict | None: ...

    def standing_action(self, state: State, seat: int) -> Action: ...

    def apply_in_place(self, state: State, seat: int, action: Action) -> None: ...

    def apply(self, state: State, seat: int, action: Action) -> State: ...

    def view(self, state: State, seat: int | None) -> dict: ...

    def vary_secrets(self, state: State, seat: int | None) -> State: ...

    def reshuffle_unseen(self, state: State, key: int) -> None: ...

    def outcome(self, state: State) -> dict | None: ...

    def score_breakdown(self, state: State) -> dict | None: ...

    def decision_key(self, state: State, seat: int) -> str: ...

    def default_action(self, state: State, seat: int) -> Action: ...

    def bot_action(self, state: State, seat: int, level: str = "easy") -> Action: ...

    def determinize(self, state: State, seat: int, chooser: random.Random) -> State: ...


class GameBase:
    """Shared plumbing.  A game's ``game.py`` subclasses it and wires ``setup``, ``to_act``,
    ``legal_actions``, ``apply_in_place``, ``view``, ``decision_key``, ``outcome``,
    ``default_action`` and ``bot_action`` to its modules; where it has secrets or standing
    orders, also ``vary_hidden`` and ``standing_orders`` (+ ``standing_action``).

    ``apply_in_place`` validates the whole action before it changes anything (see the state
    contract above); ``find_legal_action`` looks a submitted action up in ``legal_actions``
    unless the game checks it directly (``find_listed_action``)."""

    name = ""
    title = ""
    min_players = 1
    max_players = 1
    rules_version = "1"

    def check_setup(self, players: list[str], seed: int) -> None:
        """The arguments every game's setup refuses alike (options are each game's own)."""
        if not isinstance(players, list):
            raise IllegalAction(phrase("players must be a list of names"))
        self.check_player_count(players)
        if type(seed) is not int:
            raise IllegalAction(phrase("seed must be an integer"))

    def check_player_count(self, players: list[str]) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalAction(phrase("{game} needs {low}–{high} players, not {count}",
                                       game=term(self.title), low=self.min_players,
                                       high=self.max_players, count=len(players)))

    def find_legal_action(self, state: State, seat: int, action: Any) -> Action:
        """The listed legal action equal to ``action`` (with its label), or the standing
        orders ``action`` sets when the game declares them for ``seat``; else
        ``IllegalAction``."""
        if isinstance(action, dict) and action.get("type") == STANDING_ORDERS:
            declared = self.standing_orders(state, seat)
            if declared is not None:
                return checked_standing_orders(declared, action)
        return self.find_listed_action(state, seat, action)

    def find_listed_action(self, state: State, seat: int, action: Any) -> Action:
        """``find_legal`` over ``legal_actions``; a game whose turns list many actions checks
        the one given directly instead (Inca Empire), with the same answers."""
        return find_legal(self.legal_actions(state, seat), action)

    def apply(self, state: State, seat: int, action: Action) -> State:
        work = clone(state)
        self.apply_in_place(work, seat, action)
        return work

    search_settings: Any = None   # the strong bot's ``engine.search.Settings``; None: defaults

    def bot_action(self, state: State, seat: int, level: str = "easy") -> Action:
        """The move a bot of ``level`` makes for ``seat``: ``easy`` is the game's fast rule of
        thumb, ``strong`` searches over what the seat cannot see (``engine/search.py``).  Both
        read only what the seat may know and give the same move for the same state."""
        if level == "easy":
            return self.easy_bot_action(state, seat)
        if level == "strong":
            return self.strong_bot_action(state, seat)
        raise IllegalAction(phrase("unknown bot level {level}; known: easy, strong",
                                   level=repr(level)))

    def easy_bot_action(self, state: State, seat: int) -> Action:
        return self.default_action(state, seat)

    def strong_bot_action(self, state: State, seat: int) -> Action:
        from engine import search  # search is built on this module, so it is loaded on use

        return search.ismcts_action(self, state, seat,
                                    self.search_settings or search.Settings())

    def determinize(self, state: State, seat: int, chooser: random.Random) -> State:
        """A new state ``seat`` cannot tell from ``state`` (its view is the same), in which
        everything hidden from it is drawn again from ``chooser``: the seed of later draws, the
        piles nobody has seen (``reshuffle_unseen``) and other seats' secrets
        (``redeal_hidden``).  What it returns depends only on the seat's view and
        ``chooser``, so a search over such states cannot learn a secret."""
        world = clone(state)
        world["seed"] = chooser.getrandbits(63)
        if RESHUFFLED in world:
            world[RESHUFFLED] = chooser.getrandbits(63)
        self.reshuffle_unseen(world, chooser.getrandbits(63))
        self.redeal_hidden(world, seat, chooser)
        return world

    def redeal_hidden(self, state: State, seat: int, chooser: random.Random) -> None:
        """Draw again, in place and from ``chooser``, what other seats know and ``seat``
        does not (their hands, their pending secret choices); a game without such secrets
        changes nothing."""

    def keep_rules_version(self, state: State, version: str) -> None:
        """Replaying a game created under an older ``rules_version`` (pinned in GameCreated):
        a game whose older versions played differently marks ``state`` so they still do."""

    def standing_orders(self, state: State, seat: int) -> dict | None:
        return None

    def standing_action(self, state: State, seat: int) -> Action:
        return self.default_action(state, seat)

    def vary_secrets(self, state: State, seat: int | None) -> State:
        """A copy with ``seat``'s secrets changed (``None``: what nobody knows, the seed
        among it: it decides every draw still to come)."""
        varied = clone(state)
        if seat is None:
            varied["seed"] = state["seed"] + 1
        self.vary_hidden(varied, seat)
        return varied

    def vary_hidden(self, state: State, seat: int | None) -> None:
        """Change, in place, what only ``seat`` (``None``: no seat) knows; a game without
        such secrets changes nothing."""

    def reshuffle_unseen(self, state: State, key: int) -> None:
        """Draw again, in place and from ``key``, what no seat has seen; a game without
        hidden piles or later draws changes nothing."""

    def score_breakdown(self, state: State) -> dict | None:
        """Per seat, once the game is over, where its score came from: ``{seat: {"total":
        score, "parts": [{"points": n, "say": phrase}, ...], "multiplier": None or {"by": m,
        "say": phrase}}}`` -- the parts add up to the score (times ``by``, when a game
        multiplies).  Kept apart from ``outcome`` so the record and its checks are untouched;
        a game that does not explain its scores gives None (its scores are shown bare)."""
        return None


STANDING_ORDERS = "standing_orders"
STANDING_ORDERS_LABEL = "Set standing orders"


def checked_standing_orders(declared: dict, action: Action) -> Action:
    """The standing-orders action, validated against what the game declares (``declared``:
    ``{order: {"value": ..., "choices": [...]}}``): any order not declared, any choice not
    offered, an empty ``orders`` or another key is refused as any action not listed is."""
    wanted = without_label(action)
    orders = wanted.get("orders")
    if set(wanted) != {"type", "orders"} or not isinstance(orders, dict) or not orders or any(
            key not in declared or value not in declared[key]["choices"]
            for key, value in orders.items()):
        raise IllegalAction(not_legal(canonical_json(wanted)))
    return {"type": STANDING_ORDERS, "orders": dict(orders), "label": STANDING_ORDERS_LABEL}


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


RESHUFFLED = "reshuffled"  # the state's key for the last rollback's reshuffle key, if any


def draw_rng(state: State, *keys: Any) -> random.Random:
    """The generator for a draw made during play (a round's deck): the seed's, mixed with the
    key of the last rollback that reshuffled the state (``reshuffle_unseen``), so the draws
    after a rollback are not the ones the rolled-back moves showed.  A state never rewound
    draws exactly as ``rng(state["seed"], ...)``: old games replay unchanged."""
    key = state.get(RESHUFFLED)
    if key is None:
        return rng(state["seed"], *keys)
    return rng(state["seed"], *keys, RESHUFFLED, key)


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
