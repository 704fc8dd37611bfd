"""The baseline web app for ``bench.http``: bare Flask + SQLAlchemy, one endpoint that inserts
one row in its own transaction (what any database-backed POST costs at least)."""
from __future__ import annotations

import os

from flask import Flask, jsonify, request
from sqlalchemy import create_engine, text

engine = create_engine(os.environ["BENCH_DATABASE_URL"], pool_size=10, max_overflow=20)
TABLE = "CREATE TABLE IF NOT EXISTS bench_rows (id serial PRIMARY KEY, payload jsonb NOT NULL)"


def create_table() -> None:
    """Run once by ``bench.http`` before the servers start: two workers importing this at the
    same moment could both try to create it, and the loser's failed boot stopped the server."""
    with engine.begin() as conn:
        conn.execute(text(TABLE))


app = Flask(__name__)


@app.post("/row")
def row():
    body = request.get_json()
    with engine.begin() as conn:
        new_id = conn.execute(text("INSERT INTO bench_rows (payload) VALUES (CAST(:p AS jsonb)) "
                                   "RETURNING id"), {"p": request.get_data(as_text=True)}).scalar()
    return jsonify(id=new_id, seq=body.get("seq"))
