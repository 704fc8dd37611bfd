"""The public lobby: open games with free seats.  Joining asks for a name and an address and
sends a confirmation mail like an invitation (its landing page is the invitation's); the seat
is held for a day until confirmed.  Join mails count against the same per-address hourly
limit as sign-in mails."""
from __future__ import annotations

from flask import Blueprint, g, render_template, request
from flask_babel import gettext

from service.application import invitations, table_records

from service.mail import mailer

from service.application import quotas
from service.application.invitations import InvitationError
from service.web.extensions import own_limit, services
from service.web.errors import told
from service.view.i18n import N_
from service.store.models import PendingGameRow

bp = Blueprint("lobby", __name__, url_prefix="/lobby")

JOIN_LIMIT = "10 per minute"


@bp.errorhandler(InvitationError)
def _refused(error: InvitationError):
    return render_template("pages/error.html", title="Not done",
                           message=gettext("%(error)s Nothing was changed.",
                                           error=told(error))), error.status


@bp.errorhandler(quotas.TooMany)
def _too_many(error):
    return render_template("pages/error.html", title="Too many mails",
                           message=gettext("%(error)s. Nothing was changed.", error=told(error))), 429


@bp.get("/")
def index():
    svc = services()
    now = svc.clock()
    with svc.db.reading() as session:
        open_games = invitations.open_games(session, now)
        seated = table_records.tables(session, [row for row, _free in open_games], now)
        listed = [(row, mailer.game_summary(row), free, seated[row.id])
                  for row, free in open_games]
    return render_template("pages/lobby.html", games=listed)


def _open(session, pending_id: str) -> PendingGameRow:
    pending = session.get(PendingGameRow, pending_id)
    if pending is None or not pending.open:
        raise InvitationError(404, N_("No such open game."))
    return pending


@bp.get("/<pending_id>")
def show(pending_id: str):
    svc = services()
    with svc.db.reading() as session:
        pending = _open(session, pending_id)
        free = invitations.free_seats(session, pending, svc.clock())
        table = table_records.tables(session, [pending], svc.clock())[pending.id]
    g.chasqui_language = pending.language  # the game's language
    return render_template("organiser/join.html", pending=pending, free=free, table=table,
                           summary=mailer.game_summary(pending),
                           commitment=invitations.commitment_of(pending))


@bp.post("/<pending_id>/join")
@own_limit(JOIN_LIMIT)
def join(pending_id: str):
    svc = services()
    with svc.db.unit_of_work() as session:
        _open(session, pending_id)
        mail_id = invitations.join(session, svc.settings, pending_id, request.form.get("name", ""),
                                   request.form.get("email", ""), svc.clock())
    mailer.dispatch(svc, [mail_id])
    return render_template("pages/error.html", title="Check your mail",
                           message="We sent a confirmation mail. Your seat is held for a day: "
                                   "open the mail and confirm to take it.")
