"""Benchmark: 100,000 games with their events in PostgreSQL.

Loads N games (4 seats each, a GameCreated and M moves each, clocks and deadlines) with COPY
into a throwaway database built by the real migrations, then prints the storage per game and
the plans of the hot queries (EXPLAIN ANALYZE): load a game's events, the due-deadline sweep,
a player's "my games".  Baseline in the same run: fetching one game row by primary key.

    python -m bench.scale [--games 100000] [--moves 20]
"""
from __future__ import annotations

import argparse
import json
import time
from datetime import datetime, timedelta, timezone

import psycopg

from service.store.db import Database
from tests.services_available import fresh_postgres_database

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
QUERIES = {
    "load a game (events in seq order)":
        "SELECT seq, kind, payload, actor, recorded_at, prev_hash, hash FROM events "
        "WHERE game_id = 'g4242' ORDER BY seq",
    "due deadlines (the sweep)":
        "SELECT * FROM deadlines WHERE status = 'pending' AND due_at <= '2026-12-01 12:00+00' "
        "ORDER BY due_at LIMIT 100 FOR UPDATE SKIP LOCKED",
    "my games (a player's seats)":
        "SELECT s.game_id, g.status, g.updated_at FROM seats s JOIN games g ON g.id = s.game_id "
        "WHERE s.email = 'p1.4242@example.org' ORDER BY g.updated_at",
    "baseline: one game by primary key": "SELECT * FROM games WHERE id = 'g4242'",
}


def load(dsn: str, games: int, moves: int) -> None:
    payload_created = json.dumps({"game": "incan_gold", "rules_version": "1", "seed": 1,
                                  "players": ["A", "B", "C", "D"], "options": {},
                                  "clock": {"per_decision_hours": 48}, "schema_version": 1})
    with psycopg.connect(dsn) as conn, conn.cursor() as cur:
        with cur.copy("COPY games (id, game, status, created_at, updated_at, head_seq) FROM STDIN") as c:
            for g in range(games):
                c.write_row((f"g{g}", "incan_gold", "active" if g % 5 else "finished", NOW,
                             NOW - timedelta(minutes=g % 10000), moves + 1))
        with cur.copy("COPY seats (game_id, seat, name, email, nonce, bot) FROM STDIN") as c:
            for g in range(games):
                for s in range(4):
                    c.write_row((f"g{g}", s, f"P{s}", f"p{s}.{g}@example.org", "n" * 16, False))
        with cur.copy("COPY events (game_id, seq, kind, payload, actor, recorded_at, prev_hash, hash) "
                      "FROM STDIN") as c:
            for g in range(games):
                c.write_row((f"g{g}", 1, "GameCreated", payload_created, "admin", NOW, "0" * 64, "a" * 64))
                for seq in range(2, moves + 2):
                    move = json.dumps({"seat": seq % 4, "action": {"type": "stay"},
                                       "label": "Stay in the temple", "seq_seen": seq - 1,
                                       "schema_version": 1})
                    c.write_row((f"g{g}", seq, "MoveMade", move, f"seat:{seq % 4}", NOW,
                                 "b" * 64, "c" * 64))
        with cur.copy("COPY deadlines (game_id, seat, kind, decision_key, due_at, status) FROM STDIN") as c:
            for g in range(games):
                for s in range(4):
                    c.write_row((f"g{g}", s, "timeout", f"r1t{g % 7}",
                                 NOW + timedelta(minutes=(g * 4 + s) % 20000 - 100), "pending"))
        conn.commit()
        conn.execute("ANALYZE")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    url, drop = fresh_postgres_database()
    dsn = url.replace("postgresql+psycopg://", "postgresql://")
    try:
        Database(url).upgrade()
        started = time.perf_counter()
        load(dsn, args.games, args.moves)
        print(f"# scale  {args.games:,} games x (4 seats, {args.moves + 1} events, 4 deadlines), "
              f"loaded in {time.perf_counter() - started:.0f} s")
        with psycopg.connect(dsn) as conn:
            total = 0
            for table in ("games", "seats", "events", "deadlines", "outbox"):
                size = conn.execute("SELECT pg_total_relation_size(%s)", (table,)).fetchone()[0]
                total += size
                print(f"{table:10s} {size / 1e6:9.1f} MB  {size / args.games:8.0f} bytes per game")
            print(f"{'total':10s} {total / 1e6:9.1f} MB  {total / args.games:8.0f} bytes per game")
            timings = {}
            for name, sql in QUERIES.items():
                plan = [r[0] for r in conn.execute("EXPLAIN ANALYZE " + sql)]
                conn.rollback()
                samples = []
                for _ in range(50):
                    start = time.perf_counter()
                    conn.execute(sql).fetchall()
                    conn.rollback()
                    samples.append((time.perf_counter() - start) * 1e6)
                timings[name] = sorted(samples)[len(samples) // 2]
                print(f"\n{name}: p50 {timings[name]:.0f} µs\n  " + "\n  ".join(plan))
            base = timings["baseline: one game by primary key"]
            print("\nratios to the primary-key baseline (same run):")
            for name, value in timings.items():
                print(f"  {name}: {value / base:.1f}x")
    finally:
        drop()


if __name__ == "__main__":
    main()
