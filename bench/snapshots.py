"""Move submission cost at move 400 against move 1, with and without snapshots (same run).

The target is "move 400 costs at most 1.2x move 1".  No registered engine's *random*
game reaches move 400 (the longest, Inca Empire with 5 players, ends near move 305), so the
game submitted here is a real game played with a policy that prolongs it: Machu Picchu with
5 players, each move a random legal action, but with probability ``PROLONG`` an action that
ends a step early (pass, done, nothing, skip, leave) is avoided when another one is legal.  The
first seed whose game lasts ``LENGTH`` moves is used (deterministic).  ``--game inca_empire``
submits the longest random Inca Empire game instead (the previous benchmark).

Each configuration (snapshots off, then snapshots every N events for each ``--every`` N,
default ``snapshots.EVERY``) submits the same moves through the service's command
(``games.submit_move`` in one unit of work on a throwaway PostgreSQL database: load, replay,
validate, append, outbox, commit) to two games: one is brought, untimed, to just before the
late windows; then the early moves of a fresh game and the late moves of that one are timed
alternately, so that both ends of the ratio see the same load of a shared host.

Moves do not all do the same work: a move that opens a new decision for some seat (the
engine's ``decision_key`` changes) pays for the turn mail, the mail-preference look-up, the
new deadlines and an outbox row; a sub-step of one's own turn pays for none of them.  So three
comparisons are printed, each the median of 10 moves x ``--repeat`` game pairs at each end,
in wall-clock time and in CPU time of the benchmark's process:

* ``all``: moves 1-10 against moves 391-400 (whatever they do);
* ``new decision``: the first 10 moves that open a new decision against the last 10 such
  moves up to move 400;
* ``same decision``: the same for moves that open none.

    python -m bench.snapshots [--game machu_picchu|inca_empire] [--every 50,25,10] [--no-cache]
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from datetime import datetime, timezone

from bench.replay import record
from engine import GAMES
from service.store import snapshots
from service.store.db import Database
from service.application.games import create_game, submit_move

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
WINDOW = 10
LENGTH = 400
PROLONG = 0.9
ENDS_A_STEP = {"pass", "done", "nothing", "skip", "leave"}


def prolonged(game, players: int, seed: int, length: int) -> list[tuple[int, dict]]:
    """A real game (legal moves only) that tends to last: see the module docstring."""
    state = game.setup([f"P{i}" for i in range(players)], seed, {})
    chooser = random.Random(seed)
    moves: list[tuple[int, dict]] = []
    while game.outcome(state) is None and len(moves) < length:
        seat = chooser.choice(game.to_act(state))
        actions = game.legal_actions(state, seat)
        longer = [a for a in actions if a.get("type") not in ENDS_A_STEP]
        if longer and chooser.random() < PROLONG:
            actions = longer
        action = {k: v for k, v in chooser.choice(actions).items()
                  if k != "label" and not k.startswith("_")}
        game.apply_in_place(state, seat, action)
        moves.append((seat, action))
    return moves


def pick(name: str) -> tuple[str, list[str], int, list[tuple[int, dict]]]:
    game = GAMES[name]
    if name == "inca_empire":
        names, moves, seed = max(((*record(game, 5, s), s) for s in range(3)),
                                 key=lambda r: len(r[1]))
        return name, names, seed, moves
    players = 5
    for seed in range(200):
        moves = prolonged(game, players, seed, LENGTH)
        if len(moves) >= LENGTH:
            return name, [f"P{i}" for i in range(players)], seed, moves
    raise SystemExit(f"no {name} game of {LENGTH} moves in 200 seeds")


def opens_decision(name: str, names: list[str], seed: int, moves) -> list[bool]:
    """Per move: does it open a new decision for some seat (what makes a turn mail owed)?
    The same test as ``games.queue_mail``: a seat to act whose ``decision_key`` is not the
    one it was last told about."""
    game = GAMES[name]
    state = game.setup(names, seed, {})
    told = {s: game.decision_key(state, s) for s in game.to_act(state)}
    result = []
    for seat, action in moves:
        game.apply_in_place(state, seat, action)
        new = False
        if game.outcome(state) is None:
            for s in game.to_act(state):
                key = game.decision_key(state, s)
                if told.get(s) != key:
                    told[s], new = key, True
        result.append(new)
    return result


def new_game(db: Database, name: str, names: list[str], seed: int) -> str:
    with db.unit_of_work() as session:
        game_id, _ = create_game(session, name, [{"name": n, "email": f"{n}@bench.test"}
                                                 for n in names], seed, {}, "admin", NOW, "bench")
    return game_id


def submit(db: Database, game_id: str, moves, index: int) -> tuple[float, float]:
    """Submit move ``index`` (0-based; the head before it is seq index + 1): (wall-clock
    seconds, CPU seconds of this process).  The CPU time leaves out PostgreSQL's work and the
    waits for a busy host's CPUs; what grows with the history (reading, decoding, replaying)
    is mostly in it."""
    seat, action = moves[index]
    started, cpu = time.perf_counter(), time.process_time()
    with db.unit_of_work() as session:
        submit_move(session, game_id, seat, action, index + 1, f"seat:{seat}", NOW, "bench")
    return time.perf_counter() - started, time.process_time() - cpu


def ends(kinds: list[bool]) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """The moves (0-based) of each comparison's early and late window."""
    n = len(kinds)
    early, late = {"all": list(range(WINDOW))}, {"all": list(range(n - WINDOW, n))}
    for label, want in (("new decision", True), ("same decision", False)):
        chosen = [i for i in range(n) if kinds[i] is want]
        if len(chosen) >= 2 * WINDOW:
            early[label], late[label] = chosen[:WINDOW], chosen[-WINDOW:]
    return early, late


def run(db: Database, name: str, names: list[str], seed: int, moves, kinds,
        costs: dict[int, list[tuple[float, float]]]) -> None:
    """Seconds per submitted move, early ones on one game and late ones on another, timed
    alternately (early, late, early, ...) so both ends see the same host load: the late game
    is first brought, untimed, to just before its first late window."""
    early, late = ends(kinds)
    early_moves = range(max(i for w in early.values() for i in w) + 1)
    late_moves = range(min(i for w in late.values() for i in w), len(moves))
    young, old = new_game(db, name, names, seed), new_game(db, name, names, seed)
    for index in range(late_moves[0]):
        submit(db, old, moves, index)
    for step in range(max(len(early_moves), len(late_moves))):
        if step < len(early_moves):
            costs.setdefault(early_moves[step], []).append(submit(db, young, moves, early_moves[step]))
        if step < len(late_moves):
            costs.setdefault(late_moves[step], []).append(submit(db, old, moves, late_moves[step]))


def windows(costs: dict[int, list[tuple[float, float]]], kinds: list[bool], which: int
            ) -> dict[str, tuple[float, float, str]]:
    """(early ms, late ms, which moves) per comparison: medians of the WINDOW moves' samples
    (``which``: 0 wall clock, 1 CPU)."""
    early, late = ends(kinds)

    def med(indexes):
        return statistics.median(c[which] for i in indexes for c in costs[i]) * 1e3
    return {label: (med(early[label]), med(late[label]),
                    f"{early[label][0] + 1}-{early[label][-1] + 1} / "
                    f"{late[label][0] + 1}-{late[label][-1] + 1}") for label in early}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=("machu_picchu", "inca_empire"), default="machu_picchu")
    parser.add_argument("--every", default=str(snapshots.EVERY),
                        help="snapshot intervals to measure, comma separated")
    parser.add_argument("--repeat", type=int, default=3,
                        help="game pairs per configuration (samples per move)")
    parser.add_argument("--no-cache", action="store_true",
                        help="turn the process cache of decoded snapshots off")
    args = parser.parse_args()
    everies = [int(x) for x in args.every.split(",")]
    from tests.services_available import fresh_postgres_database

    name, names, seed, moves = pick(args.game)
    kinds = opens_decision(name, names, seed, moves)
    url, drop = fresh_postgres_database()
    db = Database(url)
    saved = snapshots.EVERY, snapshots.CACHE.size
    try:
        db.upgrade()
        if args.no_cache:
            snapshots.CACHE.resize(0)
        warm = new_game(db, name, names, seed)
        for index in range(20):
            submit(db, warm, moves, index)
        configs = [("snapshots off (full replay)", 10 ** 9)] + [
            (f"snapshots every {every}", every) for every in everies]
        results = [(label, {}) for label, _ in configs]
        for _ in range(args.repeat):  # configurations in turn, so each sees every phase
            for (label, every), (_, costs) in zip(configs, results):
                snapshots.EVERY = every
                run(db, name, names, seed, moves, kinds, costs)
    finally:
        snapshots.EVERY = saved[0]
        snapshots.CACHE.resize(saved[1])
        db.dispose()
        drop()
    n = len(moves)
    print(f"# snapshots  {platform.python_implementation()} {platform.python_version()}  "
          f"{os.cpu_count()} CPUs  load {os.getloadavg()[0]:.1f}  "
          f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC  {name}, {len(names)} players, "
          f"seed {seed}, {n} moves ({sum(kinds)} open a new decision), PostgreSQL, "
          f"process cache {'off' if args.no_cache else 'on'}, medians of {args.repeat} x 10")
    print(f"{'ms per submission':<30}{'moves':<14}{'which (early / late)':>20}"
          f"{'wall early / late':>20}{'ratio':>7}{'CPU early / late':>19}{'ratio':>7}")
    for label, costs in results:
        wall, cpu = windows(costs, kinds, 0), windows(costs, kinds, 1)
        for kind, (early, late, which) in wall.items():
            c_early, c_late, _ = cpu[kind]
            print(f"{label if kind == 'all' else '':<30}{kind:<14}{which:>20}"
                  f"{early:>12.1f} / {late:>5.1f}{late / early:>6.2f}x"
                  f"{c_early:>11.1f} / {c_late:>5.1f}{c_late / c_early:>6.2f}x")


if __name__ == "__main__":
    main()
