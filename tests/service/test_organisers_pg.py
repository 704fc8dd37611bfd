"""On PostgreSQL: the flow, and two last acceptances at once start one game only
(the pending game is locked FOR UPDATE).  Skips without PostgreSQL, fails under CI=true."""
from __future__ import annotations

import secrets
import threading

from sqlalchemy import select

from service.store.models import GameRow, OutboxRow, PendingGameRow
from tests.conftest import make_settings, migrated_app
from tests.service.test_organisers_support import answer, create_game, sign_in, svc
from service.web.extensions import services


def test_two_last_acceptances_at_once_start_exactly_one_game(tmp_path, clock, postgres_url):
    app = migrated_app(make_settings(tmp_path, CHASQUI_DATABASE_URL=postgres_url), clock=clock)
    app.config["TESTING"] = True
    client = app.test_client()
    tag = secrets.token_hex(3)
    players = [(n, f"{n.lower()}.{tag}@example.org") for n in ("Ana", "Ben", "Cai")]
    sign_in(client, app, f"olga.{tag}@example.org")
    pending_id = create_game(client, invitees=players)
    assert answer(app, players[0][1]).status_code == 200
    codes = []

    def accept(address):
        codes.append(answer(app, address).status_code)

    threads = [threading.Thread(target=accept, args=(a,)) for _, a in players[1:]]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(codes) == [200, 200]
    with svc(app).db.reading() as session:
        pending = session.get(PendingGameRow, pending_id)
        assert pending.status == "started"
        games = list(session.scalars(select(GameRow).where(GameRow.id == pending.game_id)))
        assert len(games) == 1
        mailed = set(session.scalars(select(OutboxRow.to_addr).where(OutboxRow.game_id == pending.game_id)))
    assert mailed == {f"olga.{tag}@example.org"} | {a for _, a in players}
    services(app).db.dispose()
