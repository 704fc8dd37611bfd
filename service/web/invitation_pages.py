"""The landing page of an invitation (or a lobby join confirmation): ``/invite/<token>``
shows the game, who invites, the clock, and two buttons.  Accepting and declining are
POSTs, so a mail scanner following the mail's links answers nothing."""
from __future__ import annotations

from flask import Blueprint, g, render_template, request

from service.application import invitations, table_records

from service.mail import mailer
from service.application.invitations import InvitationError
from service.web.extensions import own_limit, services
from service.web.errors import told
from service.store.models import PendingGameRow

bp = Blueprint("invitation", __name__, url_prefix="/invite")

ANSWER_LIMIT = "30 per minute"


@bp.errorhandler(InvitationError)
def _refused(error: InvitationError):
    return render_template("pages/error.html", title="Invitation", message=told(error)), error.status


@bp.get("/<token>")
def landing(token: str):
    svc = services()
    now = svc.clock()
    with svc.db.reading() as session:
        invitation = invitations.read_link(session, svc.settings, token)
        pending = session.get(PendingGameRow, invitation.pending_id)
        state = invitations.state_of(invitation, now)
        rows = [i for i in invitations.live(invitations.invitations_of(session, pending.id), now)
                if i.id != invitation.id]
        organiser, records = table_records.invited(session, pending, rows)
        others = [(i.name, invitations.state_of(i, now), record)
                  for i, record in zip(rows, records)]
    g.chasqui_language = pending.language  # the game's language, as its invitation mail
    return render_template("organiser/invitation.html", invitation=invitation, pending=pending,
                           state=state, others=others, token=token, organiser=organiser,
                           summary=mailer.game_summary(pending),
                           commitment=invitations.commitment_of(pending),
                           answer=request.args.get("answer", ""))


def _answer(token: str, accept: bool):
    svc = services()
    with svc.db.unit_of_work() as session:
        invitation, outcome = invitations.respond(
            session, svc.settings, token, accept, request.form.get("block") == "on", svc.clock(),
            share=request.form.get("contribution"))
        pending = session.get(PendingGameRow, invitation.pending_id)
        started = pending.status == "started"
        context = {"invitation": invitation, "pending": pending,
                   "summary": mailer.game_summary(pending), "started": started,
                   "blocked": not accept and request.form.get("block") == "on"}
    if outcome is not None:
        svc.dispatch_owed(outcome.owed)  # the game's start mail, now that every seat accepted
    g.chasqui_language = context["pending"].language
    return render_template("organiser/answered.html", accepted=accept, **context)


@bp.post("/<token>/accept")
@own_limit(ANSWER_LIMIT)
def accept(token: str):
    return _answer(token, True)


@bp.post("/<token>/decline")
@own_limit(ANSWER_LIMIT)
def decline(token: str):
    return _answer(token, False)
