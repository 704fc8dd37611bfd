"""Issue 9, round 7: ``SmtpTransport``'s connection writes the MAIL, RCPT and DATA steps as
smtplib writes them: the periods that start a line doubled by ``transport.quote_periods`` (a
replace) rather than smtplib's regular expression over every byte, and each envelope address
quoted by smtplib's ``quoteaddr`` once per address."""
from __future__ import annotations

import io
import smtplib

from hypothesis import given, settings, strategies as st

from service.mail import transport
# Bytes rich in what the quoting looks at: periods, line feeds, carriage returns.
DATA = st.lists(st.one_of(st.sampled_from([b".", b"..", b"\n", b"\r\n", b"\r", b"\n.", b" ."]),
                          st.binary(max_size=8)), max_size=40).map(b"".join)


@settings(max_examples=500, deadline=None)
@given(data=DATA)
def test_periods_are_quoted_as_smtplib_quotes_them(data):
    assert transport.quote_periods(data) == smtplib._quote_periods(data)


class Wire:
    """A socket that keeps what is sent on it."""

    def __init__(self):
        self.sent = b""

    def sendall(self, data):
        self.sent += data


def conversation(cls, step: str, answers: bytes, *args, esmtp: bool = True):
    """What ``getattr(cls(), step)(*args)`` sends over a connection whose server answers
    ``answers``, and what it returns or raises."""
    smtp = cls()
    smtp.sock, smtp.file = Wire(), io.BytesIO(answers)
    smtp.does_esmtp, smtp.esmtp_features = esmtp, {"size": "1000", "smtputf8": ""}
    try:
        outcome = getattr(smtp, step)(*args)
    except Exception as error:  # noqa: BLE001 - whatever smtplib raises, the same
        outcome = (type(error), str(error))
    return smtp.sock.sent, outcome, smtp.command_encoding


@settings(max_examples=200, deadline=None)
@given(data=DATA, answers=st.sampled_from([b"354 go on\r\n250 2.0.0 OK\r\n",
                                           b"354 go on\r\n451 try later\r\n",
                                           b"503 bad sequence\r\n"]))
def test_the_data_step_sends_and_answers_as_smtplibs(data, answers):
    for message in (data, data.decode("latin-1").encode("ascii", "replace").decode("ascii")):
        assert (conversation(transport._Smtp, "data", answers, message)
                == conversation(smtplib.SMTP, "data", answers, message))


# Envelope addresses as callers give them: bare, with a name, quoted, odd, empty.
ADDRESSES = st.one_of(st.sampled_from(["p1@bench.test", "Ana <ana@example.org>", "<a@b.c>", "",
                                       '"Zoë, Jr." <z@example.org>', "José <josé@example.org>",
                                       "undisclosed-recipients:;", "  <x@y>  ", "a@b, c@d"]),
                      st.text(max_size=20))
OPTIONS = st.lists(st.sampled_from(["size=1234", "BODY=8BITMIME", "SMTPUTF8", "NOTIFY=NEVER"]),
                   max_size=3)


@settings(max_examples=300, deadline=None)
@given(address=ADDRESSES, options=OPTIONS, esmtp=st.booleans(),
       answers=st.sampled_from([b"250 OK\r\n", b"550 no\r\n"]))
def test_the_mail_and_rcpt_steps_send_and_answer_as_smtplibs(address, options, esmtp, answers):
    for step in ("mail", "rcpt"):
        for _ in range(2):  # the second time with the address remembered
            assert (conversation(transport._Smtp, step, answers, address, options, esmtp=esmtp)
                    == conversation(smtplib.SMTP, step, answers, address, options, esmtp=esmtp))


def test_the_transport_connects_with_the_quicker_data_step(monkeypatch):
    made = []
    monkeypatch.setattr(transport._Smtp, "__init__", lambda self, *a, **k: made.append(self))
    transport.SmtpTransport("smtp://relay.test:25")._open()
    assert isinstance(made[0], transport._Smtp) and isinstance(made[0], smtplib.SMTP)
    # smtps: smtplib's SMTP_SSL with the same step
    assert issubclass(transport._SmtpSsl, smtplib.SMTP_SSL)
    for step in ("mail", "rcpt", "data"):
        assert getattr(transport._SmtpSsl, step) is getattr(transport._Smtp, step)
