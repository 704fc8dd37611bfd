"""On PostgreSQL: a webhook's post row is written in the move's own transaction, with its
event and its mail (a move that fails writes none of them), and a game without hooks reads
and writes no webhook table on its move path (docs/webhooks.md)."""
from __future__ import annotations

import dataclasses
import re

import pytest
from sqlalchemy import select

from service.application import webhooks as channel
from service.store import webhooks as store_hooks
from service.store.models import EventRow, OutboxRow, WebhookDeliveryRow
from service.web.extensions import services
from tests.integration.test_move_one_read_one_write import app, clock, new_game, recorded  # noqa: F401
from tests.service.webhook_kit import receiver  # noqa: F401

pytestmark = pytest.mark.integration


@pytest.fixture(autouse=True)
def hooked(app):
    """The move tests' PostgreSQL app, with the receiver's host on the http allow-list."""
    svc = services(app)
    svc.settings = dataclasses.replace(svc.settings, webhook_http_hosts=("127.0.0.1",))
    return app


def stay(client, secret):
    seq = client.get(f"/api/play/{secret}").get_json()["seq"]
    return client.post(f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": seq})


def statements(app):
    return recorded(services(app).db.engine)


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
    for secret in secrets[:-1]:
        stay(client, secret)
    with statements(app) as (seen, _transactions):
        assert stay(client, secrets[-1]).status_code == 200  # a new decision for all
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
    for secret in secrets[:-1]:
        stay(client, secret)
    events_before = len(rows(app, EventRow, game_id))
    mail_before = len(rows(app, OutboxRow, game_id))
    real_queue = store_hooks.queue

    def queue_then_fail(*args, **kwargs):
        assert real_queue(*args, **kwargs), "the post row was written"
        raise RuntimeError("the transaction fails after the post row")
    from service.application import games
    monkeypatch.setattr(games.webhooks, "queue", queue_then_fail)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    assert stay(client, secrets[-1]).status_code == 500
    assert len(rows(app, EventRow, game_id)) == events_before
    assert len(rows(app, OutboxRow, game_id)) == mail_before
    assert rows(app, WebhookDeliveryRow, game_id) == [] and receiver.posts == []


def test_a_game_without_hooks_touches_no_webhook_table_on_a_move(app):
    client = app.test_client()
    game_id, secrets = new_game(client)
    with statements(app) as (seen, _transactions):
        for secret in secrets:
            assert stay(client, secret).status_code == 200
    tables = re.compile(r"webhook_outbox|webhook_policies|(FROM|INTO|UPDATE|JOIN) webhooks\b")
    assert not [s for s in seen if tables.search(s)], "only the games row's count is read"
