"""Issue 9, round 5: ``SmtpTransport`` sends what ``smtplib.SMTP.send_message`` would send, the
same envelope and the same bytes, but takes both from ``transport.wire_form`` (the envelope
parsed once per header value, the bodies written without a regular expression where none can
change them)."""
from __future__ import annotations

import smtplib
from email.message import EmailMessage

from hypothesis import given, settings, strategies as st

from service.mail import transport
from service.mail.compose import MAIL_POLICY
from tests.service.test_mail_bytes import corpus, corpus_mails  # noqa: F401  (corpus: a fixture)


class Recording(smtplib.SMTP):
    """smtplib without a server: ``sendmail`` records what it was handed."""

    def __init__(self):
        super().__init__()
        self.handed: list[tuple] = []
        self.esmtp_features = {"smtputf8": "", "8bitmime": ""}
        self.does_esmtp = True

    def ehlo_or_helo_if_needed(self):
        pass

    def sendmail(self, from_addr, to_addrs, msg, mail_options=(), rcpt_options=()):
        self.handed.append((from_addr, list(to_addrs), msg, tuple(mail_options)))
        return {}


def by_smtplib(message) -> tuple:
    smtp = Recording()
    smtp.send_message(message)
    return smtp.handed[0]


def by_wire_form(message) -> tuple:
    smtp = Recording()
    transport._send(smtp, message, transport.wire_form(message))
    return smtp.handed[0]


def test_every_mail_of_three_games_goes_out_as_send_message_sends_it(app, corpus):
    fast = 0
    for what, build in corpus_mails(app, corpus):
        message = build()
        assert by_wire_form(message) == by_smtplib(message), what
        fast += transport.wire_form(message) is not None
    assert fast > 100  # the corpus's mails take the direct way


def test_the_transport_sends_the_wire_form_over_its_connection(monkeypatch):
    connections: list[Recording] = []

    def opened(self):
        connections.append(Recording())
        return connections[-1]

    monkeypatch.setattr(transport.SmtpTransport, "_open", opened)
    relay = transport.SmtpTransport("smtp://relay.test:25")
    message = made("Ana <ana@example.org>", "Ben Bo <ben@example.org>", "From here\nto there\n")
    relay.send(message)
    relay.send(message)
    assert len(connections) == 1
    assert connections[0].handed == [by_smtplib(message)] * 2


def made(sender, to, text: str, html: str | None = None, **headers) -> EmailMessage:
    message = EmailMessage(policy=MAIL_POLICY)
    if sender is not None:
        message["From"] = sender
    if to is not None:
        message["To"] = to
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message["Subject"] = "x"
    message.set_content(text)
    if html is not None:
        message.add_alternative(html, subtype="html")
    return message


def test_messages_with_other_envelopes_are_left_to_send_message():
    for message in (made("a@example.org", "b@example.org", "x", Cc="c@example.org"),
                    made("a@example.org", "b@example.org", "x", Bcc="c@example.org"),
                    made("a@example.org", "b@example.org", "x", Sender="s@example.org"),
                    made("a@example.org", "b@example.org", "x",
                         Resent_Date="Mon, 30 Nov 2026 05:00:00 +0000"),
                    made("a@example.org", "José <josé@example.org>", "x")):
        assert transport.wire_form(message) is None
        assert by_wire_form(message) == by_smtplib(message)


# Bodies with every line ending, "From " at and off line starts, non-ASCII text (8bit and
# quoted-printable parts, surrogate-escaped payloads) and long lines.
TEXT = st.lists(st.one_of(st.sampled_from(["From ", "From", ">From ", "\r\n", "\r", "\n", " ",
                                           "=", ".", "é", "张", "🏆", "x" * 80]),
                          st.text(max_size=12)), max_size=30).map("".join)
ADDRESS = st.sampled_from(["a@example.org", "Ana <ana@example.org>", "ana@example.org, Ben Bo <ben@example.org>",
                           '"Zoë, Jr." <z@example.org>', "undisclosed-recipients:;", None])


@settings(max_examples=300, deadline=None)
@given(sender=ADDRESS, to=ADDRESS, text=TEXT, html=st.one_of(st.none(), TEXT))
def test_a_made_up_message_goes_out_as_send_message_sends_it(sender, to, text, html):
    message = made(sender, to, text, html)
    message.preamble = "From the preamble\n" if "From" in text else None
    assert by_wire_form(message) == by_smtplib(message)
