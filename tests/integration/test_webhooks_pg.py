"""On PostgreSQL: a webhook's post row is written in the move's own transaction, with its
event and its mail (a move that fails writes none of them), and a game without hooks reads
and writes no webhook table on its move path (docs/webhooks.md)."""
from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from sqlalchemy import event, select

from service.application import webhooks as channel
from service.store import snapshots
from service.store import webhooks as store_hooks
from service.store.models import EventRow, OutboxRow, WebhookDeliveryRow
from service.web.app import create_app
from service.core.config import from_env
from service.web.extensions import services
from tests.conftest import ADMIN_TOKEN, FrozenClock, secret_from_url
from tests.services_available import truncate_all
from tests.service.webhook_kit import receiver  # noqa: F401

pytestmark = pytest.mark.integration


@pytest.fixture
def app(postgres_url):
    snapshots.CACHE.clear()
    app = create_app(from_env({
        "CHASQUI_DATABASE_URL": postgres_url, "CHASQUI_BASE_URL": "http://chasqui.test",
        "CHASQUI_SECRET_KEY": "hooks-secret", "CHASQUI_ADMIN_TOKEN": ADMIN_TOKEN,
        "CHASQUI_RATE_LIMIT": "off", "CHASQUI_WEBHOOK_HTTP_HOSTS": "127.0.0.1"}),
        clock=FrozenClock(), upgrade=True)
    yield app
    db = services(app).db
    with db.engine.begin() as conn:
        truncate_all(conn)
    db.dispose()
    snapshots.CACHE.clear()


def new_game(client) -> tuple[str, list[str]]:
    body = {"game": "incan_gold", "seed": 3,
            "players": [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(3)]}
    response = client.post("/api/games", json=body,
                           headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert response.status_code == 201, response.get_json()
    data = response.get_json()
    return data["id"], [secret_from_url(s["play_url"]) for s in data["seats"]]


def stay(client, secret):
    seq = client.get(f"/api/play/{secret}").get_json()["seq"]
    return client.post(f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": seq})


@contextmanager
def statements(app):
    seen: list[str] = []

    def note(_conn, _cursor, statement, *_args):
        seen.append(statement)
    engine = services(app).db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def rows(app, model, game_id):
    with services(app).db.reading() as session:
        return list(session.scalars(select(model).where(model.game_id == game_id)))


def test_the_post_row_is_written_in_the_moves_transaction_and_posted_after_commit(app, receiver):
    client = app.test_client()
    game_id, secrets = new_game(client)
    svc = services(app)
    with svc.db.unit_of_work() as session:
        hook, _secret = channel.add(session, svc.settings, game_id, "json", receiver.url(), False,
                                    "en", channel.ORGANISER, svc.clock())
    stay(client, secrets[0])
    stay(client, secrets[1])
    with statements(app) as seen:
        assert stay(client, secrets[2]).status_code == 200  # a new decision for all three
    begins = [i for i, s in enumerate(seen) if "INSERT INTO webhook_outbox" in s]
    assert len(begins) == 1, "one statement writes the post row"
    head = max(e.seq for e in rows(app, EventRow, game_id))
    post, = rows(app, WebhookDeliveryRow, game_id)
    assert (post.hook_id, post.seq, post.status) == (hook.id, head, "sent")
    assert {r.seq for r in rows(app, OutboxRow, game_id) if r.kind == "turn"} == {head}
    assert receiver.bodies()[0]["seq"] == head


def test_a_move_whose_transaction_fails_writes_no_event_no_mail_and_no_post(
        app, receiver, monkeypatch):
    client = app.test_client()
    game_id, secrets = new_game(client)
    svc = services(app)
    with svc.db.unit_of_work() as session:
        channel.add(session, svc.settings, game_id, "discord", receiver.url(), False, "en",
                    channel.ORGANISER, svc.clock())
    stay(client, secrets[0])
    stay(client, secrets[1])
    events_before = len(rows(app, EventRow, game_id))
    mail_before = len(rows(app, OutboxRow, game_id))
    real_queue = store_hooks.queue

    def queue_then_fail(*args, **kwargs):
        assert real_queue(*args, **kwargs), "the post row was written"
        raise RuntimeError("the transaction fails after the post row")
    from service.application import games
    monkeypatch.setattr(games.webhooks, "queue", queue_then_fail)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    assert stay(client, secrets[2]).status_code == 500
    assert len(rows(app, EventRow, game_id)) == events_before
    assert len(rows(app, OutboxRow, game_id)) == mail_before
    assert rows(app, WebhookDeliveryRow, game_id) == [] and receiver.posts == []


def test_a_game_without_hooks_touches_no_webhook_table_on_a_move(app):
    client = app.test_client()
    game_id, secrets = new_game(client)
    with statements(app) as seen:
        for secret in secrets:
            assert stay(client, secret).status_code == 200
    tables = re.compile(r"webhook_outbox|webhook_policies|(FROM|INTO|UPDATE|JOIN) webhooks\b")
    assert not [s for s in seen if tables.search(s)], "only the games row's count is read"
