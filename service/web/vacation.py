"""The player's vacation switch on the play page: one form POST that turns their vacation on
or off (the commands and why vacations are events: ``service.application.vacation``)."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, request, url_for
from flask_babel import gettext

from engine import IllegalAction
from service.store import events as store
from service.application.vacation import end, start
from service.web.extensions import services
from service.web.errors import told
from service.store.loading import load
from service.application.moves import resolve_seat
from service.core.tokens import BadSecret

bp = Blueprint("vacation", __name__, url_prefix="/play")


@bp.post("/<secret>/vacation")
def switch(secret: str):
    """The player's own switch (a CSRF-protected POST from the play page)."""
    svc = services()
    turn_on = request.form.get("on") == "1"
    try:
        with svc.db.unit_of_work() as session:
            game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
            loaded = load(session, game_id)
            command = start if turn_on else end
            owed = command(session, loaded, seat, svc.clock(), svc.settings.mail_domain,
                           f"seat:{seat}", auto=False)
        svc.dispatch_owed(owed)
    except BadSecret:
        raise
    except (IllegalAction, store.Conflict) as error:
        flash(gettext("Not done: %(error)s", error=told(error)), "error")
    else:
        flash(gettext("Vacation is on: your clock is stopped.") if turn_on
              else gettext("Welcome back: your clock runs again."), "ok")
    return redirect(url_for("play.page", secret=secret), 303)
