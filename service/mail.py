"""Building one outbox row's message: headers, threading, text and HTML parts.

The message is a pure function of the row and the events up to its seq, so a delivery that is
retried after a crash produces the same bytes (and the receiver dedupes on Message-ID)."""
from __future__ import annotations

import hashlib
from email.message import EmailMessage
from email.utils import format_datetime

from flask import render_template

from service import mailkit
from service.admin.notices import notice_for
from service.i18n import translate
from service.config import Settings
from service.games import Loaded, thread_root
from service.models import OutboxRow
from service.presenter import seat_context, subject
from service.store import utc
from service.timekeeping import describe_left


def clock_lines(loaded: Loaded, row: OutboxRow) -> dict:
    """The deadline of the seat's open decision and what the last event was, if a timeout.
    Computed from rows fixed for that decision, so a re-sent mail says the same thing."""
    from sqlalchemy import select
    from sqlalchemy.orm import object_session

    from service.models import DeadlineRow

    lines = {"deadline": None, "happened": None}
    last = loaded.events[-1]
    if last.kind == "TurnTimedOut":
        name = loaded.seats[last.payload["seat"]].name
        lines["happened"] = f"{name}'s time ran out; the game played “{last.payload['label']}” for them."
    if row.kind.startswith("reminder"):
        lines["happened"] = "Reminder: your move is still open."
    game, state = loaded.game, loaded.state
    session = object_session(row)
    if session is not None and row.seat in game.to_act(state) and loaded.row.status == "active":
        due = session.scalars(select(DeadlineRow.due_at).where(
            DeadlineRow.game_id == loaded.row.id, DeadlineRow.seat == row.seat,
            DeadlineRow.kind == "timeout",
            DeadlineRow.decision_key == game.decision_key(state, row.seat))).first()
        if due is not None:
            due = utc(due)
            lines["deadline"] = (f"{due.strftime('%a %d %b %Y %H:%M')} UTC "
                                 f"({describe_left(due, utc(row.created_at))})")
    return lines

KIND_INTRO = {
    "start": "A new game has started.",
    "turn": "It is your turn.",
    "game_over": "The game is over.",
    "timeout": "A player's time ran out.",
    "vacation_auto": "Your time ran out, so your vacation started by itself: your clock is stopped.",
    "vacation_over": "Your vacation days are used up: your clock runs again.",
    # Issue 6: admin and undo notices.  Each of these events makes every earlier link stale.
    "rollback": "An admin rolled the game back. Links in earlier mails no longer work; use these.",
    "undone": "A player took back a move. Links in earlier mails no longer work; use these.",
    "seat": "You now have a seat in this game.",
    "paused": "An admin paused the game: no moves are taken until it resumes.",
    "resumed": "The game goes on again. Links in earlier mails no longer work; use these.",
    "abandoned": "An admin ended this game: no more moves are taken.",
}


def build_message(settings: Settings, loaded: Loaded, row: OutboxRow) -> EmailMessage:
    """Render the seat's private view at the row's seq (call inside an app context)."""
    language = mailkit.language_for(row)  # issue 7: the recipient's language
    if row.kind == "digest":
        from service.digest import build_digest

        return build_digest(settings, row, language)
    context = seat_context(settings, loaded, row.seat)
    context["intro"] = translate(language, KIND_INTRO.get(row.kind, ""))
    context["kind"] = row.kind
    context["notice"] = notice_for(loaded, row.kind, row.seat)
    context.update(clock_lines(loaded, row))
    context.update(mailkit.extra_context(settings, loaded, row, language))
    message = EmailMessage()
    message["Subject"] = subject(loaded)
    message["From"] = settings.mail_from
    message["To"] = f"{loaded.seats[row.seat].name} <{row.to_addr}>"
    message["Message-ID"] = row.message_id
    message["Date"] = format_datetime(utc(row.created_at))
    message["Auto-Submitted"] = "auto-generated"  # RFC 3834: auto-responders stay quiet
    root = thread_root(loaded.row.id, row.seat, settings.mail_domain)
    if row.message_id != root:
        message["In-Reply-To"] = root
        message["References"] = root
    message["X-Chasqui-Game"] = loaded.row.id
    mailkit.add_headers(message, settings, loaded, row, language)
    with mailkit.locale(language):
        message.set_content(render_template("mail/turn.txt", **context))
        message.add_alternative(mailkit.inline_css(render_template("mail/turn.html", **context)),
                                subtype="html")
    mailkit.set_language(message, language)
    # A fixed boundary: left to the email package it is random, and a re-sent mail must be
    # byte-identical to the first (receivers dedupe on Message-ID; audits compare bytes).
    message.set_boundary("=_chasqui_" + hashlib.sha256(row.message_id.encode()).hexdigest()[:32])
    return message
