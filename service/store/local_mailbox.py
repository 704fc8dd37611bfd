"""The embedded default's mailbox as /mailbox reads it: the stored mails with their kind.

The subject of a game's mail is the same for every mail of the game, so the kind is what
tells a turn from table talk.  The kind is the outbox row's that sent the mail (both outboxes'
Message-IDs are unique); None for a mail of neither."""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.store.models import AccountMailRow, LocalMailRow, OutboxRow

MOST_SHOWN = 200


def _with_kind():
    return (select(LocalMailRow, func.coalesce(OutboxRow.kind, AccountMailRow.kind))
            .outerjoin(OutboxRow, OutboxRow.message_id == LocalMailRow.message_id)
            .outerjoin(AccountMailRow, AccountMailRow.message_id == LocalMailRow.message_id))


def stored_mails(session: Session, to: str | None = None) -> list[tuple[LocalMailRow, str | None]]:
    """The newest mails (to ``to`` only, when given), each with its kind."""
    query = _with_kind().order_by(LocalMailRow.id.desc()).limit(MOST_SHOWN)
    if to:
        query = query.where(LocalMailRow.to_addr == to)
    return [(row, kind) for row, kind in session.execute(query)]


def stored_mail(session: Session, mail_id: int) -> tuple[LocalMailRow, str | None] | None:
    """One stored mail with its kind; None when there is no such mail."""
    found = session.execute(_with_kind().where(LocalMailRow.id == mail_id)).first()
    return None if found is None else (found[0], found[1])
