"""Pending games and their invitations: the reads and the lock the invitation commands
(``service.application.invitations``) need.

A pending game is locked before any answer changes it, so that two last acceptances cannot
both start its game; its invitations are read in seat order."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.store.models import InvitationRow, PendingGameRow


def invitations_of(session: Session, pending_id: str) -> list[InvitationRow]:
    """Every invitation of a pending game, replaced and withdrawn ones included, in seat order
    (an invitation and its replacements share a position: oldest first)."""
    return list(session.scalars(select(InvitationRow).where(InvitationRow.pending_id == pending_id)
                                .order_by(InvitationRow.position, InvitationRow.id)))


def lock_pending(session: Session, pending_id: str) -> PendingGameRow | None:
    """The pending game, locked (PostgreSQL: FOR UPDATE) until the transaction ends, so two
    last acceptances cannot both start it; SQLite serialises writers anyway.  None: no such
    game."""
    return session.scalars(select(PendingGameRow).where(PendingGameRow.id == pending_id)
                           .with_for_update()).first()


def reread(session: Session, invitation: InvitationRow) -> None:
    """Read the invitation's row again, after its pending game was locked: an answer that
    another transaction committed while this one waited for the lock is then seen."""
    session.refresh(invitation)


def open_pending_games(session: Session, limit: int) -> list[PendingGameRow]:
    """The open games still inviting, newest first: what the lobby may offer seats of."""
    return list(session.scalars(select(PendingGameRow).where(
        PendingGameRow.open.is_(True), PendingGameRow.status == "inviting")
        .order_by(PendingGameRow.created_at.desc()).limit(limit)))
