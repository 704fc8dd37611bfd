"""A received reply cannot be refused with an answer page, so its control characters are
dropped instead: none reaches a row, an event or a header; words over the table talk limit are
refused by mail with the limit stated, never cut."""
from __future__ import annotations

from service.mail.inbound_parse import parse
from service.application.inbound import handle
from service.core.validation import has_control
from tests.service.mail_kit import app, events, inbound_rows, newest, smtp, text_of, write_reply  # noqa: F401
from service.web.extensions import services


def poisoned(message, **replacements: bytes) -> bytes:
    """The reply's bytes with whole header lines replaced (the email package refuses to write
    a control character into a header, a sender's mail program may not)."""
    lines = message.as_bytes().split(b"\n")
    for name, value in replacements.items():
        header = name.replace("_", "-").encode() + b":"
        lines = [header + b" " + value + b"\r" if line.startswith(header) else line for line in lines]
    return b"\n".join(lines)


def test_control_characters_of_a_sender_reach_no_row_event_or_header(app, new_game, smtp):
    data, _ = new_game(players=3)
    reply = write_reply(newest(smtp, "p0@example.com"), "Who stays?\x00 \x1b[1mnot me\x0c")
    raw = poisoned(reply, From=b'"P0\x00\x1b Bcc: eve@example.org" <p0@example.com>',
                   Message_ID=b"<evil\x00id@player.example>", Subject=b"Re: \x00\x85hi")
    parsed = parse(raw)
    assert parsed.from_addr == "p0@example.com" and not has_control(parsed.message_id)
    assert parsed.subject == "" and parsed.text.startswith("Who stays? [1mnot me")
    with app.app_context():  # as the listener and the webhook run it
        assert handle(services(app), raw) == "talk"
    [posted] = [e for e in events(app, data["id"]) if e.kind == "MessagePosted"]
    assert not has_control(posted.payload["text"], "\n\t")
    [row] = inbound_rows(app)
    assert not has_control(row.from_addr + row.message_id + row.detail, "\n")
    talk = newest(smtp, "p1@example.com")
    assert "not me" in text_of(talk)
    assert all(not has_control(str(value)) for value in talk.values())


def test_words_by_mail_over_the_limit_are_refused_with_the_limit_stated(app, new_game, smtp):
    data, _ = new_game(players=3)
    words = "Stay, stay, stay! " * 120  # 2,160 characters
    raw = write_reply(newest(smtp, "p0@example.com"), words).as_bytes()
    with app.app_context():
        assert handle(services(app), raw) == "error"
    assert not [e for e in events(app, data["id"]) if e.kind == "MessagePosted"]
    assert "longer than 2000 characters" in text_of(newest(smtp, "p0@example.com"))
