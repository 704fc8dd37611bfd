"""Helpers for the mail tests: an app that sends through a real SMTP server (the
aiosmtpd sink of the integration tests), the real inbound listener in-process, and replies
written the way mail clients write them (quote, signature, In-Reply-To/References)."""
from __future__ import annotations

import re
import smtplib
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from sqlalchemy import select

from service.store.models import EventRow, InboundMailRow
from tests.conftest import make_settings, migrated_app
from tests.integration.smtp_sink import SmtpServer, free_port
from service.web.extensions import services

INBOUND_TOKEN = "test-inbound-token"
REPLY_TO = re.compile(r"^play\+([0-9a-f]+-\d+-[0-9a-f]{20})@chasqui\.test$")


@pytest.fixture
def smtp():
    with SmtpServer() as server:
        yield server


@pytest.fixture
def app(tmp_path, clock, smtp):
    """Overrides tests/conftest.py's app: mail goes to the real SMTP sink, in-process."""
    app = migrated_app(make_settings(tmp_path, CHASQUI_SMTP_URL=smtp.url,
                                     CHASQUI_INBOUND_TOKEN=INBOUND_TOKEN), clock=clock)
    app.config["TESTING"] = True
    yield app
    services(app).db.engine.dispose()


@pytest.fixture
def listener(app):
    """The real inbound listener (aiosmtpd), on a free port, in this process."""
    from service.web.inbound_listener import InboundController

    port = free_port()
    controller = InboundController(app, "127.0.0.1", port)
    controller.start()
    yield port
    controller.stop()


def inbox(smtp, address: str) -> list:
    return smtp.sink.received(address)


def newest(smtp, address: str):
    mails = inbox(smtp, address)
    assert mails, f"no mail to {address}"
    return mails[-1]


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content()


def write_reply(original, body: str, from_addr: str | None = None, subject: str | None = None,
                threaded: bool = True) -> EmailMessage:
    reply = EmailMessage()
    reply["From"] = from_addr or original["To"]
    reply["To"] = original["Reply-To"]
    reply["Subject"] = subject if subject is not None else "Re: " + original["Subject"]
    reply["Message-ID"] = make_msgid(domain="player.example")
    if threaded:
        reply["In-Reply-To"] = original["Message-ID"]
        reply["References"] = " ".join(filter(None, [original["References"], original["Message-ID"]]))
    quoted = "\n".join("> " + line for line in text_of(original).splitlines())
    reply.set_content(f"{body}\n\n--\nSent from my phone\n\n"
                      f"On Sun, 29 Nov 2026 at 12:00, Chasqui <chasqui@chasqui.test> wrote:\n{quoted}\n")
    return reply


def send(port: int, message: EmailMessage) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        smtp.send_message(message)


def events(app, game_id: str) -> list[EventRow]:
    with services(app).db.reading() as session:
        return list(session.scalars(select(EventRow).where(EventRow.game_id == game_id)
                                    .order_by(EventRow.seq)))


def inbound_rows(app) -> list[InboundMailRow]:
    with services(app).db.reading() as session:
        return list(session.scalars(select(InboundMailRow).order_by(InboundMailRow.id)))
