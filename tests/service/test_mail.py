"""Mail through the outbox: owed mail is written with the event and delivered."""
from __future__ import annotations

import email
import re
from email import policy

from sqlalchemy import select

from service.store.models import LocalMailRow, OutboxRow
from service.web.extensions import services


def mails(app, to=None):
    with services(app).db.reading() as session:
        rows = list(session.scalars(select(LocalMailRow).order_by(LocalMailRow.id)))
    parsed = [email.message_from_string(r.raw, policy=policy.default) for r in rows]
    return [m for m in parsed if to is None or to in m["To"]]


def outbox(app):
    with services(app).db.reading() as session:
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
    svc = services(app)
    first = outbox(app)[0]
    with app.app_context():
        assert svc.deliver(first.id) == "sent"
    assert len(mails(app)) == 3


def test_a_rebuilt_message_is_byte_identical(app, new_game):
    """A retry after a crash must send the very same bytes (Message-ID and MIME boundary)."""
    from service.store.loading import load
    from service.mail.compose import build_message
    new_game(players=3)
    svc = services(app)
    with app.app_context(), svc.db.reading() as session:
        row = session.get(OutboxRow, outbox(app)[0].id)
        first = build_message(svc.settings, load(session, row.game_id, upto=row.seq), row).as_bytes()
        again = build_message(svc.settings, load(session, row.game_id, upto=row.seq), row).as_bytes()
    assert first == again


def test_one_delivery_sends_the_due_rows_of_its_event_and_their_tasks_find_them_sent(app, new_game):
    """The other seats' mails of the same (game, seq) go out with one replay and one
    transaction; a row not due yet (in its backoff) is left to its own task."""
    from datetime import timedelta

    from service.mail.delivery import deliver
    svc = services(app)
    queued: list[int] = []
    svc.dispatch = lambda outbox_ids, post_ids=(): queued.extend(outbox_ids)
    new_game(players=4)
    assert len(queued) == 4
    with svc.db.unit_of_work() as session:
        later = session.get(OutboxRow, queued[3])
        later.next_attempt_at = svc.clock() + timedelta(minutes=5)
    with app.app_context():
        assert deliver(svc.db, svc.settings, queued[0], svc.clock()) == "sent"
        rows = {r.id: r for r in outbox(app)}
        assert [rows[i].status for i in queued] == ["sent", "sent", "sent", "pending"]
        assert [rows[i].attempts for i in queued] == [1, 1, 1, 0]
        assert [deliver(svc.db, svc.settings, i, svc.clock()) for i in queued[1:3]] == ["sent"] * 2
        assert deliver(svc.db, svc.settings, queued[3], svc.clock()) == "sent"
    received = mails(app)
    assert sorted(m["To"].addresses[0].addr_spec for m in received) == [
        f"p{s}@example.com" for s in range(4)]
    assert all(r.attempts == 1 for r in outbox(app))


def test_languages_for_several_rows_agree_with_language_for_each(app, new_game):
    from service.mail import kit as mailkit
    from service.store.preferences import set_preference
    new_game(players=4)
    new_game(players=4)
    svc = services(app)
    rows = outbox(app)
    with svc.db.unit_of_work() as session:
        set_preference(session, rows[0].game_id, 0, svc.clock(), language="ja")
        set_preference(session, rows[0].game_id, 1, svc.clock(), mode="digest")
        set_preference(session, rows[4].game_id, 2, svc.clock(), language="zh_Hans")
    with svc.db.reading() as session:
        rows = list(session.scalars(select(OutboxRow).order_by(OutboxRow.id)))
        together = mailkit.languages_for(session, rows)
        one_by_one = {r.id: mailkit.language_for(r) for r in rows}
    assert together == one_by_one
    assert set(together.values()) == {"en", "ja", "zh_Hans"}


def test_list_unsubscribe_carries_plain_uris_a_mail_client_can_use(app, new_game):
    """RFC 8058 / RFC 2369: the header holds <https://…> and <mailto:…> as they are, not an
    RFC 2047 encoded-word (which a long URL would otherwise become)."""
    new_game(players=3)
    with services(app).db.reading() as session:
        raw = session.scalars(select(LocalMailRow.raw).order_by(LocalMailRow.id)).first()
    header = re.search(r"^List-Unsubscribe: (.*(?:\n .*)*)", raw, re.M).group(1)
    assert "=?" not in header
    uris = re.findall(r"<([^>]+)>", header)
    assert uris[0].startswith("http://chasqui.test/unsubscribe/") and uris[1].startswith("mailto:")
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in raw
