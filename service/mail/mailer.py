"""The outbox of mail that belongs to no game yet: sign-in links, invitations, lobby join
confirmations.

The same pattern as the game outbox (``service.mail.delivery``): a row is written in the same
transaction as what made the mail owed; after commit it is delivered in-process (embedded
default) or queued as the Celery task ``chasqui.deliver_account_mail``; the beat's
``sweep_outbox`` also picks up rows whose task was lost.  The message is a pure function of
the row and the row it refers to, with a fixed Message-ID and MIME boundary, so a retry
after a crash sends the very same bytes (at least once; receivers dedupe on Message-ID)."""
from __future__ import annotations

import hashlib
import logging
import math
import secrets
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Iterable
from urllib.parse import urlsplit

from flask import render_template
from flask_babel import force_locale

from engine import GAMES
from engine.text import counted, phrase
from service.view import bot_levels, i18n
from service.core import row_links
from service.mail import kinds
from service.mail import seat_offer_mail, witness
from service.core.config import Settings
from service.store import mail_reads, webhooks
from service.store.db import Database, Session
from service.mail.headers import one_address, one_line, recipient
from service.mail.delivery import guarded, send_and_record, transport_for
from service.store.models import (AccountMailRow, GameRow, InvitationRow, PendingGameRow,
                                  SignInTokenRow, WebhookRow)
from service.store.events import utc
from service.store.timekeeping import stored_clock
from service.core.pace import pace_label

log = logging.getLogger(__name__)

TASK = "chasqui.deliver_account_mail"
KINDS = ("sign_in", "invitation", "join", "admin_paused", "webhook_off",
         *seat_offer_mail.MAIL_KINDS)


def queue(session: Session, kind: str, ref_id: int, to_addr: str, now: datetime,
          domain: str) -> AccountMailRow:
    row = AccountMailRow(kind=kind, ref_id=ref_id, to_addr=to_addr, status="pending",
                         attempts=0, next_attempt_at=now, created_at=now,
                         # random part: ids restart in a new database, and a receiver that
                         # saw the old Message-ID would drop the new mail as a duplicate
                         message_id=f"<account.{kind}.{ref_id}.{secrets.token_hex(6)}@{domain}>")
    session.add(row)
    session.flush()
    return row


def dispatch(svc, ids: Iterable[int]) -> None:
    """After commit.  Embedded default: deliver now.  With Redis: one task per row by name
    (the service never imports the workers); a broker failure leaves the row to the sweep."""
    ids = list(ids)
    if svc.settings.embedded_tasks:
        for mail_id in ids:
            try:
                deliver(svc.db, svc.settings, mail_id, svc.clock())
            except Exception:  # noqa: BLE001  a mail problem must never undo the command
                log.exception("in-process delivery of account mail %s failed; left pending", mail_id)
        return
    client = getattr(svc.dispatch, "client", None)
    if client is None:
        return
    for done, mail_id in enumerate(ids):
        try:
            client.send_task(TASK, args=[mail_id], queue=svc.settings.queue, retry=False)
        except Exception as error:  # noqa: BLE001  the sweep will deliver it
            log.warning("could not queue account mail %s (%s); the sweep will deliver %s",
                        mail_id, error, ids[done:])
            return


def deliver(db: Database, settings: Settings, mail_id: int, now: datetime, transport=None) -> str:
    """Deliver one row (inside an app context, for the templates).  Whatever the row raises
    (a stored value no header can carry, a row it refers to that is gone) is written on the
    row (``delivery.fault``: retried with backoff, then failed), not raised."""
    transport = transport or transport_for(settings)
    return guarded(db, AccountMailRow, mail_id, now,
                   lambda: _deliver(db, settings, mail_id, now, transport))


def _deliver(db: Database, settings: Settings, mail_id: int, now: datetime, transport) -> str:
    with db.unit_of_work() as session:
        row = mail_reads.lock_for_delivery(session, AccountMailRow, mail_id)
        if row is None:
            return "locked-or-missing"
        if row.status != "pending":
            return row.status
        message = build_message(session, settings, row)
        if message is None:  # the invitation was withdrawn before its mail went out
            row.status = "cancelled"
            return row.status
        return send_and_record(transport, session, row, message, now)


def due_ids(db: Database, now: datetime, grace: timedelta = timedelta(seconds=60),
            limit: int = 200) -> list[int]:
    with db.reading() as session:
        return mail_reads.owed_ids(session, AccountMailRow, now - grace, limit)


# --- messages ---------------------------------------------------------------------------------

def clock_summary(clock: dict) -> list[dict]:
    """The clock's settings as phrases (``engine.text``): the page or mail shows each in its
    reader's language (``| tr``)."""
    c = stored_clock(clock)
    lines = [phrase("{decision} per decision, banked up to {bank}",
                    decision=hours_text(c.per_decision_hours), bank=hours_text(c.bank_max_hours)),
             phrase("reminders {marks} before the deadline",
                    marks=[hours_text(h) for h in c.reminder_hours])
             if c.reminder_hours else phrase("no reminders"),
             timeout_rule(c),
             amount_text(c.vacation_days, counted("{n} vacation day", "{n} vacation days", 1))]
    if c.weekend_pause:
        lines.append(phrase("clocks stop on Saturdays and Sundays (UTC)"))
    return lines


def timeout_rule(c) -> dict | str:
    """What the table's clock does when a player's time runs out, as a phrase."""
    return {"default": phrase("when time runs out, the game plays a safe default move"),
            "standing": phrase("when time runs out, the game plays your standing choice"),
            "pause": phrase("when time runs out, the game pauses"),
            "bot": phrase("when time runs out, {bot} decides for you",
                          bot=bot_levels.the_bot(c.timeout_bot_level))}.get(
                c.timeout_policy, c.timeout_policy)


def hours_text(hours: float) -> dict:
    if hours >= 24 and hours % 24 == 0:
        return counted("{n} day", "{n} days", int(hours // 24))
    return amount_text(hours, counted("{n} hour", "{n} hours", 1))


def amount_text(amount: float, unit: dict) -> dict:
    """``unit`` (a ``counted`` phrase) about ``amount``, in the form its count takes in the
    reader's language.  Gettext's plural forms choose by a whole number; a fraction ("1.5
    hours") takes the form English and our other languages use for many, so it is chosen
    with 2 and shown as it is (so is any amount that is not a whole number)."""
    whole = math.isfinite(amount) and amount == int(amount)  # a stored NaN is shown as it is
    return {**unit, "n": int(amount) if whole else 2,
            "a": {"n": int(amount) if whole else f"{amount:g}"}}


def game_summary(pending: PendingGameRow) -> dict:
    game = GAMES.get(pending.game)
    return {"game": pending.game, "title": game.title if game else pending.game,
            "players": pending.players,
            "options": pending.options, "clock": clock_summary(pending.clock),
            "organiser": pending.organiser_name, "open": pending.open,
            "pace": pace_label(pending.pace)}


def build_message(session: Session, settings: Settings, row: AccountMailRow) -> EmailMessage | None:
    context: dict = {"base_url": settings.base_url}
    language = "en"
    if row.kind == "admin_paused":  # the pause policy tells the game's admins
        from service.store.models import DeadlineRow, SeatRow

        deadline = session.get(DeadlineRow, row.ref_id)
        game = session.get(GameRow, deadline.game_id)
        seat = session.get(SeatRow, (deadline.game_id, deadline.seat))
        context.update(game_id=game.id, game_name=game.game, seat_name=seat.name,
                       due=_when(deadline.due_at), admin_url=f"{settings.base_url}/admin/games/{game.id}")
        subject, template, name = f"[Chasqui] Game {game.id} paused: {seat.name}'s time ran out", "admin_paused", ""
    elif row.kind == "webhook_off":  # a game's chat channel kept failing
        hook = session.get(WebhookRow, row.ref_id)
        game = session.get(GameRow, hook.game_id)
        context.update(game_id=game.id, game_name=game.game, style=hook.style,
                       host=urlsplit(hook.url).hostname or "?", failures=hook.failures,
                       error=webhooks.last_post_error(session, hook.id))
        subject, template, name = (f"[Chasqui] Game {game.id}: a webhook was switched off",
                                   "webhook_off", "")
    elif row.kind in seat_offer_mail.MAIL_KINDS:  # a seat offered to a new player
        parts = seat_offer_mail.mail_parts(session, settings, row.kind, row.ref_id)
        if parts is None:  # the offer ended before its invitation went out
            return None
        context.update(parts["context"])
        subject, template, name = parts["subject"], parts["template"], parts["name"]
    elif row.kind == "sign_in":
        token = session.get(SignInTokenRow, row.ref_id)
        link = row_links.token(settings.secret_key, row_links.SIGN_IN_SALT, token)
        context.update(link=f"{settings.base_url}/signin/{link}",
                       expires=_when(token.expires_at), minutes=int(row_links.SIGN_IN_LIFETIME.total_seconds() // 60))
        subject, template, name = "[Chasqui] Your sign-in link", "sign_in", ""
    else:
        invitation = session.get(InvitationRow, row.ref_id)
        if invitation is None or invitation.status != "pending":
            return None
        pending = session.get(PendingGameRow, invitation.pending_id)
        link = row_links.token(settings.secret_key, row_links.INVITATION_SALT, invitation)
        link = f"{settings.base_url}/invite/{link}"
        context.update(game=game_summary(pending), name=invitation.name, link=link,
                       expires=_when(invitation.expires_at), kind=row.kind,
                       commitment=witness.commitment_token(pending.secret))
        title = context["game"]["title"]
        subject = (f"[Chasqui] {pending.organiser_name} invites you to play {title}"
                   if row.kind == "invitation" else f"[Chasqui] Confirm your seat in {title}")
        template, name = "invitation", invitation.name
        language = pending.language
    message = EmailMessage()
    message["Subject"] = one_line(subject)  # names stored before input validation existed
    message["From"] = settings.mail_from
    message["To"] = recipient(name, row.to_addr) if name else one_address(row.to_addr)
    message["Message-ID"] = row.message_id
    message["Date"] = format_datetime(utc(row.created_at))
    message["Auto-Submitted"] = "auto-generated"
    language = language if language in i18n.LOCALES else "en"
    if language != "en":  # the game's language, chosen by the organiser
        message["Content-Language"] = i18n.CONTENT_LANGUAGE[language]
    context["preview"] = kinds.preview(language, row.kind)
    with force_locale(language):
        message.set_content(render_template(f"organiser/mail/{template}.txt", **context))
        message.add_alternative(render_template(f"organiser/mail/{template}.html", **context),
                                subtype="html")
    message.set_boundary("=_chasqui_" + hashlib.sha256(row.message_id.encode()).hexdigest()[:32])
    return message


def _when(moment: datetime) -> str:
    return utc(moment).strftime("%a %d %b %Y %H:%M UTC")
