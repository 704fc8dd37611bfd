"""The players a benchmark seats at its tables, each known by a name a reader understands.

A player is ``play(state, seat, chooser) -> action``.  ``chooser`` is the table's own seeded
generator, used only by players that choose at random; every bot draws its randomness from what
its seat sees (``engine.search.decision_rng``), so a seeded game replays exactly.

* "strong" -- ``bot_action(level="strong")``: the game's searching bot.
* "easy" -- ``bot_action(level="easy")``: the game's heuristic bot.
* "random" -- a uniform choice among the legal actions.
* "flat Monte Carlo" -- the textbook baseline: each legal move tried equally often, each followed
  by uniformly random play to the end (``engine.search.flat_monte_carlo_action``).
* Incan Gold only: "leave at 10 gems" (stay until carrying 10 gems or more) and "former
  deterministic rule" (what every Incan Gold bot played before bots drew their courage).
"""
from __future__ import annotations

import random
from typing import Callable

from engine import search
from engine.games.incan_gold import data as incan_gold_data

Player = Callable[[dict, int, random.Random], dict]

STRONG, EASY, RANDOM, FLAT = "strong", "easy", "random", "flat Monte Carlo"
LEAVE_AT_TEN, FORMER_RULE = "leave at 10 gems", "former deterministic rule"
TIMED = (STRONG, EASY, FLAT)   # the players whose decisions are timed and reported


def strong_player(game, flat_rollouts: int) -> Player:
    def play(state: dict, seat: int, chooser: random.Random) -> dict:
        return game.bot_action(state, seat, search.STRONG)
    return play


def easy_player(game, flat_rollouts: int) -> Player:
    def play(state: dict, seat: int, chooser: random.Random) -> dict:
        return game.bot_action(state, seat, search.EASY)
    return play


def random_player(game, flat_rollouts: int) -> Player:
    def play(state: dict, seat: int, chooser: random.Random) -> dict:
        return chooser.choice(game.legal_actions(state, seat))
    return play


def flat_player(game, flat_rollouts: int) -> Player:
    def play(state: dict, seat: int, chooser: random.Random) -> dict:
        return search.flat_monte_carlo_action(game, state, seat, flat_rollouts)
    return play


def leave_at_ten(game, flat_rollouts: int) -> Player:
    """Incan Gold: stay until carrying 10 gems or more, then leave."""
    def play(state: dict, seat: int, chooser: random.Random) -> dict:
        carrying = state["players"][seat]["carrying"]
        return {"type": "leave" if carrying >= 10 else "stay"}
    return play


def former_rule(game, flat_rollouts: int) -> Player:
    """Incan Gold: the bot before seats drew their courage -- leave when p_bust x (carried +
    share of the path + artifacts) exceeds the expected treasure share; alike for every seat."""
    def play(state: dict, seat: int, chooser: random.Random) -> dict:
        deck = state["deck"]
        if not deck:
            return {"type": "leave"}
        cards = incan_gold_data.CARDS
        inside = sum(1 for p in state["players"] if p["in_temple"]) or 1
        showing = {c["hazard"] for c in state["path"] if c["type"] == "hazard"}
        p_bust = sum(1 for c in deck if cards[c].get("hazard") in showing) / len(deck)
        gain = sum(cards[c]["value"] // inside for c in deck
                   if cards[c]["type"] == "treasure") / len(deck)
        artifacts = sum((c["value"] or 5) for c in state["path"] if c["type"] == "artifact")
        at_risk = (state["players"][seat]["carrying"]
                   + sum(c["gems_left"] for c in state["path"]) // inside + artifacts)
        return {"type": "leave" if p_bust * at_risk > gain else "stay"}
    return play


PLAYERS: dict[str, Callable[..., Player]] = {
    STRONG: strong_player, EASY: easy_player, RANDOM: random_player, FLAT: flat_player,
    LEAVE_AT_TEN: leave_at_ten, FORMER_RULE: former_rule,
}


def make_player(kind: str, game, flat_rollouts: int) -> Player:
    return PLAYERS[kind](game, flat_rollouts)
