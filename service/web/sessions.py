"""Who is signed in: the account id in Flask's signed session cookie (HttpOnly, SameSite=Lax,
Secure when the base URL is https -- configured in ``create_app``).

A signed cookie alone cannot be taken back: a copy saved before signing out would still be
good.  So the cookie also carries the account's ``session_generation``, read on every request
with the account row; signing out counts the generation up in the database, and every cookie
made before is refused from then on, on every device (``sign_out``)."""
from __future__ import annotations

from functools import wraps

from flask import g, redirect, request, session as cookie, url_for

from service.application import admin_auth as auth
from service.store.db import Session
from service.store.models import AccountRow
from service.store.web_sessions import end_account_sessions

ACCOUNT_ID = "account_id"
GENERATION = "account_generation"


def log_in(account: AccountRow) -> None:
    cookie[ACCOUNT_ID] = account.id
    cookie[GENERATION] = account.session_generation
    cookie.permanent = False


def current(session: Session) -> AccountRow | None:
    account_id, generation = cookie.get(ACCOUNT_ID), cookie.get(GENERATION)
    if not auth.whole_number(account_id) or not auth.whole_number(generation):
        return None
    account = session.get(AccountRow, account_id)
    if account is None or account.session_generation != generation:
        return None  # signed out since this cookie was made
    return account


def sign_out(session: Session) -> None:
    """End, on the server, every session of whoever this cookie signs in -- the account and the
    admin login it may carry too -- then empty the cookie.  A cookie that is no longer good
    ends nothing (a copy kept from before cannot sign anyone out again)."""
    account = current(session)
    if account is not None:
        end_account_sessions(session, account)
    auth.end_sessions(session)
    cookie.clear()


def signed_in_required(view):
    """Pages for organisers: a visitor is sent to the sign-in page, and back afterwards."""
    @wraps(view)
    def wrapper(*args, **kwargs):
        if g.get("account") is None:
            return redirect(url_for("signin.form", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)
    return wrapper
