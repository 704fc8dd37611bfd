"""What a game's mail says about its reader, beside ``service/mail/compose.py``'s message:
the language of the recipient, the reply/unsubscribe/spectator headers and links,
what a "talk" / "reply_ok" / "reply_error" mail says, and CSS inlining of the HTML part.

Everything here is a pure function of the outbox row and rows fixed before it was written
(preferences are read at delivery; a re-sent mail after a preference change may differ in
language, which is the preference doing its job)."""
from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from email.message import EmailMessage

import css_inline
from flask import current_app
from flask_babel import force_locale, get_translations
from jinja2 import Environment

from service.store import mail_reads, preferences
from service.store.db import session_of
from service.store.models import SeatRow
from service.core.tokens import spectate_token
from service.view.i18n import CONTENT_LANGUAGE, translate
from service.mail.reply_address import reply_address

_INLINER = css_inline.CSSInliner(keep_style_tags=False, load_remote_stylesheets=False)


def language_for(row) -> str:
    session = session_of(row)
    if session is None or row.seat is None:
        return preferences.DEFAULT_LANGUAGE
    return preferences.language_of(session, row.game_id, row.seat)


def languages_for(session, rows, zones: dict | None = None,
                  known: dict | None = None) -> dict[int, str]:
    """``language_for`` of several rows of one delivery in one statement (not two per row):
    the seats' own preferences, and the languages their addresses chose in any game, newest
    first.  ``zones``, when given, gets {(game_id, seat): time zone} of the same rows
    (``timekeeping.zone_of``'s rule: the seat's own choice, else UTC).

    The addresses come from ``known`` ({(game_id, seat): a seat row or record}, what the
    delivery's loads read), else from the seat rows those loads put in the session; the
    statement is built once (expanding parameters), so a call compiles nothing."""
    rows = [r for r in rows if r.seat is not None]
    if not rows:
        return {}
    keys = {(r.game_id, r.seat) for r in rows}
    seats = {key: known[key] if known and key in known else session.get(SeatRow, key)
             for key in keys}
    addresses = sorted({preferences.normal_address(seat.email)
                        for seat in seats.values() if seat is not None})
    own: dict = {}
    chosen: list[tuple] = []  # (updated_at, address, language) of the addresses' choices
    for kind, game_id, seat, language, zone, updated_at, address in mail_reads.language_choices(
            session, sorted(keys), addresses):
        if kind == 0:
            own[(game_id, seat)] = language
            if zones is not None and zone:
                zones[(game_id, seat)] = zone
        else:
            chosen.append((updated_at, address, language))
    if zones is not None:
        for key in keys:
            zones.setdefault(key, "UTC")
    newest: dict[str, str] = {}
    for _, address, language in sorted(chosen, key=lambda c: c[0], reverse=True):
        newest.setdefault(address, language)  # the newest, as in address_language
    out: dict[int, str] = {}
    for r in rows:
        language = own.get((r.game_id, r.seat))
        seat_row = seats[(r.game_id, r.seat)]
        if language not in preferences.LANGUAGES and seat_row is not None:
            language = newest.get(preferences.normal_address(seat_row.email))
        out[r.id] = language if language in preferences.LANGUAGES else preferences.DEFAULT_LANGUAGE
    return out


@contextmanager
def locale(language: str):
    """Render templates in the recipient's language."""
    with force_locale(_babel_locale(language)):
        yield


@lru_cache(maxsize=16)
def _babel_locale(language: str):
    """The parsed locale ``force_locale`` would make of ``language`` (it takes one as it is):
    parsing it checks the locale data on disk, once per mail."""
    from babel import Locale

    return Locale.parse(language)


def environment(language: str) -> Environment:
    """The Jinja environment that renders a game mail in ``language`` (call inside an app
    context): the app's templates, filters and globals, with Jinja's i18n extension bound to
    that language's catalog (``install_gettext_translations``, newstyle, as Flask-Babel
    installs it for the pages).

    Why not the app's own environment: there Flask-Babel's ``gettext`` asks for the current
    locale's catalog again on every ``_()``, dozens of times per mail, and the worker's mail
    rate is held against a no-op task (``bench/mail.py``).  One environment per language binds
    its catalog once; render under ``locale(language)`` still, for the ``tr`` filter and
    anything else that asks Flask-Babel.  Kept per app (each app has its own templates and
    catalogs) and language; each compiles the mail templates once, or loads them from the
    app's bytecode cache when one is configured (``jinja_env.bytecode_cache``), as its pages do."""
    return _environment(current_app.jinja_env, language)


@lru_cache(maxsize=16)
def _environment(pages: Environment, language: str) -> Environment:
    mail = Environment(loader=pages.loader, autoescape=pages.autoescape,
                       auto_reload=pages.auto_reload, bytecode_cache=pages.bytecode_cache,
                       extensions=["jinja2.ext.i18n"])
    mail.filters.update(pages.filters)
    mail.tests.update(pages.tests)
    mail.globals.update(pages.globals)
    with locale(language):
        mail.install_gettext_translations(get_translations(), newstyle=True)
    return mail


def links(settings, loaded, seat: int | None, address: str) -> dict:
    base = settings.base_url
    out = {
        "my_games_url": f"{base}/me/{_address_token(settings.secret_key, address)}",
        "spectate_url": f"{base}/watch/{_spectate_token(settings.secret_key, loaded.row.id)}",
        "unsubscribe_url": None,
    }
    if seat is not None:
        token = preferences.unsubscribe_token(settings.secret_key, loaded.row.id, seat, address)
        out["unsubscribe_url"] = f"{base}/unsubscribe/{token}"
    return out


# The "my games" and spectator tokens are signed without a timestamp, so they are pure
# functions of (key, address) and (key, game): one event's mails share the game's, a player's
# mails share the address's, and each signature has a cost.
@lru_cache(maxsize=4096)
def _address_token(secret_key: str, address: str) -> str:
    return preferences.address_token(secret_key, address)


@lru_cache(maxsize=1024)
def _spectate_token(secret_key: str, game_id: str) -> str:
    return spectate_token(secret_key, game_id)


def message_at(loaded, seq: int) -> dict | None:
    """The MessagePosted event at ``seq`` (what a "talk" mail shows)."""
    for event in reversed(loaded.events):
        if event.seq == seq and event.kind == "MessagePosted":
            seat = event.payload.get("seat")
            name = loaded.seats[seat].name if isinstance(seat, int) and seat < len(loaded.seats) else "?"
            return {"seat": seat, "name": name, "text": event.payload.get("text", "")}
    return None


def extra_context(settings, loaded, row, language: str) -> dict:
    context = links(settings, loaded, row.seat, row.to_addr)
    context["language"] = language
    context["title"] = translate(language, loaded.game.title)
    context["talk"] = None
    context["reply_detail"] = None
    if row.kind == "talk":
        context["talk"] = message_at(loaded, row.seq)
    if row.kind in ("reply_ok", "reply_error"):
        session = session_of(row)
        detail = mail_reads.reply_detail(session, row.id) if session is not None else ""
        context["reply_detail"] = translate(language, detail) if row.kind == "reply_ok" else detail
    if row.seat is not None:
        context["reply_to"] = reply_to(settings, loaded, row.seat)
    return context


def reply_to(settings, loaded, seat: int) -> str:
    return _reply_address(settings.secret_key, settings.inbound_address, settings.mail_domain,
                          loaded.row.id, seat, loaded.seats[seat].nonce)


# A seat's reply address is a pure function of these (an HMAC), the same in each of its mails.
_reply_address = lru_cache(maxsize=4096)(reply_address)


def add_headers(message, settings, loaded, row, language: str,
                context: dict | None = None) -> None:
    """Reply-To (a reply makes a move or talks to the table), the seq the mail shows (so a
    reply can be checked for staleness), RFC 2369/8058 unsubscribe headers.  ``message``: an
    ``EmailMessage`` (or anything that takes ``[name] =`` and ``set_raw``).
    ``context``: this row's ``extra_context``, whose signed links are reused (not re-signed)."""
    if row.seat is not None:
        if context is not None and "reply_to" in context:
            mailto, url = context["reply_to"], context["unsubscribe_url"]
        else:
            mailto = reply_to(settings, loaded, row.seat)
            url = links(settings, loaded, row.seat, row.to_addr)["unsubscribe_url"]
        message["Reply-To"] = mailto
    message["X-Chasqui-Seq"] = str(row.seq)
    message["List-Id"] = f"Chasqui game {loaded.row.id} <{loaded.row.id}.games.{settings.mail_domain}>"
    if row.seat is not None:
        # Raw and folded by hand between the two URIs: left to the policy, a URL longer
        # than a line becomes an RFC 2047 encoded-word, which no mail client reads as a URI
        # (so one-click unsubscribe would silently not work).  MAIL_POLICY never refolds it.
        message.set_raw("List-Unsubscribe", f"<{url}>,\n <mailto:{mailto}?subject=unsubscribe>")
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"


def set_language(message: EmailMessage, language: str) -> None:
    """Call after the parts are made: making a multipart moves Content-* headers inward."""
    message["Content-Language"] = content_language(language)


def content_language(language: str) -> str:
    """The Content-Language header's value (BCP 47: zh-Hans) for a catalog's language."""
    return CONTENT_LANGUAGE.get(language, "en")


def inline_css(html: str) -> str:
    """Move <style> rules into style attributes: many mail clients drop <style> blocks."""
    return _INLINER.inline(html)
