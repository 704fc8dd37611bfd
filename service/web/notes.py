"""Private notes on the play page: a CSRF-protected POST saves the seat's notes
(``service.store.notes``); only that seat's own page shows them."""
from __future__ import annotations

from flask import Blueprint, flash, g, redirect, request, url_for
from flask_babel import gettext

from service.application.moves import resolve_seat
from service.core.validation import BadInput
from service.store import notes
from service.store.models import SeatRow
from service.web.errors import told
from service.web.extensions import services

bp = Blueprint("notes", __name__, url_prefix="/play")


def save(secret: str, raw) -> dict:
    """Check the secret, then keep the notes of the seat's present holder, in one unit of
    work.  Raises ``BadInput`` (too long, a control character) before anything is written and
    ``BadSecret`` for a forged or revoked secret."""
    text = notes.note_text(raw)
    svc = services()
    with svc.db.unit_of_work() as session:
        game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
        return notes.write(session, session.get(SeatRow, (game_id, seat)), text, svc.clock())


@bp.post("/<secret>/notes")
def post(secret: str):
    raw = request.form.get("notes", "")
    try:
        save(secret, raw)
    except BadInput as error:
        return _refused(secret, raw, error)
    flash(gettext("Your notes are saved."), "ok")
    return redirect(url_for("play.page", secret=secret, _anchor="notes-h"), 303)


def _refused(secret: str, raw, error: BadInput):
    """The play page again with the refusal above the notes and the text still in them."""
    from service.web.play import page

    g.notes_error = gettext("Not saved: %(error)s", error=told(error))
    g.notes_text = raw if isinstance(raw, str) else ""
    return page(secret), 400
