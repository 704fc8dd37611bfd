"""Bot strength by self-play: win shares with Wilson 95% intervals, per game and player count.

Engines only (no service).  For each game and each player count, in one run:

* **bot among randoms** -- one project bot (``GAME.bot_action``) at a table of random players
  (a seeded choice among the legal actions); its win share (fair share 1/n);
* **one challenger among bots** -- one random player, and for Incan Gold also two fixed rules
  ("leave at 10 gems or more", and the bot's rule without its drawn courage, which made every
  bot choose alike), at a table of project bots; the challenger's share;
* **all-bot tables** -- win share by seat (seat 1 first) and the share of games that tie;
* **decision time** -- median and p99 of ``bot_action`` over every bot decision of the run.

A shared victory gives each winner an equal part of the game (a three-way tie counts 1/3 to
each), so the shares at a table add up to 100%.  The lone player's seat turns with the game
number, so no seat's advantage is credited to a player.  The default (50 games a cell) runs in
a few minutes on one core, most of it Machu Picchu; docs/balance.md used ``--games 200 --game
incan_gold`` (about a minute) and ``--games 40`` for the other two.  Intervals narrow as
1/sqrt(games): 400 games a cell give about ±5 points.

    python -m bench.bots [--games N] [--game NAME] [--seed S]
"""
from __future__ import annotations

import argparse
import math
import platform
import random
import statistics
import time
from datetime import datetime, timezone

from engine import GAMES
from engine.games.incan_gold import data as incan_gold_data

MAX_MOVES = 20_000
Z95 = 1.96


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """The Wilson score interval (95%) of a proportion, in percent."""
    if trials == 0:
        return (0.0, 100.0)
    p = successes / trials
    spread = Z95 * math.sqrt(p * (1 - p) / trials + Z95 ** 2 / (4 * trials ** 2))
    centre = p + Z95 ** 2 / (2 * trials)
    scale = 1 + Z95 ** 2 / trials
    return (100 * max(0.0, (centre - spread) / scale), 100 * min(1.0, (centre + spread) / scale))


def share_text(successes: float, trials: int) -> str:
    low, high = wilson(successes, trials)
    return f"{100 * successes / trials:.0f} [{low:.0f}–{high:.0f}]"


# ------------------------------------------------------------------ players

class Timed:
    """The project bot, with every decision's time kept."""

    def __init__(self, game):
        self.game = game
        self.times: list[float] = []

    def __call__(self, state: dict, seat: int, chooser: random.Random) -> dict:
        started = time.perf_counter()
        action = self.game.bot_action(state, seat)
        self.times.append(time.perf_counter() - started)
        return action


def random_player(game):
    def play(state: dict, seat: int, chooser: random.Random) -> dict:
        return chooser.choice(game.legal_actions(state, seat))
    return play


def leave_at_ten(game):
    """Incan Gold: stay until carrying 10 gems or more, then leave."""
    def play(state: dict, seat: int, chooser: random.Random) -> dict:
        carrying = state["players"][seat]["carrying"]
        return {"type": "leave" if carrying >= 10 else "stay"}
    return play


def former_rule(game):
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


CHALLENGERS = {
    "incan_gold": {"random": random_player, "leave at 10 gems": leave_at_ten,
                   "former deterministic rule": former_rule},
}


# ------------------------------------------------------------------ games

def play_game(game, seats: list, seed: int) -> list[int]:
    """Play one game, each seat by its player; return the winners."""
    state = game.setup([f"P{i}" for i in range(len(seats))], seed, {})
    chooser = random.Random(f"{game.name} chooser {seed}")
    moves = 0
    while game.outcome(state) is None:
        if moves >= MAX_MOVES:
            raise RuntimeError(f"{game.name} seed {seed}: no end after {MAX_MOVES} moves")
        for seat in game.to_act(state):
            if game.outcome(state) is not None or seat not in game.to_act(state):
                continue
            game.apply_in_place(state, seat, seats[seat](state, seat, chooser))
            moves += 1
    return game.outcome(state)["winners"]


def lone_share(game, players: int, games: int, seed: int, lone, crowd) -> float:
    """Win share (summed over games) of one ``lone`` player at a table of ``crowd`` players."""
    won = 0.0
    for g in range(games):
        where = g % players
        seats = [lone if s == where else crowd for s in range(players)]
        winners = play_game(game, seats, seed + g)
        won += (where in winners) / len(winners)
    return won


def bot_table(game, players: int, games: int, seed: int, bot) -> tuple[list[float], int]:
    """Win shares by seat (summed over games) and the number of tied games at all-bot tables."""
    by_seat = [0.0] * players
    ties = 0
    for g in range(games):
        winners = play_game(game, [bot] * players, seed + g)
        ties += len(winners) > 1
        for seat in winners:
            by_seat[seat] += 1 / len(winners)
    return by_seat, ties


def bench_count(game, players: int, games: int, seed: int, bot: Timed) -> list[str]:
    rows = [f"| {game.title} | {players} | bot among randoms | "
            f"{share_text(lone_share(game, players, games, seed, bot, random_player(game)), games)}"
            f" | {100 / players:.0f} |"]
    for label, make in CHALLENGERS.get(game.name, {"random": random_player}).items():
        won = lone_share(game, players, games, seed, make(game), bot)
        rows.append(f"| {game.title} | {players} | one {label} among bots | "
                    f"{share_text(won, games)} | {100 / players:.0f} |")
    by_seat, ties = bot_table(game, players, games, seed, bot)
    seats = " / ".join(f"{100 * w / games:.0f}" for w in by_seat)
    rows.append(f"| {game.title} | {players} | all bots: win % by seat; ties | "
                f"{seats}; ties {share_text(ties, games)} | {100 / players:.0f} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per table kind")
    parser.add_argument("--game", choices=sorted(GAMES), help="one game only")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"# bots  {args.games} games a cell  {platform.python_implementation()} "
          f"{platform.python_version()}  {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC")
    print("| game | players | table | win % [95% interval] | fair % |")
    print("|---|---|---|---|---|")
    timings = []
    for name in [args.game] if args.game else list(GAMES):
        game = GAMES[name]
        bot = Timed(game)
        for players in range(game.min_players, game.max_players + 1):
            for row in bench_count(game, players, args.games, args.seed, bot):
                print(row, flush=True)
        timings.append((game.title, bot.times))
    print()
    print("| game | bot decisions | median ms | p99 ms | max ms |")
    print("|---|---|---|---|---|")
    for title, times in timings:
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(f"| {title} | {len(times)} | {1e3 * statistics.median(times):.3f} | "
              f"{1e3 * p99:.3f} | {1e3 * times[-1]:.3f} |")


if __name__ == "__main__":
    main()
