"""Signing in by mail: a magic link, single use, good for 15 minutes.

The link (``/signin/<token>``) opens a page with one button; only the POST of that button
uses the link up, so a mail scanner that follows every link cannot.  The token is the signed
pair (row id, nonce): nothing secret is stored that would let a database reader sign in
without the service key, and a re-sent mail carries the same link.  There are no passwords:
the account (keyed by the normalised address) is made the first time a link is used."""
from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from urllib.parse import urlparse

from flask import (Blueprint, has_request_context, redirect, render_template, request,
                   session as cookie, url_for)
from flask_babel import gettext
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from engine.text import phrase
from service.application import admin_link
from service.mail import mailer
from service.application import quotas
from service.web import sessions
from service.web.app import limiter, services
from service.web.errors import told
from service.view.i18n import N_
from service.store.models import AccountRow, SignInTokenRow
from service.core.refusals import Refusal
from service.store.events import utc
from service.core.validation import BadInput, one_address

LIFETIME = timedelta(minutes=15)
SALT = "chasqui-signin-v1"
REQUEST_LIMIT = "10 per minute"   # per client address, on top of the per-address count


class LinkRefused(Refusal):
    """A sign-in link that cannot be used; ``status`` is the HTTP answer."""

    def __init__(self, status: int, message):
        super().__init__(message)
        self.status = status


def link_token(settings, row: SignInTokenRow) -> str:
    return URLSafeSerializer(settings.secret_key, salt=SALT).dumps([row.id, row.nonce])


def _read_token(settings, token: str) -> tuple[int, str]:
    try:
        data = URLSafeSerializer(settings.secret_key, salt=SALT).loads(token)
    except BadSignature:
        raise LinkRefused(403, N_("This sign-in link is not valid (forged or mistyped).")) from None
    if not (isinstance(data, list) and len(data) == 2 and isinstance(data[0], int)
            and isinstance(data[1], str)):
        raise LinkRefused(403, N_("This sign-in link is not valid."))
    return data[0], data[1]


def safe_next(target: str | None) -> str | None:
    """Only a path on this site: never an open redirect."""
    if (target and target.startswith("/") and not target.startswith("//")
            and "\\" not in target and not urlparse(target).netloc and len(target) <= 300):
        return target
    return None


def request_link(session: Session, settings, raw_address: str, next_path: str | None,
                 now: datetime) -> tuple[str, int]:
    """Make a link and owe its mail; returns (address, account mail id).  Raises BadInput
    (not exactly one usable address), TooMany."""
    address = one_address(raw_address)
    quotas.check_address(session, address, now, settings.signin_per_hour)
    row = SignInTokenRow(email=address, nonce=secrets.token_urlsafe(16),
                         next_path=safe_next(next_path), created_at=now,
                         expires_at=now + LIFETIME)
    session.add(row)
    session.flush()
    return address, mailer.queue(session, "sign_in", row.id, address, now, settings.mail_domain).id


def peek(session: Session, settings, token: str, now: datetime) -> SignInTokenRow:
    """The link's row if it can still be used (for the landing page; changes nothing)."""
    token_id, nonce = _read_token(settings, token)
    row = session.get(SignInTokenRow, token_id)
    if row is None or not secrets.compare_digest(row.nonce, nonce):
        raise LinkRefused(403, N_("This sign-in link is not valid."))
    if row.used_at is not None:
        raise LinkRefused(410, N_("This sign-in link was used already; each link works once. "
                                  "Ask for a new one."))
    if utc(row.expires_at) <= now:
        raise LinkRefused(410, phrase("This sign-in link expired (links work for {minutes} "
                                      "minutes). Ask for a new one.",
                                      minutes=int(LIFETIME.total_seconds() // 60)))
    return row


def redeem(session: Session, settings, token: str, now: datetime) -> tuple[AccountRow, str | None]:
    """Use the link up (a conditional UPDATE: of two simultaneous clicks one wins) and return
    the account, made on first use."""
    row = peek(session, settings, token, now)
    used = session.execute(update(SignInTokenRow).where(
        SignInTokenRow.id == row.id, SignInTokenRow.used_at.is_(None)).values(used_at=now))
    if used.rowcount != 1:
        raise LinkRefused(410, N_("This sign-in link was used already; each link works once."))
    account = account_for(session, row.email, now)
    account.last_sign_in_at = now
    return account, row.next_path


def account_for(session: Session, address: str, now: datetime, name: str | None = None) -> AccountRow:
    account = session.scalars(select(AccountRow).where(AccountRow.email == address)).first()
    if account is None:
        account = AccountRow(email=address, name=name, created_at=now)
        session.add(account)
        session.flush()
    return account


# --- pages ------------------------------------------------------------------------------------

bp = Blueprint("signin", __name__)


@bp.app_context_processor
def _signed_in() -> dict:
    """Read only for a page (a JSON answer never looks at the session: issue 9); a mail
    rendered outside a request (the sweep) is nobody's page."""
    return {"signed_in": has_request_context() and cookie.get(sessions.ACCOUNT_ID) is not None}


@bp.errorhandler(LinkRefused)
def _refused(error: LinkRefused):
    return render_template("organiser/signin_refused.html", message=told(error)), error.status


@bp.get("/signin")
def form():
    return render_template("organiser/signin.html", next=safe_next(request.args.get("next")) or "")


@bp.post("/signin")
@limiter.limit(REQUEST_LIMIT)
def ask():
    svc = services()
    raw = request.form.get("email", "")
    next_path = request.form.get("next")
    try:
        with svc.db.unit_of_work() as session:
            address, mail_id = request_link(session, svc.settings, raw, next_path, svc.clock())
    except BadInput as error:
        return render_template("organiser/signin.html", next=safe_next(next_path) or "",
                               email=raw, error=gettext("%(error)s.", error=told(error))), 400
    except quotas.TooMany as error:
        return render_template("organiser/signin.html", next=safe_next(next_path) or "",
                               email=raw, error=gettext("Too many sign-in mails: %(error)s.",
                                                         error=told(error))), 429
    mailer.dispatch(svc, [mail_id])
    return render_template("organiser/signin_sent.html", email=address,
                           minutes=int(LIFETIME.total_seconds() // 60),
                           mailbox=svc.settings.local_mailbox)


@bp.get("/signin/<token>")
def landing(token: str):
    """Shows who would be signed in, with one button.  A GET never uses the link up."""
    svc = services()
    with svc.db.reading() as session:
        row = peek(session, svc.settings, token, svc.clock())
    return render_template("organiser/signin_confirm.html", email=row.email, token=token)


@bp.post("/signin/<token>")
@limiter.limit(REQUEST_LIMIT)
def use(token: str):
    svc = services()
    with svc.db.unit_of_work() as session:
        account, next_path = redeem(session, svc.settings, token, svc.clock())
        admin_row = admin_link.magic_link_admin(session, account.email)
    cookie.clear()  # a fresh session: no fixation of a cookie set before signing in
    if admin_row is not None:
        admin_link.log_in_admin(admin_row)  # an organiser's own games at /admin
    sessions.log_in(account)
    return redirect(next_path or url_for("organiser.home"), 303)


@bp.post("/signout")
def sign_out():
    """Ends the session on the server too: a copy of the cookie is refused from now on."""
    with services().db.unit_of_work() as session:
        sessions.sign_out(session)
    return redirect(url_for("pages.index"), 303)
