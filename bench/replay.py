"""Replay cost: µs per event to rebuild a state from its events, per registered game.

For each game a random game is recorded (legal moves chosen by a seeded RNG, 4 players) and
replayed (a) through the engine (``engine.replay``: setup + ``apply_in_place`` per move) and
(b) through the service's path (``service.store.history.rebuild`` over stored ``Event`` objects,
which also resolves rollbacks).  The baseline, measured in the same run, is ``json.loads`` of
the same events as they come out of the database (one JSON text per event).  A game whose
engine is not importable yet is reported and skipped.  Target: <= 50 µs per event.

    python -m bench.replay [--games N] [--seed S]
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import time
import traceback
from datetime import datetime, timezone

from engine import GAMES, canonical_json, replay
from service.store.history import rebuild
from service.store.events import GENESIS, Event

TARGET_US = 50.0
PLAYERS = {"machu_picchu": 4, "inca_empire": 4, "incan_gold": 4}
MAX_MOVES = 20_000


def record(game, players: int, seed: int) -> tuple[list[str], list[tuple[int, dict]]]:
    names = [f"P{i}" for i in range(players)]
    state = game.setup(names, seed, {})
    chooser = random.Random(seed)
    moves = []
    while game.outcome(state) is None and len(moves) < MAX_MOVES:
        seat = chooser.choice(game.to_act(state))
        action = chooser.choice(game.legal_actions(state, seat))
        action = {k: v for k, v in action.items() if k != "label" and not k.startswith("_")}
        game.apply_in_place(state, seat, action)
        moves.append((seat, action))
    return names, moves


def as_events(name: str, game, names, seed, moves) -> list[Event]:
    now = datetime(2026, 11, 29, tzinfo=timezone.utc)
    events = [Event(1, "GameCreated", {"game": name, "rules_version": game.rules_version,
                                       "seed": seed, "players": names, "options": {},
                                       "schema_version": 1}, "admin", now, GENESIS, "0" * 64)]
    for i, (seat, action) in enumerate(moves, start=2):
        events.append(Event(i, "MoveMade", {"seat": seat, "action": action, "label": "",
                                            "seq_seen": i - 1, "schema_version": 1},
                            f"seat:{seat}", now, "0" * 64, "0" * 64))
    return events


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def bench_game(name: str, games: int, seed: int) -> dict | None:
    try:
        game = GAMES[name]
    except Exception as error:  # noqa: BLE001  an engine being built may not import yet
        return {"name": name, "error": f"{type(error).__name__}: {error}"}
    players = PLAYERS.get(name, game.min_players)
    players = max(game.min_players, min(game.max_players, players))
    total = {"events": 0, "engine": 0.0, "service": 0.0, "json": 0.0, "setup": 0.0}
    for g in range(games):
        try:
            names, moves = record(game, players, seed + g)
        except Exception:  # noqa: BLE001
            return {"name": name, "error": "recording failed:\n" + traceback.format_exc(limit=3)}
        events = as_events(name, game, names, seed + g, moves)
        rows = [canonical_json(e.payload) for e in events]  # what the JSON column holds
        repeat = max(3, min(50, 20_000 // max(len(events), 1)))
        total["events"] += len(events)
        total["engine"] += best_of(lambda: replay(game, names, seed + g, {}, moves), repeat)
        total["service"] += best_of(lambda: rebuild(events), repeat)
        total["json"] += best_of(lambda: [json.loads(r) for r in rows], repeat)
        total["setup"] += best_of(lambda: game.setup(names, seed + g, {}), repeat)
    n = total["events"]
    return {"name": name, "players": players, "games": games, "events": n,
            "engine_us": total["engine"] / n * 1e6, "service_us": total["service"] / n * 1e6,
            "json_us": total["json"] / n * 1e6, "setup_ms": total["setup"] / games * 1e3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="recorded games per engine")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"# replay  {platform.python_implementation()} {platform.python_version()}  "
          f"{platform.machine()}  {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(f"{'game':<14}{'players':>8}{'events':>8}{'engine µs/ev':>14}{'service µs/ev':>15}"
          f"{'json µs/ev':>12}{'ratio':>8}{'setup ms':>10}  target {TARGET_US:.0f} µs")
    for name in GAMES:
        result = bench_game(name, args.games, args.seed)
        if "error" in result:
            print(f"{name:<14}  skipped: {result['error'].splitlines()[0]}")
            continue
        ratio = result["service_us"] / result["json_us"]
        verdict = "ok" if result["service_us"] <= TARGET_US else "OVER"
        print(f"{name:<14}{result['players']:>8}{result['events']:>8}{result['engine_us']:>14.1f}"
              f"{result['service_us']:>15.1f}{result['json_us']:>12.2f}{ratio:>7.0f}x"
              f"{result['setup_ms']:>10.2f}  {verdict}")
    print("ratio = service replay / json.loads of the same events (baseline, same run); "
          "µs per event include setup spread over the game's events")


if __name__ == "__main__":
    main()
