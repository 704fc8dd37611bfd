"""Signing an account out everywhere: its ``session_generation`` counts up, and every cookie
that carries the generation before is refused from then on (``service.web.sessions``)."""
from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm import Session

from service.store.models import AccountRow


def end_account_sessions(session: Session, account: AccountRow) -> None:
    """Count the account's generation up, unless another sign-out already did since the
    account was read (each cookie ends its sessions once)."""
    session.execute(update(AccountRow).where(
        AccountRow.id == account.id,
        AccountRow.session_generation == account.session_generation)
        .values(session_generation=AccountRow.session_generation + 1))
