"""With the real SMTP transport, relay and PostgreSQL: a batch that renders
its next mail while the relay answers the previous one still marks each row from its own answer
only, and a relay that turns unwell stops the batch before another mail goes out."""
from __future__ import annotations

import pytest

from service.mail.delivery import deliver_many
from tests.integration.test_faults import create_game, outbox
from service.web.extensions import services

pytestmark = pytest.mark.integration


def refusing_data_number(sink, number: int, reply: str) -> None:
    """The relay answers ``reply`` to its ``number``-th DATA (from 1), 250 to the others."""
    accept = sink.handle_DATA

    async def handle_DATA(server, session, envelope):
        if sink.entered + 1 == number:
            with sink.lock:
                sink.entered += 1
                sink.refused += 1
            return reply
        return await accept(server, session, envelope)
    sink.handle_DATA = handle_DATA


def test_a_relay_that_turns_unwell_mid_batch_gets_no_further_mail_and_only_its_row_is_counted(
        app, smtp):
    svc = services(app)
    assert svc.transport.overlapping
    game_id, _ = create_game(app.test_client(), players=5)
    ids = [row.id for row in outbox(app, game_id)]
    refusing_data_number(smtp.sink, 3, "451 4.3.0 busy, try again later")
    with app.app_context():
        statuses = deliver_many(svc.db, svc.settings, ids, svc.clock(), svc.transport)
    rows = outbox(app, game_id)
    assert [statuses[r.id] for r in rows] == ["sent", "sent", "pending", "pending", "pending"]
    assert [(r.status, r.attempts) for r in rows] == [
        ("sent", 1), ("sent", 1), ("pending", 1), ("pending", 0), ("pending", 0)]
    assert rows[2].last_error.startswith("451")
    assert smtp.sink.entered == 3, "the fourth mail was never handed to the relay"
    assert [m["Message-ID"] for m in smtp.sink.received()] == [r.message_id for r in rows[:2]]


def test_a_bounce_mid_batch_is_recorded_on_its_row_and_the_rest_go_out_in_order(app, smtp):
    svc = services(app)
    game_id, _ = create_game(app.test_client(), players=4)
    ids = [row.id for row in outbox(app, game_id)]
    refusing_data_number(smtp.sink, 2, "550 5.1.1 no such user")
    with app.app_context():
        deliver_many(svc.db, svc.settings, ids, svc.clock(), svc.transport)
    rows = outbox(app, game_id)
    assert [r.status for r in rows] == ["sent", "bounced", "sent", "sent"]
    assert [m["Message-ID"] for m in smtp.sink.received()] == [
        rows[0].message_id, rows[2].message_id, rows[3].message_id]
