"""Reply to move.  Mail goes out through a real SMTP server (aiosmtpd); replies come
back through the real inbound listener (smtplib to its port) or the webhook."""
from __future__ import annotations

import email
from email import policy

from tests.service.mail_kit import (INBOUND_TOKEN, REPLY_TO, app, events, inbound_rows,  # noqa: F401
                                    inbox, listener, newest, send, smtp, text_of, write_reply)
from service.web.extensions import services


def moves(app, game_id):
    return [e for e in events(app, game_id) if e.kind == "MoveMade"]


def test_turn_mail_has_reply_to_seq_threading_and_unsubscribe_headers(new_game, smtp):
    data, _ = new_game(players=3)
    start = newest(smtp, "p1@example.com")
    raw = start.as_bytes()
    parsed = email.message_from_bytes(raw, policy=policy.strict)  # valid RFC 5322
    assert parsed.get_body(("plain",)) is not None and parsed.get_body(("html",)) is not None
    local = start["Reply-To"].split("@")[0]
    assert REPLY_TO.match(start["Reply-To"]) and len(local) <= 64
    assert start["X-Chasqui-Seq"] == "1"
    assert start["Auto-Submitted"] == "auto-generated"
    unsubscribe = start["List-Unsubscribe"]
    assert "<http://chasqui.test/unsubscribe/" in unsubscribe and "<mailto:play+" in unsubscribe
    assert start["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "[A] Stay in the temple" in text_of(start) and "[B] Leave for camp" in text_of(start)
    assert "reply to this mail with a code" in text_of(start)
    # every seat has its own reply address
    assert len({m["Reply-To"] for m in smtp.sink.received()}) == 3


def test_a_reply_with_a_code_makes_the_move_and_is_confirmed(app, new_game, smtp, listener):
    data, _ = new_game(players=3)
    start = newest(smtp, "p0@example.com")
    send(listener, write_reply(start, "b\n\nI am out, good luck!"))
    made = moves(app, data["id"])
    assert [(e.payload["seat"], e.payload["action"], e.payload["seq_seen"]) for e in made] == [
        (0, {"type": "leave"}, 1)]
    confirmation = newest(smtp, "p0@example.com")
    assert confirmation["Message-ID"] != start["Message-ID"]
    assert "Your move by mail was recorded." in text_of(confirmation)
    assert "Leave for camp" in text_of(confirmation)
    assert confirmation["In-Reply-To"] == start["Message-ID"], "confirmations stay in the thread"
    # quoted text and the signature did not reach the table
    assert not [e for e in events(app, data["id"]) if e.kind == "MessagePosted"]


def test_a_reply_with_the_label_in_any_case_makes_the_move(app, new_game, smtp, listener):
    data, _ = new_game(players=3)
    send(listener, write_reply(newest(smtp, "p2@example.com"), "  STAY IN THE TEMPLE  "))
    assert [e.payload["action"] for e in moves(app, data["id"])] == [{"type": "stay"}]


def test_a_second_reply_is_a_double_and_gets_an_error_mail(app, new_game, smtp, listener):
    data, _ = new_game(players=3)
    start = newest(smtp, "p0@example.com")
    send(listener, write_reply(start, "A"))
    send(listener, write_reply(start, "A"))
    assert len(moves(app, data["id"])) == 1
    error = newest(smtp, "p0@example.com")
    assert "Your reply could not be used." in text_of(error)
    assert "You already moved since that mail: Stay in the temple." in text_of(error)


def test_a_reply_to_an_old_mail_is_stale(app, client, new_game, smtp, listener):
    data, secrets = new_game(players=3)
    start = newest(smtp, "p0@example.com")
    for seat in range(3):  # everybody stays: a new decision, a new turn mail
        client.post(f"/api/play/{secrets[seat]}", json={"action": {"type": "stay"}, "seq": 1})
    assert len(inbox(smtp, "p0@example.com")) == 2
    send(listener, write_reply(start, "B"))
    assert len(moves(app, data["id"])) == 3, "no move from the stale mail"
    error = newest(smtp, "p0@example.com")
    # said as a mail reader understands it (``why_stale``): no "moved on", no "reload"
    assert "You already moved since that mail: Stay in the temple." in text_of(error)
    assert "reload" not in text_of(error) and "moved on" not in text_of(error)


def test_a_reply_naming_a_seq_the_game_never_had_says_it_is_not_from_this_game(app, new_game, smtp, listener):
    data, _ = new_game(players=3)
    start = newest(smtp, "p0@example.com")
    reply = write_reply(start, "A", threaded=False)
    reply["In-Reply-To"] = start["Message-ID"].replace(f"<{data['id']}.1.", f"<{data['id']}.999.")
    send(listener, reply)
    assert not moves(app, data["id"])
    error = newest(smtp, "p0@example.com")
    assert ("That mail is not from this game as it is now: it names a point the game has not "
            "reached") in " ".join(text_of(error).split())


def test_a_wrong_code_and_an_unthreaded_reply_get_clear_errors(app, new_game, smtp, listener):
    data, _ = new_game(players=3)
    start = newest(smtp, "p0@example.com")
    send(listener, write_reply(start, "Z"))
    assert "not one of the codes in that mail (A, B)" in text_of(newest(smtp, "p0@example.com"))
    send(listener, write_reply(start, "A", threaded=False))
    assert "could not tell which mail you answered" in text_of(newest(smtp, "p0@example.com"))
    assert not moves(app, data["id"])


def test_a_spoofed_sender_is_refused_and_nobody_is_answered(app, new_game, smtp, listener):
    data, _ = new_game(players=3)
    start = newest(smtp, "p0@example.com")
    before = len(smtp.sink.received())
    send(listener, write_reply(start, "B", from_addr="mallory@evil.example"))
    send(listener, write_reply(start, "hello table", from_addr="P0 <mallory@evil.example>"))
    assert not moves(app, data["id"])
    assert len(smtp.sink.received()) == before, "no mail to the forger or to anyone"
    assert [r.status for r in inbound_rows(app)] == ["refused", "refused"]


def test_a_forged_token_is_refused(app, new_game, smtp, listener):
    data, _ = new_game(players=3)
    start = newest(smtp, "p0@example.com")
    forged = write_reply(start, "B")
    del forged["To"]
    forged["To"] = start["Reply-To"][:-20 - len("@chasqui.test")] + "0" * 20 + "@chasqui.test"
    send(listener, forged)
    assert not moves(app, data["id"])
    assert inbound_rows(app)[0].status == "refused"


def test_a_game_may_accept_replies_from_any_sender(app, new_game, smtp, listener):
    data, _ = new_game(players=3, options={"mail": {"accept_any_sender": True}})
    start = newest(smtp, "p0@example.com")
    send(listener, write_reply(start, "B", from_addr="p0.work@example.net"))
    assert len(moves(app, data["id"])) == 1
    assert not smtp.sink.received("p0.work@example.net"), "answers go to the seat's address"
    assert "Your move by mail was recorded." in text_of(newest(smtp, "p0@example.com"))


def test_the_same_mail_delivered_twice_acts_once(app, new_game, smtp, listener):
    data, _ = new_game(players=3)
    reply = write_reply(newest(smtp, "p0@example.com"), "B")
    send(listener, reply)
    send(listener, reply)
    assert len(moves(app, data["id"])) == 1
    assert [r.status for r in inbound_rows(app)] == ["moved"]


def test_auto_replies_are_ignored(app, new_game, smtp, listener):
    data, _ = new_game(players=3)
    start = newest(smtp, "p0@example.com")
    before = len(smtp.sink.received())
    auto = write_reply(start, "I am on holiday until Monday.")
    auto["Auto-Submitted"] = "auto-replied"
    send(listener, auto)
    assert len(smtp.sink.received()) == before
    assert inbound_rows(app)[0].status == "ignored"


def test_the_webhook_needs_its_token_and_then_moves(app, client, new_game, smtp):
    data, _ = new_game(players=3)
    raw = write_reply(newest(smtp, "p1@example.com"), "A").as_bytes()
    assert client.post("/inbound/mail", data=raw).status_code == 403
    assert client.post("/inbound/mail", data=raw,
                       headers={"X-Chasqui-Inbound-Token": "wrong"}).status_code == 403
    response = client.post("/inbound/mail", data=raw, content_type="message/rfc822",
                           headers={"X-Chasqui-Inbound-Token": INBOUND_TOKEN})
    assert response.status_code == 200 and response.get_json() == {"status": "moved"}
    assert len(moves(app, data["id"])) == 1


def test_the_listener_refuses_other_recipients(listener):
    import smtplib

    import pytest

    with smtplib.SMTP("127.0.0.1", listener, timeout=10) as smtp:
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            smtp.sendmail("a@example.com", ["root@chasqui.test"], b"Subject: x\r\n\r\nhi\r\n")


def test_mailto_unsubscribe_turns_the_seat_off(app, new_game, smtp, listener):
    from service.store.preferences import mode_of

    data, _ = new_game(players=3)
    send(listener, write_reply(newest(smtp, "p0@example.com"), "", subject="unsubscribe"))
    with services(app).db.reading() as session:
        assert mode_of(session, data["id"], 0) == "off"


def test_the_webhook_takes_a_mail_larger_than_a_form(app, client, new_game, smtp):
    data, _ = new_game(players=3)
    big = write_reply(newest(smtp, "p1@example.com"), "B\n\n" + "quoted words " * 8000)
    response = client.post("/inbound/mail", data=big.as_bytes(),
                           headers={"Authorization": f"Bearer {INBOUND_TOKEN}"})
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert len(moves(app, data["id"])) == 1


def test_the_listener_speaks_lmtp_too(app, new_game, smtp):
    import smtplib

    from service.web.inbound_listener import InboundController
    from tests.integration.smtp_sink import free_port

    data, _ = new_game(players=3)
    port = free_port()
    controller = InboundController(app, "127.0.0.1", port, lmtp=True)
    controller.start()
    try:
        with smtplib.LMTP("127.0.0.1", port) as lmtp:
            lmtp.send_message(write_reply(newest(smtp, "p2@example.com"), "B"))
    finally:
        controller.stop()
    assert len(moves(app, data["id"])) == 1
