"""Building one outbox row's message: headers, threading, text and HTML parts.

The message is a pure function of the row and the events up to its seq, so a delivery that is
retried after a crash produces the same bytes (and the receiver dedupes on Message-ID)."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import format_datetime

from flask import render_template

from service.config import Settings
from service.games import Loaded, thread_root
from service.models import OutboxRow
from service.presenter import seat_context, subject

KIND_INTRO = {
    "start": "A new game has started.",
    "turn": "It is your turn.",
    "game_over": "The game is over.",
}


def build_message(settings: Settings, loaded: Loaded, row: OutboxRow) -> EmailMessage:
    """Render the seat's private view at the row's seq (call inside an app context)."""
    context = seat_context(settings, loaded, row.seat)
    context["intro"] = KIND_INTRO.get(row.kind, "")
    context["kind"] = row.kind
    message = EmailMessage()
    message["Subject"] = subject(loaded)
    message["From"] = settings.mail_from
    message["To"] = f"{loaded.seats[row.seat].name} <{row.to_addr}>"
    message["Message-ID"] = row.message_id
    message["Date"] = format_datetime(loaded.events[-1].recorded_at)
    root = thread_root(loaded.row.id, row.seat, settings.mail_domain)
    if row.message_id != root:
        message["In-Reply-To"] = root
        message["References"] = root
    message["X-Chasqui-Game"] = loaded.row.id
    message.set_content(render_template("mail/turn.txt", **context))
    message.add_alternative(render_template("mail/turn.html", **context), subtype="html")
    return message
