"""Signing in by mail: a magic link, single use, good for 15 minutes.

The link (``/signin/<token>``) opens a page with one button; only the POST of that button
uses the link up, so a mail scanner that follows every link cannot.  The token is the signed
pair (row id, nonce): nothing secret is stored that would let a database reader sign in
without the service key, and a re-sent mail carries the same link.  There are no passwords:
the account (keyed by the normalised address) is made the first time a link is used."""
from __future__ import annotations


from flask import Blueprint, redirect, render_template, request, session as cookie, url_for
from flask_babel import gettext

from service.application import admin_link
from service.mail import mailer
from service.application import quotas
from service.application.sign_in import LinkRefused, peek, redeem, request_link, safe_next
from service.web import sessions
from service.web.extensions import own_limit, services
from service.web.errors import told
from service.core import row_links
from service.core.validation import BadInput

REQUEST_LIMIT = "10 per minute"   # per client address, on top of the per-address count
bp = Blueprint("signin", __name__)


@bp.errorhandler(LinkRefused)
def _refused(error: LinkRefused):
    return render_template("organiser/signin_refused.html", message=told(error)), error.status


@bp.get("/signin")
def form():
    return render_template("organiser/signin.html", next=safe_next(request.args.get("next")) or "")


@bp.post("/signin")
@own_limit(REQUEST_LIMIT)
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
                           minutes=int(row_links.SIGN_IN_LIFETIME.total_seconds() // 60),
                           mailbox=svc.settings.serves_mailbox)


@bp.get("/signin/<token>")
def landing(token: str):
    """Shows who would be signed in, with one button.  A GET never uses the link up."""
    svc = services()
    with svc.db.reading() as session:
        row = peek(session, svc.settings, token, svc.clock())
    return render_template("organiser/signin_confirm.html", email=row.email, token=token)


@bp.post("/signin/<token>")
@own_limit(REQUEST_LIMIT)
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
