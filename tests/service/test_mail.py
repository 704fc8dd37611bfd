"""Mail through the outbox (issue 2): owed mail is written with the event and delivered."""
from __future__ import annotations

import email
import re
from email import policy

from sqlalchemy import select

from service.models import LocalMailRow, OutboxRow


def mails(app, to=None):
    with app.extensions["chasqui"].db.reading() as session:
        rows = list(session.scalars(select(LocalMailRow).order_by(LocalMailRow.id)))
    parsed = [email.message_from_string(r.raw, policy=policy.default) for r in rows]
    return [m for m in parsed if to is None or to in m["To"]]


def outbox(app):
    with app.extensions["chasqui"].db.reading() as session:
        return list(session.scalars(select(OutboxRow).order_by(OutboxRow.id)))


def test_every_seat_gets_a_start_mail_with_its_own_links(app, new_game):
    _, secrets = new_game(players=3)
    received = mails(app)
    assert len(received) == 3
    for seat, message in enumerate(received):
        assert f"p{seat}@example.com" in message["To"]
        text = message.get_body(("plain",)).get_content()
        html = message.get_body(("html",)).get_content()
        assert secrets[seat] in text and secrets[seat] in html
        for other, secret in enumerate(secrets):
            if other != seat:
                assert secret not in message.as_string()
        assert re.search(r"/play/\S+/a/1/0", text)


def test_mail_subject_is_stable_and_all_mail_threads_to_the_start_mail(app, client, new_game):
    _, secrets = new_game(players=3)
    for seat in range(3):
        client.post(f"/api/play/{secrets[seat]}", json={"action": {"type": "stay"}, "seq": 1})
    received = mails(app, "p0@example.com")
    assert len(received) == 2, "start mail, then one mail for the next decision"
    start, turn = received
    assert start["Subject"] == turn["Subject"] == "[Chasqui] Incan Gold — P0, P1, P2"
    assert turn["In-Reply-To"] == start["Message-ID"] == turn["References"]
    assert start["In-Reply-To"] is None


def test_a_simultaneous_decision_is_mailed_once_per_seat(app, client, new_game):
    _, secrets = new_game(players=4)
    client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 1})
    client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "stay"}, "seq": 1})
    assert len(mails(app)) == 4, "other seats' choices make no new mail"


def test_outbox_rows_are_marked_sent_with_stable_message_ids(app, new_game):
    data, _ = new_game(players=3)
    rows = outbox(app)
    assert [r.status for r in rows] == ["sent"] * 3
    assert {r.message_id for r in rows} == {f"<{data['id']}.1.{s}.start@chasqui.test>" for s in range(3)}


def test_no_secret_of_another_seat_or_hidden_state_in_mail(app, client, new_game):
    """Tents are secret (notes: tents are safe and secret); a mail shows only its seat's."""
    _, secrets = new_game(players=3, seed=5)
    for seat in range(3):
        client.post(f"/api/play/{secrets[seat]}", json={"action": {"type": "leave"}, "seq": 1})
    for message in mails(app, "p1@example.com"):
        text = message.get_body(("plain",)).get_content()
        assert '"your_choice"' in text or "your_choice" not in text
        assert secrets[0] not in text and secrets[2] not in text


def test_delivery_is_idempotent(app, new_game):
    new_game(players=3)
    svc = app.extensions["chasqui"]
    first = outbox(app)[0]
    with app.app_context():
        assert svc.deliver(first.id) == "sent"
    assert len(mails(app)) == 3


def test_a_rebuilt_message_is_byte_identical(app, new_game):
    """A retry after a crash must send the very same bytes (Message-ID and MIME boundary)."""
    from service.games import load
    from service.mail import build_message
    new_game(players=3)
    svc = app.extensions["chasqui"]
    with app.app_context(), svc.db.reading() as session:
        row = session.get(OutboxRow, outbox(app)[0].id)
        first = build_message(svc.settings, load(session, row.game_id, upto=row.seq), row).as_bytes()
        again = build_message(svc.settings, load(session, row.game_id, upto=row.seq), row).as_bytes()
    assert first == again
