"""Fair play on PostgreSQL: a player's move there writes its events in the one write statement
of ``move_writes``, so the move that ends a game writes its ``SeedRevealed`` (and every
event's nonce) in that statement too; the finished game's record verifies."""
from __future__ import annotations

import json

import pytest

from service.store import fairness

from service.store import move_writes

from service.store import events as store
from tests.conftest import ADMIN_TOKEN, secret_from_url
from tests.integration.test_move_one_read_one_write import app, clock  # noqa: F401  (fixtures)
from tests.service.test_fair_play import play_to_the_end
from service.web.extensions import services

pytestmark = pytest.mark.integration


def test_the_move_that_ends_a_game_reveals_its_seed_in_its_one_write_statement(app, monkeypatch):
    client = app.test_client()
    created = client.post("/api/games", json={
        "game": "incan_gold", "players": [{"name": f"P{i}", "email": f"p{i}@example.com"}
                                          for i in range(3)]},
        headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}).get_json()
    secrets = [secret_from_url(seat["play_url"]) for seat in created["seats"]]
    written: list[list[str]] = []
    execute = move_writes.execute

    def recording(session, write):
        written.append([values["kind"] for values in write.events])
        return execute(session, write)

    monkeypatch.setattr(move_writes, "execute", recording)
    play_to_the_end(client, secrets)
    assert written and written[-1][-1] == "SeedRevealed", written[-3:]
    db = services(app).db
    with db.reading() as session:
        events = store.load(session, created["id"])
    assert all(e.nonce for e in events) and events[-1].kind == "SeedRevealed"
    assert store.verify_chain(created["id"], events).ok
    record = json.loads(client.get(f"/play/{secrets[0]}/record.json").get_data())
    assert fairness.check_record(record).ok
