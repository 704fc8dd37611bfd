"""Organisers' accounts and the magic links that sign them in (``service.application.sign_in``).

An account is keyed by its normalised address; a sign-in link is used up by a conditional
``UPDATE … WHERE used_at IS NULL``, so of two clicks on one link exactly one signs in."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from service.store.models import AccountRow, SignInTokenRow


def use_sign_in_token(session: Session, token_id: int, now: datetime) -> bool:
    """Mark the link used; False when it was used already (another click came first)."""
    used = session.execute(update(SignInTokenRow).where(
        SignInTokenRow.id == token_id, SignInTokenRow.used_at.is_(None)).values(used_at=now))
    return used.rowcount == 1


def account_by_address(session: Session, address: str) -> AccountRow | None:
    """The account of a normalised address; None before its first sign-in (or invitation)."""
    return session.scalars(select(AccountRow).where(AccountRow.email == address)).first()
