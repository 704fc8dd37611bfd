"""A webhook post goes out with no transaction open: a short one claims the row, the post
waits for the channel with no database connection held (in the embedded default a transaction
holds SQLite's one write lock, so a slow channel would hold every move back), and a second
short one records the outcome.  A claimed row is nobody else's until its claim runs out; a
worker that died mid-post leaves it to the sweep after that (docs/webhooks.md)."""
from __future__ import annotations

from datetime import timedelta

from service.mail import webhook_delivery
from service.store import webhooks
from service.store.models import GameRow
from service.web.cli import sweep_outboxes
from service.web.extensions import services
from tests.service.webhook_kit import (add_hook, app, hook_row, posts_of,  # noqa: F401
                                       receiver)


def _owed_post(app, clock, new_game, receiver) -> tuple[int, int]:
    """A game with a hook to the receiver and one post owed on it: (hook id, post id)."""
    data, _secrets = new_game(players=3)
    hook_id, _ = add_hook(app, data["id"], receiver.url())
    with services(app).db.unit_of_work() as session:
        webhooks.queue(session, session.get(GameRow, data["id"]), 1, 1, "turn", clock())
    post, = posts_of(app, hook_id)
    return hook_id, post.id


def test_no_database_connection_is_held_while_the_channel_answers(
        app, clock, new_game, receiver, monkeypatch):
    hook_id, post_id = _owed_post(app, clock, new_game, receiver)
    db = services(app).db
    held_during_post = []

    def post_and_look(found, body, headers):
        held_during_post.append(db.engine.pool.checkedout())
        return real_post(found, body, headers)
    real_post = webhook_delivery.post
    monkeypatch.setattr(webhook_delivery, "post", post_and_look)

    assert services(app).deliver_post(post_id) == "sent"
    assert held_during_post == [0]
    assert len(receiver.posts) == 1
    post, = posts_of(app, hook_id)
    assert (post.status, post.attempts, hook_row(app, hook_id).failures) == ("sent", 1, 0)


def test_a_post_claimed_by_one_worker_is_not_posted_by_another_meanwhile(
        app, clock, new_game, receiver, monkeypatch):
    hook_id, post_id = _owed_post(app, clock, new_game, receiver)
    second_worker = []

    def post_while_another_tries(found, body, headers):
        second_worker.append(services(app).deliver_post(post_id))  # a redelivered task
        return real_post(found, body, headers)
    real_post = webhook_delivery.post
    monkeypatch.setattr(webhook_delivery, "post", post_while_another_tries)

    assert services(app).deliver_post(post_id) == "sent"
    assert second_worker == ["claimed"]
    assert len(receiver.posts) == 1
    post, = posts_of(app, hook_id)
    assert (post.status, post.attempts) == ("sent", 1)


class WorkerDied(BaseException):
    """What a killed worker looks like from inside: nothing after the post runs."""


def test_a_post_whose_worker_died_mid_post_is_posted_by_the_sweep_once_its_claim_runs_out(
        app, clock, new_game, receiver, monkeypatch):
    hook_id, post_id = _owed_post(app, clock, new_game, receiver)

    def die(_found, _body, _headers):
        raise WorkerDied
    real_post = webhook_delivery.post
    monkeypatch.setattr(webhook_delivery, "post", die)
    try:
        services(app).deliver_post(post_id)
    except WorkerDied:
        pass
    monkeypatch.setattr(webhook_delivery, "post", real_post)
    post, = posts_of(app, hook_id)
    assert (post.status, post.attempts) == ("pending", 0), "the claim committed, nothing else"

    clock.advance(webhook_delivery.CLAIM)
    sweep_outboxes(services(app))
    assert receiver.posts == [], "the sweep's grace is not over yet"
    clock.advance(timedelta(minutes=2))
    sweep_outboxes(services(app))
    assert len(receiver.posts) == 1
    post, = posts_of(app, hook_id)
    assert (post.status, post.attempts) == ("sent", 1)
