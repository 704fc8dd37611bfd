"""Who is signed in: the account id in Flask's signed session cookie (HttpOnly, SameSite=Lax,
Secure when the base URL is https -- configured in ``create_app``)."""
from __future__ import annotations

from functools import wraps

from flask import g, redirect, request, session as cookie, url_for
from sqlalchemy.orm import Session

from service.models import AccountRow

ACCOUNT_ID = "account_id"


def log_in(account: AccountRow) -> None:
    cookie[ACCOUNT_ID] = account.id
    cookie.permanent = False


def log_out() -> None:
    cookie.pop(ACCOUNT_ID, None)


def current(session: Session) -> AccountRow | None:
    account_id = cookie.get(ACCOUNT_ID)
    if not isinstance(account_id, int):
        return None
    return session.get(AccountRow, account_id)


def signed_in_required(view):
    """Pages for organisers: a visitor is sent to the sign-in page, and back afterwards."""
    @wraps(view)
    def wrapper(*args, **kwargs):
        if g.get("account") is None:
            return redirect(url_for("signin.form", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)
    return wrapper
