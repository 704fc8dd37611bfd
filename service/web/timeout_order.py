"""The player's order for when their time runs out, on the play page: one form POST (the
command and why it is an event: ``service.application.timeout_orders``)."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, request, url_for
from flask_babel import gettext

from engine import IllegalAction
from service.application.moves import resolve_seat
from service.application.timeout_orders import give, parse
from service.core.validation import BadInput
from service.store import events as store
from service.store.loading import load
from service.view import bot_levels
from service.view.i18n import page_language, translate
from service.web.errors import told
from service.web.extensions import services

bp = Blueprint("timeout_order", __name__, url_prefix="/play")


@bp.post("/<secret>/timeout-order")
def choose(secret: str):
    """The player's own choice (a CSRF-protected POST from the play page); a bad choice or a
    finished game is told in words and changes nothing."""
    svc = services()
    try:
        level = parse(request.form.get("level"))
        with svc.db.unit_of_work() as session:
            game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
            changed = give(session, load(session, game_id), seat, level, svc.clock(),
                           f"seat:{seat}")
    except (BadInput, IllegalAction, store.Conflict) as error:
        flash(gettext("Not done: %(error)s", error=told(error)), "error")
    else:
        flash(_saved(level) if changed else gettext("That was already your choice."), "ok")
    return redirect(url_for("play.page", secret=secret), 303)


def _saved(level: str | None) -> str:
    if level is None:
        return gettext("Saved: when your time runs out, the table's rule applies.")
    bot = translate(page_language(), bot_levels.the_bot(level))
    return gettext("Saved: when your time runs out, %(bot)s decides for you.", bot=bot)
