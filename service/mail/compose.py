"""Building one outbox row's message: headers, threading, text and HTML parts.

The message is a pure function of the row and the events up to its seq, so a delivery that is
retried after a crash produces the same bytes (and the receiver dedupes on Message-ID)."""
from __future__ import annotations

import email.policy
import hashlib
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from email.utils import format_datetime
from functools import lru_cache

from engine.text import phrase, term
from service.mail import headers as mail_headers
from service.mail import kinds
from service.mail import kit as mailkit
from service.view import bot_levels
from service.view.notices import BY_ADMIN_KINDS, acted_by, consent_line, notice_for
from service.view.i18n import N_
from service.core.config import Settings
from service.store.loading import Loaded
from service.mail.message_ids import thread_root
from service.mail.witness import fingerprint_of
from service.store import mail_reads
from service.store.db import session_of
from service.store.models import OutboxRow
from service.store.organisers import organiser_of
from service.view.presenter import seat_context, subject
from service.store.events import utc
from service.store.timekeeping import describe_left, format_due, timeout_of, zone_of


class _ParsedOnce(HeaderRegistry):
    """The header registry, parsing each distinct (name, value) once.

    Why kept: parsing a value through the header registry is the larger part of what setting
    a header costs, and the public path (``EmailMessage`` and ``send_message``) could not
    otherwise hold the worker's mail rate against a no-op task (``bench/mail.py``).  Most of
    a mail's headers recur from mail to mail: From, Auto-Submitted, a game's List-Id and
    X-Chasqui-Game, an event's Date and Subject, a seat's To, Reply-To and thread, and the
    parts' Content-Type, Content-Transfer-Encoding and MIME-Version that ``set_content``
    writes.  A policy's ``header_factory`` is the documented place to make header objects
    (a ``HeaderRegistry``, whose ``__call__`` makes one), and header objects are immutable,
    so one object serves every message that sets the same value."""

    @lru_cache(maxsize=4096)
    def __call__(self, name: str, value: str):
        return super().__call__(name, value)

    @lru_cache(maxsize=256)
    def __getitem__(self, name: str):
        """The header class for ``name``, made once: the registry makes a new class on every
        lookup, and the policy looks one up for every header set (``header_max_count``)."""
        return super().__getitem__(name)


# ``email.policy.default`` with two changes: headers made by ``_ParsedOnce``, and a header
# set as its source (``set_raw``: List-Unsubscribe, folded by hand between its two URIs)
# written as it was given, never refolded.
MAIL_POLICY = email.policy.default.clone(refold_source="none", header_factory=_ParsedOnce())


def clock_lines(loaded: Loaded, row: OutboxRow, deadlines: dict | None = None,
                zones: dict | None = None, language: str = "en") -> dict:
    """The deadline of the seat's open decision and what the last event was, if a timeout.
    Computed from rows fixed for that decision, so a re-sent mail says the same thing.
    ``deadlines``: ``deadlines_for`` of a delivery's rows, when the caller looked them up;
    ``zones``: their seats' time zones (``mailkit.languages_for``), likewise."""
    lines = {"deadline": None, "happened": None}
    last = loaded.events[-1]
    if last.kind == "TurnTimedOut":
        lines["happened"] = timed_out_line(loaded, last, row.seat)
    if row.kind.startswith("reminder"):
        lines["happened"] = phrase(N_("Reminder: your move is still open."))
    if deadlines is None or row.seat not in deadlines:
        deadlines = deadlines_for(session_of(row), loaded, [row])
    due = deadlines.get(row.seat)
    if due is not None:
        due = utc(due)
        zone = (zones or {}).get((loaded.row.id, row.seat))
        if zone is None:
            session = session_of(row)
            zone = zone_of(session, loaded.row.id, row.seat) if session else "UTC"
        lines["deadline"] = _deadline_line(due, zone, language, utc(row.created_at))
    return lines


def timed_out_line(loaded: Loaded, event, reader: int | None) -> dict:
    """What a timeout did, as ``reader`` may know it: the move the game chose is named to its
    own seat only, since in a simultaneous decision it is a secret choice like any other."""
    seat = event.payload["seat"]
    name = loaded.seats[seat].name
    if event.payload.get("policy") == "bot":  # the organiser chose a bot to decide
        bot = bot_levels.the_bot(event.payload.get("level"))
        if reader != seat:
            return phrase(N_("{player}'s time ran out; {bot} chose for them."), player=name, bot=bot)
        return phrase(N_("{player}'s time ran out; {bot} played “{move}” for them."), player=name,
                      bot=bot, move=event.payload.get("say") or term(event.payload["label"]))
    if reader != seat:
        return phrase(N_("{player}'s time ran out; the game chose for them."), player=name)
    return phrase(N_("{player}'s time ran out; the game played “{move}” for them."), player=name,
                  move=event.payload.get("say") or term(event.payload["label"]))


@lru_cache(maxsize=1024)
def _deadline_line(due, zone: str, language: str, written) -> str:
    """"Wed 02 Dec 2026 05:15 UTC (in 2 days)": a pure function of UTC times, a zone and a
    language, which one event's mails share (its seats have one deadline, written at once)."""
    return f"{format_due(due, zone, language)} ({describe_left(due, written, language)})"


# The Date header of one event's mails, written at once: ``format_datetime`` of a UTC time.
_date = lru_cache(maxsize=256)(format_datetime)


def deadlines_for(session, loaded: Loaded, rows) -> dict:
    """{seat: due_at or None} of the open decisions of the rows' seats, in one query."""
    game, state = loaded.game, loaded.state
    if session is None or loaded.row.status != "active":
        return {}
    to_act = game.to_act(state)
    keys = {row.seat: game.decision_key(state, row.seat) for row in rows if row.seat in to_act}
    if not keys:
        return {}
    found: dict = {}
    for seat, key, kind, due in mail_reads.open_deadlines(
            session, loaded.row.id, sorted(keys), sorted(set(keys.values()))):
        if keys.get(seat) == key:
            found.setdefault(seat, timeout_of(kind, due))
    return {seat: found.get(seat) for seat in keys}


def _organiser(loaded: Loaded, row: OutboxRow):
    """The game's organiser, looked up only for the rare mails that say who acted."""
    session = session_of(row)
    if row.kind not in BY_ADMIN_KINDS or session is None:
        return None
    return organiser_of(session, loaded.row.id)


def render(name: str, context: dict, language: str) -> str:
    """A mail template rendered with ``context`` in ``language``'s mail environment
    (``mailkit.environment``).  Not ``flask.render_template``: the context processors it runs
    (``g``, ``request``, ``session``, the pages' ``html_lang`` and ``visitor``) are for pages;
    a mail is the same whether it is built inside a web request or in a worker."""
    return mailkit.environment(language).get_template(name).render(context)


def build_message(settings: Settings, loaded: Loaded, row: OutboxRow,
                  language: str | None = None, deadlines: dict | None = None,
                  zones: dict | None = None) -> EmailMessage:
    """Render the seat's private view at the row's seq (call inside an app context).
    ``language``, ``deadlines`` and ``zones``: looked up already by the caller for several
    rows at once (``mailkit.languages_for``, ``deadlines_for``); looked up here when not given."""
    language = language or mailkit.language_for(row)  # the recipient's language
    if row.kind == "digest":
        from service.mail.digest import build_digest

        return build_digest(settings, row, language)
    context = seat_context(settings, loaded, row.seat)
    organiser = _organiser(loaded, row)
    context["intro"] = kinds.intro(language, row.kind, acted_by(loaded, row.kind, organiser))
    context["preview"] = kinds.preview(language, row.kind)
    context["kind"] = row.kind
    context["fingerprint"] = fingerprint_of(loaded.head)  # the state this mail shows
    context["notice"] = notice_for(loaded, row.kind, row.seat, organiser) + consent_line(
        loaded, row.kind, context["play_url"])
    context.update(clock_lines(loaded, row, deadlines, zones, language))
    extra = mailkit.extra_context(settings, loaded, row, language)
    context.update(extra)
    message = EmailMessage(policy=MAIL_POLICY)
    message["Subject"] = mail_headers.one_line(subject(loaded, language))
    message["From"] = settings.mail_from
    message["To"] = mail_headers.recipient(loaded.seats[row.seat].name, row.to_addr)
    message["Message-ID"] = row.message_id
    message["Date"] = _date(utc(row.created_at))
    message["Auto-Submitted"] = "auto-generated"  # RFC 3834: auto-responders stay quiet
    root = thread_root(loaded.row.id, row.seat, settings.mail_domain)
    if row.message_id != root:
        message["In-Reply-To"] = root
        message["References"] = root
    message["X-Chasqui-Game"] = loaded.row.id
    mailkit.add_headers(message, settings, loaded, row, language, extra)
    with mailkit.locale(language):
        message.set_content(render("mail/turn.txt", context, language))
        message.add_alternative(render("mail/turn.html", context, language),
                                subtype="html")  # inline styles
    message["Content-Language"] = mailkit.content_language(language)  # after the parts
    # A fixed boundary: left to the email package it is random, and a re-sent mail must be
    # byte-identical to the first (receivers dedupe on Message-ID; audits compare bytes).
    message.set_boundary(boundary_for(row.message_id))
    return message


def boundary_for(message_id: str) -> str:
    """The MIME boundary of the mail with ``message_id``: a pure function of it."""
    return "=_chasqui_" + hashlib.sha256(message_id.encode()).hexdigest()[:32]
