"""Benchmark: the due-deadline sweep query with 1,000,000 scheduled deadlines.

Builds a throwaway PostgreSQL database with the real schema (Alembic), loads N deadlines
(1 % of them due) with COPY, then times the sweep's query (``timekeeping.due_deadlines``:
SELECT … WHERE status='pending' AND due_at <= now ORDER BY due_at LIMIT 100 FOR UPDATE SKIP
LOCKED) against a baseline measured in the same run: fetching one row by primary key.

    python -m bench.deadlines [--rows 1000000]
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from datetime import datetime, timedelta, timezone

import psycopg
from sqlalchemy import select, text

from service.store.db import Database
from service.store.models import DeadlineRow
from service.store.timekeeping import due_deadlines
from tests.services_available import fresh_postgres_database

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def load(url: str, rows: int) -> None:
    dsn = url.replace("postgresql+psycopg://", "postgresql://")
    rng = random.Random(1)
    with psycopg.connect(dsn) as conn:
        conn.execute("INSERT INTO games (id, game, status, created_at, updated_at, head_seq) "
                     "SELECT 'g' || i, 'incan_gold', 'active', now(), now(), 1 "
                     "FROM generate_series(0, %s) AS i", (rows // 8,))
        with conn.cursor().copy("COPY deadlines (game_id, seat, kind, decision_key, due_at, status) "
                                "FROM STDIN") as copy:
            for i in range(rows):
                due = NOW + timedelta(minutes=rng.randint(-1440, 144000)) if rng.random() > 0.01 \
                    else NOW - timedelta(minutes=rng.randint(1, 60))
                copy.write_row((f"g{i // 8}", i % 8, "timeout", f"k{i}", due,
                                "pending" if rng.random() > 0.3 else "done"))
        conn.execute("ANALYZE")


def timed(fn, repeat: int = 200) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1e6)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    url, drop = fresh_postgres_database()
    try:
        db = Database(url)
        db.upgrade()
        started = time.perf_counter()
        load(url, args.rows)
        print(f"loaded {args.rows:,} deadlines in {time.perf_counter() - started:.1f} s")

        def sweep_query():
            with db.unit_of_work() as session:
                due_deadlines(session, NOW, limit=100)

        def baseline():
            with db.unit_of_work() as session:
                session.scalars(select(DeadlineRow).where(DeadlineRow.id == 4242)).first()

        for fn in (sweep_query, baseline):
            timed(fn, 20)  # warm up
        sweep = timed(sweep_query)
        base = timed(baseline)
        p50s, p50b = statistics.median(sweep), statistics.median(base)
        print(f"due sweep (100 rows, FOR UPDATE SKIP LOCKED): p50 {p50s:.0f} µs, "
              f"p99 {sorted(sweep)[int(len(sweep) * .99) - 1]:.0f} µs")
        print(f"baseline (one row by primary key):          p50 {p50b:.0f} µs")
        print(f"ratio sweep / baseline: {p50s / p50b:.2f}x")
        with db.engine.connect() as conn:
            plan = conn.execute(text(
                "EXPLAIN SELECT * FROM deadlines WHERE status = 'pending' AND due_at <= :now "
                "ORDER BY due_at LIMIT 100 FOR UPDATE SKIP LOCKED"), {"now": NOW}).scalars().all()
        print("EXPLAIN:\n  " + "\n  ".join(plan))
        db.dispose()
    finally:
        drop()


if __name__ == "__main__":
    main()
