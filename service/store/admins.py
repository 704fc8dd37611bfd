"""Admin accounts, their login sessions and the games granted to them (``game_admins``).

The rules of who may do what are ``service.application.admin_auth``'s; this module only
finds and counts the rows those rules read."""
from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from service.store.models import AdminRow, GameAdminRow


def admin_by_email(session: Session, email: str) -> AdminRow | None:
    """The account of an address as accounts keep it (lower case, stripped), if any: the one
    row a login, a new password or a game grant acts on."""
    return session.scalars(select(AdminRow).where(AdminRow.email == email)).first()


def admin_addresses(session: Session) -> list[tuple[int, str]]:
    """(id, address) of every admin: events name an admin by id, an admin's page by address."""
    return [(admin_id, email) for admin_id, email in
            session.execute(select(AdminRow.id, AdminRow.email))]


def count_session_generation(session: Session, admin_id: int, generation: int) -> None:
    """Count the account's session generation up from ``generation``, which refuses every
    cookie made in it.  Compared in the statement, so two logouts at once count it once."""
    session.execute(update(AdminRow).where(
        AdminRow.id == admin_id, AdminRow.session_generation == generation)
        .values(session_generation=AdminRow.session_generation + 1))


def granted_games(session: Session, admin_id: int) -> frozenset[str]:
    """The ids of the games this admin is an admin of (a site admin's rights need none)."""
    return frozenset(session.scalars(
        select(GameAdminRow.game_id).where(GameAdminRow.admin_id == admin_id)))


def game_admin_addresses(session: Session, game_id: str) -> list[str]:
    """The addresses of the game's own admins (its organiser), who are asked when it pauses."""
    return list(session.scalars(select(AdminRow.email).join(
        GameAdminRow, GameAdminRow.admin_id == AdminRow.id).where(GameAdminRow.game_id == game_id)))


def site_admin_addresses(session: Session) -> list[str]:
    """The site admins' addresses: who is asked when a game has no admin of its own."""
    return list(session.scalars(select(AdminRow.email).where(AdminRow.is_site_admin)))
