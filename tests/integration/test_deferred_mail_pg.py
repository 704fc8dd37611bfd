"""The production path delivers the mail that waited while its player was on the page:
PostgreSQL, Redis, a real Celery worker and an SMTP relay.  The beat's sweep (``sweep``, at a
clock past the wait) lists the row once its time has come, and the worker sends it live, or
drops it when the player answered on the page meanwhile."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from tests.integration.test_faults import GRACE, create_game, outbox, sweep, wait_until
from tests.service.test_no_dead_mail import FIRST_LINK, WAIT, move_forms

pytestmark = pytest.mark.integration


def last_to_choose_on_the_page(client, secrets: list[str]) -> None:
    """Three players: two stay by the API, the third on the play page, which opens the next
    turn for all three."""
    for seat in (0, 1):
        assert client.post(f"/api/play/{secrets[seat]}",
                           json={"action": {"type": "stay"}, "seq": 1 + seat}).status_code == 200
    choose_on_the_page(client, secrets[2])


def choose_on_the_page(client, secret: str) -> None:
    forms = move_forms(client.get(f"/play/{secret}").get_data(as_text=True))
    assert client.post(f"/play/{secret}/move", data=forms[0]).status_code == 303


def the_one_waiting(app, game_id: str):
    """The pending row once the worker sent every other (the mails of each move at once)."""
    def one_pending():
        rows = [row for row in outbox(app, game_id) if row.status == "pending"]
        return rows if len(rows) == 1 else None
    return wait_until(one_pending, what="the other rows to be sent")[0]


def after_the_wait() -> datetime:
    return datetime.now(timezone.utc) + WAIT + GRACE + timedelta(seconds=1)


def test_the_worker_sends_a_deferred_mail_live_once_its_wait_is_over(app, worker, smtp):
    client = app.test_client()
    game_id, secrets = create_game(client, players=3)
    last_to_choose_on_the_page(client, secrets)
    smtp.sink.wait_for(lambda: len(smtp.sink.received()) == 5, what="three starts, two turns")
    waiting = the_one_waiting(app, game_id)
    assert waiting.seat == 2 and waiting.kind == "turn"
    assert waiting.id not in sweep(app), "the beat's sweep leaves it until its time"
    assert sweep(app, after_the_wait()) == [waiting.id]
    turn = smtp.sink.wait_for(lambda: smtp.sink.received("p2@example.org")[1:],
                              what="the mail that waited")[0]
    link = FIRST_LINK.search(turn.get_body(("plain",)).get_content()).group(0)
    assert client.get(link).status_code == 200


def test_the_worker_drops_a_deferred_mail_answered_on_the_page(app, worker, smtp):
    client = app.test_client()
    game_id, secrets = create_game(client, players=3)
    last_to_choose_on_the_page(client, secrets)
    choose_on_the_page(client, secrets[2])
    waiting = the_one_waiting(app, game_id)
    assert sweep(app, after_the_wait()) == [waiting.id]
    wait_until(lambda: [row for row in outbox(app, game_id)
                        if row.id == waiting.id and row.status == "cancelled"],
               what="the worker to drop it")
    assert len(smtp.sink.received("p2@example.org")) == 1, "its start mail only"
