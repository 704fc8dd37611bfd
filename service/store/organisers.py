"""Who organised a started game, and every name its events give that person.

An organiser acts in a game under two names: ``organiser:<account id>`` when their
invitations start it, and ``admin:<admin id>`` (or, in events recorded before admins were
named by id, ``admin:<address>``) when they run it from the admin pages.  Players know them by
the name the invitations gave ("Ana invites you"), so mail and pages say that name instead of
an address or an id.  Both rows are fixed once the game starts, so a mail built from them
reads the same when it is sent again."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.store.models import AccountRow, AdminRow, PendingGameRow


@dataclass(frozen=True)
class Organiser:
    name: str                # as the invitations named them
    email: str               # for admin pages only, never for players
    actors: frozenset[str]   # the event actors that are this person


def organiser_of(session: Session, game_id: str) -> Organiser | None:
    """The organiser of ``game_id``; None for a game made without invitations (the API)."""
    found = session.execute(
        select(PendingGameRow.organiser_id, PendingGameRow.organiser_name, AccountRow.email)
        .join(AccountRow, AccountRow.id == PendingGameRow.organiser_id)
        .where(PendingGameRow.game_id == game_id)).first()
    if found is None:
        return None
    account_id, name, email = found
    admin_ids = session.scalars(select(AdminRow.id).where(AdminRow.email == email))
    actors = {f"organiser:{account_id}", f"admin:{email}", *(f"admin:{i}" for i in admin_ids)}
    return Organiser(name=name, email=email, actors=frozenset(actors))


def organised_games(session: Session, account_id: int, limit: int = 200) -> list[PendingGameRow]:
    """The games an account organised (their invitations, open or done), the newest first:
    the organiser's home page."""
    return list(session.scalars(select(PendingGameRow).where(
        PendingGameRow.organiser_id == account_id)
        .order_by(PendingGameRow.created_at.desc()).limit(limit)))


def newest_pending_of(session: Session, email: str) -> PendingGameRow | None:
    """The newest game the account of ``email`` set up (the demo's, for its links again)."""
    return session.scalars(
        select(PendingGameRow).join(AccountRow, AccountRow.id == PendingGameRow.organiser_id)
        .where(AccountRow.email == email)
        .order_by(PendingGameRow.created_at.desc(), PendingGameRow.id.desc()).limit(1)).first()
