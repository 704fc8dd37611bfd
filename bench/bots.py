"""Bot strength, balance under the strongest bot, and decision times, by self-play.

Engines only (no service).  Printed as markdown tables, ready for docs/balance.md.

* **Strength** -- for each game and player count, one lone player at a table of others; its win
  share with a Wilson 95% interval against the fair share 1/n: the strong bot among easy bots,
  among random players and among flat Monte Carlo players; flat Monte Carlo, one random player
  and one easy bot among strong bots; for Incan Gold also "leave at 10 gems" and the former
  deterministic rule among strong bots.  "clearly above fair" means the whole interval lies
  above the fair share, "clearly below fair" the whole interval below; "expected" is what a
  good strong bot shows (alone: above fair; any other player alone among strong bots: at most
  fair) and "holds" whether the table shows it ("not settled": more games needed).
* **Balance** -- all-strong tables: win % by seat (seat 1 first) and the seat furthest from its
  fair share with its interval (the furthest of n seats: a hint, not a test), ties, the
  winner's margin (first score minus second), the mean and spread of scores, game length in
  moves (every seat's, forced ones too) and in the game's own rounds, and what each game's reader
  (``bench/balance_stats.py``) counts: how games end, what is used, which goals and cards pay.
* **Decision times** -- count, median, p99 and max per game and player kind, over the
  decisions with more than one legal move; a strong decision over 2 s, or a strong median over
  0.5 s, is flagged.

A shared victory gives each winner an equal part (a three-way tie counts 1/3 to each), so the
shares at a table add to 100%.  The lone player's seat turns with the game number, so no seat's
advantage is credited to a player.  Every game is seeded from (seed, game, player count, game
number) -- the same deal for every kind of table, which makes the comparisons paired -- and
``--jobs`` only spreads the games over processes: the tables (not the times) are identical for
any number of jobs.  Intervals narrow as 1/sqrt(games): 400 games a cell give about ±5 points.

    python -m bench.bots [--game NAME] [--players N ...] [--games N] [--jobs J] [--seed S]
                         [--flat-rollouts R] [--iterations I] [--only strength|balance]
                         [--table "random among strong" ...] [--quick]
"""
from __future__ import annotations

import argparse
import hashlib
import math
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
import dataclasses
from dataclasses import dataclass
from datetime import datetime, timezone

from bench import balance_stats
from bench.bot_players import (EASY, FLAT, FORMER_RULE, LEAVE_AT_TEN, RANDOM, STRONG, TIMED,
                               make_player)
from engine import GAMES, search

MAX_MOVES = 20_000
Z95 = 1.96
STRONG_MAX_SECONDS = 2.0      # no strong decision may take longer
STRONG_MEDIAN_SECONDS = 0.5   # nor may the typical one

# (lone player, the others): the strength cells every game gets, then each game's own.
STRENGTH_CELLS = [(STRONG, EASY), (STRONG, RANDOM), (STRONG, FLAT), (FLAT, STRONG),
                  (RANDOM, STRONG), (EASY, STRONG)]
GAME_STRENGTH_CELLS = {"incan_gold": [(LEAVE_AT_TEN, STRONG), (FORMER_RULE, STRONG)]}
BALANCE_PLAYERS = (STRONG, EASY)   # who sits at every seat of a balance table; strong unless asked
SECTIONS = ("strength", "balance")


# --------------------------------------------------------------------------- statistics

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


def verdict(successes: float, trials: int, fair: float) -> str:
    """Whether the interval settles the question against the fair share (in percent)."""
    low, high = wilson(successes, trials)
    if low > fair:
        return "clearly above fair"
    if high < fair:
        return "clearly below fair"
    return "not settled"


def expected(cell: "Cell") -> str:
    """What a good strong bot should show at this table: the strong bot alone wins more than
    its share; any other player alone among strong bots wins at most its share."""
    return "above fair" if cell.lone == STRONG else "at most fair"


def holds(cell: "Cell", successes: float, trials: int, fair: float) -> str:
    """Whether the table shows what is expected: "yes", "NO", or "not settled" when the
    interval still covers both answers."""
    found = verdict(successes, trials, fair)
    if expected(cell) == "above fair":
        return {"clearly above fair": "yes", "clearly below fair": "NO"}.get(found, "not settled")
    if found == "clearly above fair":
        return "NO"
    return "yes" if 100 * successes / trials <= fair else "not settled"


def games_text(games: int) -> str:
    return f"{games} game" if games == 1 else f"{games} games"


def quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --------------------------------------------------------------------------- one game

@dataclass(frozen=True)
class Job:
    """One game to play: which game, who sits where, its seed, and whether to read it."""
    game: str
    kinds: tuple[str, ...]
    seed: int
    flat_rollouts: int
    read: bool
    iterations: int | None = None


def strong_settings(game) -> search.Settings:
    return getattr(game, "search_settings", None) or search.Settings()


def use_iterations(game, iterations: int) -> None:
    """Give the strong bot another budget for this process's games (``--iterations``: to
    develop with, or to measure how strength grows with thinking)."""
    game.search_settings = dataclasses.replace(strong_settings(game), iterations=iterations)


def game_seed(seed: int, game: str, players: int, number: int) -> int:
    """The seed of game ``number`` of a cell: the same deal for every kind of table."""
    material = f"bench.bots:{seed}:{game}:{players}:{number}"
    return int(hashlib.sha256(material.encode()).hexdigest()[:12], 16)


def play_game(job: Job) -> dict:
    """Play one game, each seat by its kind of player; what it ended as, and the times of the
    decisions that had a choice (a forced move costs a bot nothing and would flatter the
    median)."""
    game = GAMES[job.game]
    if job.iterations:
        use_iterations(game, job.iterations)
    seats = [make_player(kind, game, job.flat_rollouts) for kind in job.kinds]
    state = game.setup([f"P{i + 1}" for i in range(len(seats))], job.seed, {})
    chooser = random.Random(f"{game.name} chooser {job.seed}")
    times: dict[str, list[float]] = defaultdict(list)
    moves: list[tuple[int, dict]] = []
    while game.outcome(state) is None:
        if len(moves) >= MAX_MOVES:
            raise RuntimeError(f"{game.name} seed {job.seed}: no end after {MAX_MOVES} moves")
        for seat in game.to_act(state):
            if game.outcome(state) is not None or seat not in game.to_act(state):
                continue
            kind = job.kinds[seat]
            timed = kind in TIMED and len(game.legal_actions(state, seat)) > 1
            started = time.perf_counter()
            action = seats[seat](state, seat, chooser)
            if timed:
                times[kind].append(time.perf_counter() - started)
            game.apply_in_place(state, seat, action)
            moves.append((seat, action))
    result = game.outcome(state)
    scores = result["scores"]
    return {
        "winners": list(result["winners"]),
        "scores": [float(scores[s] if isinstance(scores, list)
                         else scores.get(s, scores.get(str(s)))) for s in range(len(seats))],
        "moves": len(moves),
        "rounds": balance_stats.rounds(job.game, state),
        "counts": balance_stats.read(job.game, state, moves) if job.read else {},
        "times": dict(times),
    }


# --------------------------------------------------------------------------- cells

@dataclass(frozen=True)
class Cell:
    """A kind of table: ``lone`` at one seat (turning with the game number) among ``crowd``;
    ``lone`` None: every seat is ``crowd``."""
    section: str
    game: str
    players: int
    lone: str | None
    crowd: str

    @property
    def label(self) -> str:
        return f"{self.lone} among {self.crowd}" if self.lone else f"all {self.crowd}"

    def kinds(self, number: int) -> tuple[str, ...]:
        where = number % self.players
        return tuple(self.lone if self.lone and s == where else self.crowd
                     for s in range(self.players))

    def lone_seat(self, number: int) -> int:
        return number % self.players


def table_labels() -> list[str]:
    """Every kind of table by its label, as ``--table`` takes them."""
    pairs = STRENGTH_CELLS + [pair for extra in GAME_STRENGTH_CELLS.values() for pair in extra]
    return [f"{lone} among {crowd}" for lone, crowd in pairs] + [f"all {BALANCE_PLAYERS[0]}"]


def cells(games: list[str], players: list[int] | None, only: str | None,
          tables: list[str] | None = None, fewest: bool = False,
          balance_player: str = STRONG) -> list[Cell]:
    """Every table to play, strength first then balance, game by game, fewest players first
    (only the ``tables`` named, when some are; only each game's fewest players if ``fewest``)."""
    found = []
    for section in SECTIONS:
        if only and section != only:
            continue
        for name in games:
            game = GAMES[name]
            for n in range(game.min_players, game.max_players + 1):
                if (players and n not in players) or (fewest and n > game.min_players):
                    continue
                if section == "strength":
                    found += [Cell(section, name, n, lone, crowd) for lone, crowd in
                              STRENGTH_CELLS + GAME_STRENGTH_CELLS.get(name, [])]
                else:
                    found.append(Cell(section, name, n, None, balance_player))
    return [cell for cell in found if not tables or cell.label in tables
            or (cell.section == "balance" and f"all {STRONG}" in tables)]


def jobs_of(cell: Cell, args) -> list[Job]:
    return [Job(cell.game, cell.kinds(g), game_seed(args.seed, cell.game, cell.players, g),
                args.flat_rollouts, cell.section == "balance", args.iterations)
            for g in range(args.games)]


def lone_won(cell: Cell, results: list[dict]) -> float:
    """The lone player's wins, a shared victory split among its winners."""
    return sum((cell.lone_seat(g) in r["winners"]) / len(r["winners"])
               for g, r in enumerate(results))


# --------------------------------------------------------------------------- tables

def strength_header() -> list[str]:
    return ["## Strength: the lone player's win share", "",
            "| game | players | table | win % [95% interval] | fair % | verdict | expected | "
            "holds |",
            "|---|---|---|---|---|---|---|---|"]


def strength_row(cell: Cell, results: list[dict]) -> str:
    won, fair = lone_won(cell, results), 100 / cell.players
    return (f"| {GAMES[cell.game].title} | {cell.players} | {cell.label} | "
            f"{share_text(won, len(results))} | {fair:.0f} | "
            f"{verdict(won, len(results), fair)} | {expected(cell)} | "
            f"{holds(cell, won, len(results), fair)} |")


def balance_summary(results: list[dict]) -> dict:
    players = len(results[0]["scores"])
    by_seat = [0.0] * players
    for r in results:
        for seat in r["winners"]:
            by_seat[seat] += 1 / len(r["winners"])
    margins = []
    for r in results:
        ordered = sorted(r["scores"], reverse=True)
        margins.append(ordered[0] - ordered[1] if len(ordered) > 1 else 0.0)
    scores = [s for r in results for s in r["scores"]]
    rounds = [r["rounds"] for r in results if r["rounds"] is not None]
    return {
        "by_seat": by_seat,
        "ties": sum(len(r["winners"]) > 1 for r in results),
        "margin": statistics.fmean(margins),
        "score": balance_stats.mean_sd(scores),
        "moves": statistics.fmean(r["moves"] for r in results),
        "rounds": statistics.fmean(rounds) if rounds else None,
    }


def balance_header(game: str, crowd: str) -> list[str]:
    title = GAMES[game].title
    rounds = balance_stats.ROUND_WORDS.get(game, "rounds")
    return [f"## Balance under the {crowd} bot: {title}", "",
            f"| players | games | win % by seat (seat 1 first) | seat furthest from fair, "
            f"win % [95%] | ties % [95%] | winner's margin | score mean (sd) | moves a game "
            f"| {rounds} a game |",
            "|---|---|---|---|---|---|---|---|---|"]


def balance_row(cell: Cell, results: list[dict]) -> str:
    found, games = balance_summary(results), len(results)
    seats = " / ".join(f"{100 * w / games:.0f}" for w in found["by_seat"])
    mean, sd = found["score"]
    rounds = f"{found['rounds']:.1f}" if found["rounds"] is not None else "–"
    fair = games / cell.players
    furthest = max(range(cell.players), key=lambda s: abs(found["by_seat"][s] - fair))
    return (f"| {cell.players} | {games} | {seats} | seat {furthest + 1}: "
            f"{share_text(found['by_seat'][furthest], games)} | "
            f"{share_text(found['ties'], games)} | "
            f"{found['margin']:.1f} | {mean:.1f} ({sd:.1f}) | {found['moves']:.0f} | "
            f"{rounds} |")


def balance_details(cell: Cell, results: list[dict]) -> list[str]:
    lines = balance_stats.report(cell.game, summed_counts(results), len(results))
    if not lines:
        return []
    return [f"### {GAMES[cell.game].title}, {cell.players} players, all {cell.crowd} "
            f"({games_text(len(results))})", ""] + lines + [""]


def summed_counts(results: list[dict]) -> dict:
    total: Counter = Counter()
    for r in results:
        balance_stats.add_counts(total, r["counts"])
    return dict(total)


def overall_details(game: str, results: list[dict], crowd: str) -> list[str]:
    """The game's tables over every player count played (e.g. Inca Empire's cards by name)."""
    lines = balance_stats.report_overall(game, summed_counts(results), len(results))
    if not lines:
        return []
    return [f"### {GAMES[game].title}, every player count played, all {crowd} "
            f"({games_text(len(results))})", ""] + lines + [""]


def time_lines(times: dict[tuple[str, str], list[float]]) -> list[str]:
    lines = ["## Decision times (decisions with more than one legal move)", "",
             "| game | player | decisions | median ms | p99 ms | max ms | over budget |",
             "|---|---|---|---|---|---|---|"]
    for (game, kind), found in times.items():
        if not found:
            continue
        ordered = sorted(found)
        median = statistics.median(ordered)
        flags = []
        if kind == STRONG:
            slow = sum(t > STRONG_MAX_SECONDS for t in ordered)
            if slow:
                flags.append(f"**{slow} over {STRONG_MAX_SECONDS:g} s**")
            if median > STRONG_MEDIAN_SECONDS:
                flags.append(f"**median over {STRONG_MEDIAN_SECONDS:g} s**")
        lines.append(f"| {GAMES[game].title} | {kind} | {len(ordered)} | {1e3 * median:.2f} | "
                     f"{1e3 * quantile(ordered, 0.99):.2f} | {1e3 * ordered[-1]:.2f} | "
                     f"{', '.join(flags) or ('within' if kind == STRONG else '')} |")
    return lines


def header(args, games: list[str]) -> list[str]:
    lines = [f"# Bot benchmark, {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC", "",
             f"Python {platform.python_version()} ({platform.python_implementation()}), "
             f"{os.cpu_count()} CPUs, {platform.machine()}; seed {args.seed}; games a cell: "
             f"{args.games}; flat Monte Carlo: {args.flat_rollouts} random playouts a move; "
             f"processes: {args.jobs}.",
             ""]
    for name in games:
        game = GAMES[name]
        settings = search.describe(strong_settings(game))
        if args.iterations:
            settings["iterations"] = f"{args.iterations} (--iterations)"
        lines.append(f"* {game.title} (rules version {game.rules_version}): strong bot "
                     + ", ".join(f"{k} {v}" for k, v in settings.items()))
    return lines + [""]


# --------------------------------------------------------------------------- running

def run(args, out=print) -> dict:
    """Play every cell and print its tables; returns the results by cell (for tests)."""
    games = [args.game] if args.game else list(GAMES)
    todo = cells(games, args.players, args.only, args.table,
                 fewest=args.quick and not args.players, balance_player=args.balance_player)
    for line in header(args, games) + [f"Games to play: {len(todo) * args.games} "
                                       f"({len(todo)} tables of {args.games}).", ""]:
        out(line)
    jobs = [job for cell in todo for job in jobs_of(cell, args)]
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        played = pool.map(play_game, jobs, chunksize=1) if pool else map(play_game, jobs)
        return report(todo, args.games, played, out)
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)


def report(todo: list[Cell], games: int, played, out) -> dict:
    """Print each cell's rows as its games come in (in order, whatever the number of jobs): the
    strength table, then for each game its balance table followed by its detailed tables."""
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    by_cell: dict[Cell, list[dict]] = {}
    for number, cell in enumerate(todo):
        started = time.perf_counter()
        results = by_cell[cell] = [next(played) for _ in range(games)]
        for r in results:
            for kind, found in r["times"].items():
                times[(cell.game, kind)].extend(found)
        before = todo[number - 1] if number else None
        after = todo[number + 1] if number + 1 < len(todo) else None
        if cell.section == "strength":
            lines = strength_header() if before is None else []
            lines.append(strength_row(cell, results))
        else:
            opens = before is None or (before.section, before.game) != ("balance", cell.game)
            lines = [""] + balance_header(cell.game, cell.crowd) if opens else []
            lines.append(balance_row(cell, results))
        if cell.section == "balance" and (after is None or after.game != cell.game):
            lines += [""] + balance_section_details(cell.game, by_cell)
        for line in lines:
            out(line)
        print(f"  done: {GAMES[cell.game].title}, {cell.players} players, {cell.label} "
              f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    for line in [""] + time_lines(times):
        out(line)
    return by_cell


def balance_section_details(game: str, by_cell: dict[Cell, list[dict]]) -> list[str]:
    """The detailed tables of a game's balance cells, one player count after another, then
    those given once over every count."""
    mine = [(cell, results) for cell, results in by_cell.items()
            if cell.section == "balance" and cell.game == game]
    lines = [line for cell, results in mine for line in balance_details(cell, results)]
    return lines + overall_details(game, [r for _, results in mine for r in results],
                                   mine[0][0].crowd)


def parse(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), help="one game only")
    parser.add_argument("--players", type=int, nargs="+", help="these player counts only")
    parser.add_argument("--games", type=int, help="games a cell (default 50; --quick: 2)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play games in")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--flat-rollouts", type=int,
                        help="random playouts per legal move of flat Monte Carlo "
                             "(default 10; --quick: 2)")
    parser.add_argument("--iterations", type=int,
                        help="the strong bot's iterations a decision (default: each game's own)")
    parser.add_argument("--only", choices=SECTIONS, help="one kind of table only")
    parser.add_argument("--table", action="append", choices=table_labels(), metavar="LABEL",
                        help="this kind of table only (repeatable): "
                             + "; ".join(f'"{label}"' for label in table_labels()))
    parser.add_argument("--balance-player", choices=BALANCE_PLAYERS, default=STRONG,
                        help="who plays every seat of the balance tables (default strong; "
                             "easy is cheap enough for hundreds of games a cell)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: few games a cell, each game at its fewest players "
                             "unless --players says otherwise")
    args = parser.parse_args(argv)
    if args.games is None:
        args.games = 2 if args.quick else 50
    if args.flat_rollouts is None:
        args.flat_rollouts = 2 if args.quick else 10
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    run(args, lambda line: print(line, flush=True))


if __name__ == "__main__":
    main()
