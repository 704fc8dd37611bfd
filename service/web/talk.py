"""Table talk (issue 7): a player's message to the table is a ``MessagePosted{seat, text}``
event (an INFO event: it leaves every link fresh) and a "talk" mail to each other seat, in the
game's thread.  It comes from the play page's form (CSRF) or from a mail reply that is not a
move code.  The play page shows the recent messages."""
from __future__ import annotations

from datetime import datetime

from flask import Blueprint, current_app, flash, g, redirect, request, url_for
from flask_babel import gettext
from sqlalchemy import select
from sqlalchemy.orm import Session

from engine import IllegalAction
from engine.text import phrase
from service.store import preferences
from service.store import events as store
from service.web.errors import told
from service.application.games import _outbox, load
from service.store.models import EventRow, SeatRow
from service.core.validation import BadInput, bounded_text

MAX_TEXT = 2000
RECENT = 20

bp = Blueprint("talk", __name__, url_prefix="/play")


def message_text(raw) -> str:
    """What a player wrote, as the table will read it: at most ``MAX_TEXT`` characters and no
    control character but line breaks and tabs -- refused with the limit stated, never cut
    (a message cut short says something its writer did not write).  Trailing spaces of each
    line and blank lines around it are dropped ("" is left for ``post_message`` to refuse)."""
    text = bounded_text(raw, phrase("the message"), MAX_TEXT)
    return "\n".join(line.rstrip() for line in text.split("\n")).strip()


def post_message(session: Session, game_id: str, seat: int, text: str, now: datetime,
                 domain: str, actor: str) -> tuple[int, list[int]]:
    """Append MessagePosted and owe a "talk" mail to every other seat that has not turned
    its mail off.  Returns (the event's seq, outbox ids to dispatch after commit).  A text
    ``message_text`` refuses is an ``IllegalAction``, as every refusal of a command."""
    try:
        text = message_text(text)
    except BadInput as error:
        raise IllegalAction(error.say) from None
    if not text:
        raise IllegalAction(phrase("the message is empty"))
    for _attempt in range(5):  # other writers may take the next seq first: reload and retry
        loaded = load(session, game_id)
        if loaded.row.status == "abandoned":
            raise IllegalAction(phrase("this game was ended; the table is closed"))
        try:
            event = store.append(session, game_id, loaded.seq + 1, loaded.head_hash,
                                 "MessagePosted", {"seat": seat, "text": text}, actor, now)
        except store.Conflict:
            continue
        loaded.events.append(event)
        loaded.row.head_seq, loaded.row.updated_at = event.seq, now
        rows = [_outbox(loaded, s, "talk", now, domain) for s in loaded.seats
                if s.seat != seat and not preferences.mail_off(session, game_id, s.seat)]
        session.add_all(rows)
        session.flush()
        return event.seq, [r.id for r in rows]
    raise store.Conflict(phrase("the game is busy; try again"))


def recent(session: Session, game_id: str, upto: int | None = None, limit: int = RECENT) -> list[dict]:
    """The newest messages (oldest first), as {seq, seat, name, text, at}."""
    query = (select(EventRow).where(EventRow.game_id == game_id, EventRow.kind == "MessagePosted")
             .order_by(EventRow.seq.desc()).limit(limit))
    if upto is not None:
        query = query.where(EventRow.seq <= upto)
    events = list(session.scalars(query))
    names = {s.seat: s.name for s in session.scalars(select(SeatRow).where(SeatRow.game_id == game_id))}
    return [{"seq": e.seq, "seat": e.payload.get("seat"), "name": names.get(e.payload.get("seat"), "?"),
             "text": e.payload.get("text", ""), "at": store.utc(e.recorded_at)}
            for e in reversed(events)]


def message_at(loaded, seq: int) -> dict | None:
    """The MessagePosted event at ``seq`` (what a "talk" mail shows)."""
    for event in reversed(loaded.events):
        if event.seq == seq and event.kind == "MessagePosted":
            seat = event.payload.get("seat")
            name = loaded.seats[seat].name if isinstance(seat, int) and seat < len(loaded.seats) else "?"
            return {"seat": seat, "name": name, "text": event.payload.get("text", "")}
    return None


def _svc():
    return current_app.extensions["chasqui"]


def table_talk(game_id: str) -> list[dict]:
    """Jinja global for the play page (which play.py renders without knowing of talk)."""
    with _svc().db.reading() as session:
        return recent(session, game_id)


def init_app(app) -> None:
    app.jinja_env.globals["table_talk"] = table_talk
    app.register_blueprint(bp)



@bp.post("/<secret>/talk")
def post(secret: str):
    from service.application.moves import resolve_seat

    svc = _svc()
    raw = request.form.get("text", "")
    try:
        text = message_text(raw)
    except BadInput as error:
        return _refused(secret, raw, error)
    try:
        with svc.db.unit_of_work() as session:
            game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
            _seq, ids = post_message(session, game_id, seat, text, svc.clock(),
                                     svc.settings.mail_domain, f"seat:{seat}")
    except (IllegalAction, store.Conflict) as error:
        flash(gettext("Not sent: %(error)s", error=told(error)), "error")
        return redirect(url_for("play.page", secret=secret), 303)
    svc.dispatch(ids)
    flash(gettext("Sent to the table."), "ok")
    return redirect(url_for("play.page", secret=secret), 303)


def _refused(secret: str, raw, error: BadInput):
    """The play page again, with the refusal above the talk form and the text still in it, so
    that a message over the limit can be shortened instead of written again."""
    from service.web.play import page

    g.talk_error = gettext("Not sent: %(error)s", error=told(error))
    g.talk_text = raw if isinstance(raw, str) else ""
    return page(secret), 400
