"""Who the page header says is signed in, with their pages and a way out.

A page's header must tell the truth about the session: "Sign in" to a visitor only, and to
someone signed in (an organiser by mail, an admin by password, or both in one cookie) who they
are, their pages, and "Sign out".  The cookie alone is not proof -- a signed-out copy still
carries an id -- so the header asks the same checks as the pages behind it
(``sessions.current``, ``admin_auth.from_cookie``), once per request and only when a page's
header is drawn: a JSON answer or a mail never reads the session."""
from __future__ import annotations

from dataclasses import dataclass

from flask import g, has_request_context, session as cookie, url_for

from service.application import admin_auth as auth
from service.web import sessions
from service.view.i18n import N_
from service.web.extensions import services

_UNREAD = object()


@dataclass(frozen=True)
class Visitor:
    name: str                     # the account's name, else its address; an admin's address
    pages: tuple[tuple[str, str], ...]  # (msgid of the link's words, url) of their own pages


def current_visitor() -> Visitor | None:
    """Whoever this request's cookie still signs in, or None (``visitor()`` in templates)."""
    if not has_request_context():
        return None
    found = g.get("visitor", _UNREAD)
    if found is _UNREAD:
        found = g.visitor = _read()
    return found


def _read() -> Visitor | None:
    if sessions.ACCOUNT_ID not in cookie and auth.SESSION_ID not in cookie:
        return None  # nearly every player's page: nothing to look up
    account, admin = g.get("account", _UNREAD), g.get("admin", _UNREAD)
    if account is _UNREAD or admin is _UNREAD:
        with services().db.reading() as session:
            account = sessions.current(session) if account is _UNREAD else account
            admin = auth.from_cookie(session) if admin is _UNREAD else admin
    pages = []
    if account is not None:
        pages.append((N_("Your games"), url_for("organiser.home")))
    if admin is not None:
        pages.append((N_("Admin"), url_for("admin.dashboard")))
    if not pages:
        return None
    name = (account.name or account.email) if account is not None else admin.email
    return Visitor(name=name, pages=tuple(pages))


def init_app(app) -> None:
    app.context_processor(lambda: {"visitor": current_visitor})
