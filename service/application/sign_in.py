"""Signing in by mail: the commands behind the magic link (ask for one, look at one, use one).

The token is the signed pair (row id, nonce): nothing secret is stored that would let a
database reader sign in without the service key, and a re-sent mail carries the same link.
There are no passwords: the account (keyed by the normalised address) is made the first time a
link is used."""
from __future__ import annotations

import secrets
from datetime import datetime
from urllib.parse import urlparse

from engine.text import phrase
from service.application import quotas
from service.core import row_links
from service.core.refusals import Refusal
from service.core.validation import one_address
from service.mail import mailer
from service.store.db import Session
from service.store.events import utc
from service.store.models import AccountRow, SignInTokenRow
from service.store.organiser_accounts import account_by_address, use_sign_in_token
from service.view.i18n import N_

class LinkRefused(Refusal):
    """A sign-in link that cannot be used; ``status`` is the HTTP answer."""

    def __init__(self, status: int, message):
        super().__init__(message)
        self.status = status


def _refused_link(forged: bool) -> LinkRefused:
    return LinkRefused(403, N_("This sign-in link is not valid (forged or mistyped).") if forged
                       else N_("This sign-in link is not valid."))


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
                         expires_at=now + row_links.SIGN_IN_LIFETIME)
    session.add(row)
    session.flush()
    return address, mailer.queue(session, "sign_in", row.id, address, now, settings.mail_domain).id


def peek(session: Session, settings, token: str, now: datetime) -> SignInTokenRow:
    """The link's row if it can still be used (for the landing page; changes nothing)."""
    row = row_links.read(session, SignInTokenRow, settings.secret_key, row_links.SIGN_IN_SALT,
                         token, _refused_link)
    if row.used_at is not None:
        raise LinkRefused(410, N_("This sign-in link was used already; each link works once. "
                                  "Ask for a new one."))
    if utc(row.expires_at) <= now:
        raise LinkRefused(410, phrase("This sign-in link expired (links work for {minutes} "
                                      "minutes). Ask for a new one.",
                                      minutes=int(row_links.SIGN_IN_LIFETIME.total_seconds() // 60)))
    return row


def redeem(session: Session, settings, token: str, now: datetime) -> tuple[AccountRow, str | None]:
    """Use the link up (a conditional UPDATE: of two simultaneous clicks one wins) and return
    the account, made on first use."""
    row = peek(session, settings, token, now)
    if not use_sign_in_token(session, row.id, now):
        raise LinkRefused(410, N_("This sign-in link was used already; each link works once."))
    account = account_for(session, row.email, now)
    account.last_sign_in_at = now
    return account, row.next_path


def account_for(session: Session, address: str, now: datetime, name: str | None = None) -> AccountRow:
    account = account_by_address(session, address)
    if account is None:
        account = AccountRow(email=address, name=name, created_at=now)
        session.add(account)
        session.flush()
    return account


# --- pages ------------------------------------------------------------------------------------
