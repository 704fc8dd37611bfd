"""Daily digests and the "my games" listing.

A seat on "digest" gets no turn mail; once a day (the beat task ``chasqui.send_digests``) each
address with such seats waiting gets one mail listing those games, longest waiting first.  The
``mail_digests`` row keyed by (address, day) makes the task idempotent, and fixes the list (game,
seat, seq) so that a re-sent digest is the same mail."""
from __future__ import annotations

import hashlib
import logging
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime

from flask import render_template

from service.mail import headers as mail_headers
from service.mail import kinds
from service.mail.witness import fingerprint_of

from service.store import digests, preferences
from service.store.db import Database, Session, session_of
from service.store.loading import NotFound, load
from service.view.i18n import translate
from service.store.models import DigestRow, EventRow, OutboxRow
from service.view.presenter import seat_context
from service.store.events import utc

log = logging.getLogger(__name__)


def seat_games(session: Session, address: str) -> list[dict]:
    """Every game of this address: {game_id, seat, title, status, waiting, since, seq},
    the games waiting for the address first (longest waiting first), then the others."""
    out = []
    for seat_row in preferences.seats_of(session, address):
        try:
            loaded = load(session, seat_row.game_id)
        except (NotFound, ValueError):
            continue
        except Exception:  # noqa: BLE001 - one game that cannot be replayed hides only itself
            log.exception("game %s left out of a games list: it could not be loaded",
                          seat_row.game_id)
            continue
        game, state = loaded.game, loaded.state
        waiting = (loaded.row.status == "active" and game.outcome(state) is None
                   and seat_row.seat in game.to_act(state))
        since = loaded.head.recorded_at
        if waiting and seat_row.decision_seq:
            asked = session.get(EventRow, (seat_row.game_id, seat_row.decision_seq))
            if asked is not None:
                since = utc(asked.recorded_at)
        out.append({"game_id": seat_row.game_id, "seat": seat_row.seat, "title": game.title,
                    "status": loaded.row.status, "waiting": waiting, "since": since,
                    "seq": loaded.seq, "players": [s.name for s in loaded.seats],
                    "mode": preferences.mode_of(session, seat_row.game_id, seat_row.seat),
                    "language": preferences.language_of(session, seat_row.game_id, seat_row.seat),
                    "nonce": seat_row.nonce})
    out.sort(key=lambda g: (not g["waiting"], g["since"] if g["waiting"] else -g["since"].timestamp()))
    return out


def digest_message_id(address: str, day: str, domain: str) -> str:
    return f"<digest.{day}.{hashlib.sha256(address.encode()).hexdigest()[:20]}@{domain}>"


def plan(db: Database, now: datetime, domain: str) -> list[int]:
    """Write today's digest rows and their outbox rows; returns the outbox ids to deliver.
    Run it as often as you like: an address gets at most one digest per (UTC) day."""
    day = utc(now).date().isoformat()
    ids: list[int] = []
    with db.reading() as session:
        addresses = digests.digest_addresses(session)
    for address in addresses:
        try:
            outbox_id = _plan_one(db, address, day, now, domain)
        except Exception:  # noqa: BLE001 - one address's digest must not stop the others'
            log.exception("digest %s could not be planned; the next run tries again",
                          digest_message_id(address, day, domain))
            continue
        if outbox_id is not None:
            ids.append(outbox_id)
    return ids


def _plan_one(db: Database, address: str, day: str, now: datetime, domain: str) -> int | None:
    """Today's digest of one address, in a unit of work of its own: its outbox id, or None
    when it is owed nothing (or another beat wrote it first)."""
    with db.unit_of_work() as session:
        if session.get(DigestRow, (address, day)) is not None:
            return None
        games = [g for g in seat_games(session, address) if g["waiting"] and g["mode"] == "digest"]
        if not games:
            return None
        first = games[0]
        row = OutboxRow(game_id=first["game_id"], seat=first["seat"], kind="digest",
                        seq=first["seq"], to_addr=address, status="pending", attempts=0,
                        next_attempt_at=now, created_at=now,
                        message_id=digest_message_id(address, day, domain))
        listed = [{"game_id": g["game_id"], "seat": g["seat"], "seq": g["seq"]} for g in games]
        if not digests.add_digest(session, row, address, day, now, listed):
            return None  # another beat wrote it first
        return row.id


def build_digest(settings, row: OutboxRow, language: str) -> EmailMessage:
    """The digest mail of an outbox row: each listed game at the seq it had when planned."""
    from service.mail import kit as mailkit
    session = session_of(row)
    digest = digests.digest_of(session, row.id)
    entries = []
    for item in (digest.games if digest is not None else []):
        loaded = load(session, item["game_id"], upto=item["seq"])
        context = seat_context(settings, loaded, item["seat"])
        entries.append({"title": context["title"], "players": context["players"],
                        "actions": context["actions"], "play_url": context["play_url"],
                        "seq": context["seq"], "fingerprint": fingerprint_of(loaded.head)})
    my_games = f"{settings.base_url}/me/{preferences.address_token(settings.secret_key, row.to_addr)}"
    unsubscribe = (f"{settings.base_url}/unsubscribe/"
                   f"{preferences.unsubscribe_token(settings.secret_key, '*', -1, row.to_addr)}")
    day = digest.day if digest is not None else utc(row.created_at).date().isoformat()
    context = {"entries": entries, "my_games_url": my_games, "unsubscribe_url": unsubscribe,
               "day": day, "intro": kinds.intro(language, row.kind),
               "preview": kinds.preview(language, row.kind),
               "title": "Chasqui", "language": language}
    message = EmailMessage()
    message["Subject"] = f"[Chasqui] {translate(language, 'Your waiting games')} — {day}"
    message["From"] = settings.mail_from
    message["To"] = mail_headers.one_address(row.to_addr)
    message["Message-ID"] = row.message_id
    message["Date"] = format_datetime(utc(row.created_at))
    message["Auto-Submitted"] = "auto-generated"
    message["List-Unsubscribe"] = f"<{unsubscribe}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    with mailkit.locale(language):
        message.set_content(render_template("mail/digest.txt", **context))
        message.add_alternative(mailkit.inline_css(render_template("mail/digest.html", **context)),
                                subtype="html")
    mailkit.set_language(message, language)
    message.set_boundary("=_chasqui_" + hashlib.sha256(row.message_id.encode()).hexdigest()[:32])
    return message
