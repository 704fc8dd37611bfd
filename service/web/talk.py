"""Table talk: a player's message to the table is a ``MessagePosted{seat, text}``
event (an INFO event: it leaves every link fresh) and a "talk" mail to each other seat, in the
game's thread.  It comes from the play page's form (CSRF) or from a mail reply that is not a
move code.  The play page shows the recent messages."""
from __future__ import annotations


from flask import Blueprint, flash, g, redirect, request, url_for
from flask_babel import gettext

from engine import IllegalAction
from service.store import events as store
from service.web.errors import told
from service.core.validation import BadInput
from service.application.talk import message_text, post_message, recent
from service.web.extensions import services

bp = Blueprint("talk", __name__, url_prefix="/play")


def _svc():
    return services()


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
            _seq, owed = post_message(session, game_id, seat, text, svc.clock(),
                                      svc.settings.mail_domain, f"seat:{seat}")
    except (IllegalAction, store.Conflict) as error:
        flash(gettext("Not sent: %(error)s", error=told(error)), "error")
        return redirect(url_for("play.page", secret=secret), 303)
    svc.dispatch_owed(owed)
    flash(gettext("Sent to the table."), "ok")
    return redirect(url_for("play.page", secret=secret), 303)


def _refused(secret: str, raw, error: BadInput):
    """The play page again, with the refusal above the talk form and the text still in it, so
    that a message over the limit can be shortened instead of written again."""
    from service.web.play import page

    g.talk_error = gettext("Not sent: %(error)s", error=told(error))
    g.talk_text = raw if isinstance(raw, str) else ""
    return page(secret), 400
