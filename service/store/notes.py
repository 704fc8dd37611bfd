"""A seat's private notes: what a player writes for themself on the play page.

Not an event: notes are outside the hash chain, the public record, exports and every audit,
so a rollback or an undo leaves them as they are, and no admin can read them.  Only the seat's
own play page and its own JSON answer (``/api/play/<secret>/notes``) read this table.

A row is keyed by the seat *and* the address that holds it (``SeatRow.email``): when a seat
changes hands, the newcomer starts with no notes and the replaced player's stay where only
that address could ever read them again (should the seat come back to it).  A rematch is a
new game, so it starts with no notes."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from engine.text import phrase
from service.core.validation import bounded_text
from service.store.events import utc
from service.store.models import SeatNoteRow, SeatRow

MAX_NOTES = 4000


def note_text(raw) -> str:
    """Notes as they are kept: text of at most ``MAX_NOTES`` characters with no control
    character but line breaks and tabs (refused with the limit stated, never cut); blanks
    around it dropped.  "" means no notes."""
    return bounded_text(raw, phrase("your notes"), MAX_NOTES).strip()


def _key(seat_row: SeatRow) -> tuple[str, int, str]:
    return seat_row.game_id, seat_row.seat, seat_row.email


def read(session: Session, seat_row: SeatRow) -> dict:
    """The notes of the seat's present holder: {"notes", "updated_at"} (None when none)."""
    row = session.get(SeatNoteRow, _key(seat_row))
    if row is None:
        return {"notes": "", "updated_at": None}
    return {"notes": row.text, "updated_at": utc(row.updated_at)}


def write(session: Session, seat_row: SeatRow, text: str, now: datetime) -> dict:
    """Keep ``text`` (already passed ``note_text``) as the holder's notes; "" removes them."""
    row = session.get(SeatNoteRow, _key(seat_row))
    if not text:
        if row is not None:
            session.delete(row)
        return {"notes": "", "updated_at": None}
    if row is None:
        game_id, seat, holder = _key(seat_row)
        row = SeatNoteRow(game_id=game_id, seat=seat, holder=holder, text=text, updated_at=now)
        session.add(row)
    else:
        row.text, row.updated_at = text, now
    return {"notes": text, "updated_at": now}
