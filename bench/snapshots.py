"""Move submission cost late in a long game, with and without snapshots (same run).

A random game of the longest engine available (Inca Empire, 5 players: ~300 moves; falls back
to Machu Picchu, then Incan Gold, if an engine does not import) is recorded, then submitted move
by move through the service's command (``games.submit_move`` in one unit of work on a
throwaway PostgreSQL database: load, replay, validate, append, outbox, commit) twice: with
snapshots every ``snapshots.EVERY`` events, and with snapshots off.  Printed: ms per
submission around the first moves and around the last ones; the ratio late/early is the figure
to watch (the brief's "move 400 vs move 1": no registered engine's random game reaches 400
moves here, so the last moves of the longest game stand in for it).

    python -m bench.snapshots
"""
from __future__ import annotations

import os
import platform
import statistics
import time
from datetime import datetime, timezone

from bench.replay import record
from engine import GAMES
from service import snapshots
from service.db import Database
from service.games import create_game, submit_move

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
WINDOW = 10


def pick():
    for name, players in (("inca_empire", 5), ("machu_picchu", 5), ("incan_gold", 8)):
        try:
            game = GAMES[name]
            names, moves = max((record(game, players, seed) for seed in range(3)),
                               key=lambda r: len(r[1]))
            return name, names, moves
        except Exception as error:  # noqa: BLE001  an engine being built may not import
            print(f"{name}: skipped ({type(error).__name__}: {error})")
    raise SystemExit("no engine could be recorded")


def run(db: Database, name: str, names: list[str], seed: int, moves) -> list[float]:
    with db.unit_of_work() as session:
        game_id, _ = create_game(session, name, [{"name": n, "email": f"{n}@bench.test"}
                                                 for n in names], seed, {}, "admin", NOW, "bench")
    costs = []
    for seq, (seat, action) in enumerate(moves, start=1):  # the head before move i is seq i
        started = time.perf_counter()
        with db.unit_of_work() as session:
            submit_move(session, game_id, seat, action, seq, f"seat:{seat}", NOW, "bench")
        costs.append(time.perf_counter() - started)
    return costs


def main() -> None:
    from tests.services_available import fresh_postgres_database

    name, names, moves = pick()
    seed = None
    for s in range(3):  # the seed pick() kept
        if record(GAMES[name], len(names), s)[1] == moves:
            seed = s
            break
    url, drop = fresh_postgres_database()
    db = Database(url)
    try:
        db.upgrade()
        every = snapshots.EVERY
        run(db, name, names, seed, moves[:20])  # warm up
        with_snap = run(db, name, names, seed, moves)
        snapshots.EVERY = 10 ** 9
        without = run(db, name, names, seed, moves)
        snapshots.EVERY = every
    finally:
        db.engine.dispose()
        drop()
    n = len(moves)

    def ms(costs, start):
        return statistics.median(costs[start:start + WINDOW]) * 1e3
    print(f"# snapshots  {platform.python_implementation()} {platform.python_version()}  "
          f"{os.cpu_count()} CPUs  {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC  "
          f"{name}, {len(names)} players, {n} moves, PostgreSQL, snapshot every {every} events")
    print(f"{'ms per submission (median of 10)':<36}{'moves 1-10':>12}{f'moves {n - WINDOW + 1}-{n}':>14}{'late/early':>12}")
    for label, costs in (("snapshots off (full replay)", without), (f"snapshots every {every}", with_snap)):
        early, late = ms(costs, 0), ms(costs, n - WINDOW)
        print(f"{label:<36}{early:>12.1f}{late:>14.1f}{late / early:>11.1f}x")
    print(f"late moves: snapshots on = {ms(with_snap, n - WINDOW) / ms(without, n - WINDOW):.2f} x off")


if __name__ == "__main__":
    main()
