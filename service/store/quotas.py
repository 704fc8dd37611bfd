"""What the counted limits count (``service.application.quotas``): mail sent to an address and
invitations sent by an organiser, since a moment.  Counted in the database, so a limit holds
across every web process and restart."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.store.models import AccountMailRow, InvitationRow, PendingGameRow


def mails_to_since(session: Session, address: str, kinds: tuple[str, ...],
                   since: datetime) -> int:
    """Account mails of ``kinds`` made for ``address`` after ``since``."""
    return session.scalar(select(func.count()).select_from(AccountMailRow).where(
        AccountMailRow.to_addr == address, AccountMailRow.kind.in_(kinds),
        AccountMailRow.created_at > since))


def invitations_by_since(session: Session, organiser_id: int, since: datetime) -> int:
    """Invitations the organiser sent to invitees ("invite": not their own seat, not a lobby
    visitor's join), in any of their games, after ``since``."""
    return session.scalar(select(func.count()).select_from(InvitationRow).join(
        PendingGameRow, PendingGameRow.id == InvitationRow.pending_id).where(
        PendingGameRow.organiser_id == organiser_id, InvitationRow.via == "invite",
        InvitationRow.created_at > since))
