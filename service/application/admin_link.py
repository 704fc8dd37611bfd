"""An organiser is the admin of the games they started, through ``game_admins``.

Organisers have no password, so their ``admins`` row carries a password hash that matches no
password (``MAGIC_LINK_ONLY``): it cannot log in at /admin/login, and signing in by mail logs
it in at /admin instead (``log_in_admin``).  An address that is already an admin with a
password (made by ``chasqui create-admin``) keeps its password and gets the game grant only;
a magic link never logs in such an account -- it is at least as strong as its password."""
from __future__ import annotations

from datetime import datetime

from service.application import admin_auth as auth
from service.store.admins import admin_by_email
from service.store.db import Session
from service.store.models import AdminRow

MAGIC_LINK_ONLY = "!magic-link-only: signs in by mail, never by password"


def make_game_admin(session: Session, address: str, game_id: str, now: datetime) -> bool:
    """Grant ``game_id`` to the admin row of ``address`` (made if missing).  False when the
    address is too long for an admin account (the events' actor column is 80 characters)."""
    if len(address) > auth.MAX_EMAIL:
        return False
    row = admin_by_email(session, address)
    if row is None:
        row = AdminRow(email=address, password_hash=MAGIC_LINK_ONLY, is_site_admin=False,
                       created_at=now)
        session.add(row)
        session.flush()
    auth.grant_game(session, row.id, game_id, now)
    return True


def magic_link_admin(session: Session, address: str) -> AdminRow | None:
    row = admin_by_email(session, address)
    if row is None or row.is_site_admin or row.password_hash != MAGIC_LINK_ONLY:
        return None
    return row


def log_in_admin(row: AdminRow) -> None:
    auth.log_in(row)
