"""The organiser's pages under /organise: their games, the new-game form, a game's
invitations (replace an invitee, cancel).  Signed-in accounts only; every change is a
CSRF-protected POST; bad input re-shows the form with a 4xx and changes nothing."""
from __future__ import annotations

from flask import Blueprint, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext

from engine import GAMES, IllegalAction
from engine.text import phrase, term
from service.application import admin_link
from service.application import invitations
from service.mail import mailer
from service.application import quotas
from service.web import sessions
from service.application.invitations import InvitationError
from service.web.extensions import own_limit, services
from service.web.errors import told
from service.web.channel import organiser_channel
from service.view.i18n import N_
from service.store.models import AccountRow
from service.store.organisers import organised_games
from service.store.timekeeping import POLICIES, ClockSettings
from service.core.pace import PACES

bp = Blueprint("organiser", __name__, url_prefix="/organise")

CREATE_LIMIT = "20 per minute"
MAX_ROWS = max(GAMES[name].max_players for name in GAMES)
CLOCK_NUMBERS = ("per_decision_hours", "bank_max_hours", "vacation_days")


@bp.before_request
def _who() -> None:
    with services().db.reading() as session:
        g.account = sessions.current(session)


def _fail(status: int, message: str):
    return render_template("pages/error.html", title="Not done", message=message), status


@bp.errorhandler(InvitationError)
def _refused(error: InvitationError):
    return _fail(error.status, gettext("%(error)s. Nothing was changed.", error=told(error)))


@bp.errorhandler(IllegalAction)
def _illegal(error):
    return _fail(400, gettext("%(error)s. Nothing was changed.", error=told(error)))


@bp.errorhandler(quotas.TooMany)
def _too_many(error):
    return _fail(429, gettext("Too many invitations: %(error)s. Nothing was changed.",
                              error=told(error)))


@bp.get("/")
@sessions.signed_in_required
def home():
    svc = services()
    now = svc.clock()
    with svc.db.reading() as session:
        listed = [(row, GAMES[row.game].title, invitations.free_seats(session, row, now))
                  for row in organised_games(session, g.account.id)]
    return render_template("organiser/home.html", account=g.account, games=listed)


def _form_context(**extra) -> dict:
    games = [(name, GAMES[name].title, GAMES[name].min_players, GAMES[name].max_players)
             for name in GAMES]
    return {"games": games, "option_choices": invitations.OPTION_CHOICES,
            "languages": invitations.LANGUAGES, "seat_orders": invitations.SEAT_ORDERS,
            "policies": POLICIES, "defaults": ClockSettings(), "rows": MAX_ROWS,
            "paces": PACES,
            "form": request.form, "account": g.account, **extra}


@bp.get("/new")
@sessions.signed_in_required
def new():
    return render_template("organiser/new.html", **_form_context())


def _number(name: str, kind=float):
    raw = request.form.get(name, "").strip()
    if not raw:
        return None
    try:
        return kind(raw)
    except ValueError:
        raise InvitationError(400, phrase("{setting} must be a number",
                                              setting=term(name.replace("_", " ")))) from None


def draft_from_form() -> invitations.Draft:
    form = request.form
    game = form.get("game", "")
    players = _number("players", int)
    if players is None:
        raise InvitationError(400, N_("give the number of players"))
    options = {key: form[f"option_{game}_{key}"]
               for key in invitations.OPTION_CHOICES.get(game, {})
               if form.get(f"option_{game}_{key}")}
    clock: dict = {}
    for key in CLOCK_NUMBERS:
        value = _number(key)
        if value is not None:
            clock[key] = value
    marks = form.get("reminder_hours", "").strip()
    if marks:
        try:
            clock["reminder_hours"] = [float(m) for m in marks.replace(";", ",").split(",") if m.strip()]
        except ValueError:
            raise InvitationError(400, N_("reminder hours must be numbers separated by commas")) from None
    if form.get("timeout_policy"):
        clock["timeout_policy"] = form["timeout_policy"]
    if form.get("timeout_policy") == "bot":
        clock["timeout_bot_level"] = form.get("timeout_bot_level", "")
    clock["weekend_pause"] = form.get("weekend_pause") == "on"
    invitees = []
    for i in range(MAX_ROWS):
        name, email = form.get(f"name_{i}", "").strip(), form.get(f"email_{i}", "").strip()
        if name or email:
            invitees.append((name, email))
    return invitations.Draft(
        game=game, players=players, options=options, clock=clock,
        language=form.get("language", "en"), seat_order=form.get("seat_order", "random"),
        open=form.get("open") == "on", organiser_name=form.get("organiser_name", ""),
        organiser_seat=form.get("organiser_seat") == "on", invitees=invitees,
        pace=form.get("pace", ""))


@bp.post("/new")
@sessions.signed_in_required
@own_limit(CREATE_LIMIT)
def create():
    svc = services()
    try:
        draft = draft_from_form()
        with svc.db.unit_of_work() as session:
            organiser = session.get(AccountRow, g.account.id)
            pending, mail_ids, outcome = invitations.create_pending(
                session, svc.settings, organiser, draft, svc.clock())
            pending_id = pending.id
    except (InvitationError, IllegalAction, quotas.TooMany) as error:
        status = (error.status if isinstance(error, InvitationError)
                  else 429 if isinstance(error, quotas.TooMany) else 400)
        return render_template("organiser/new.html", **_form_context(
            error=gettext("%(error)s. Nothing was sent.", error=told(error)))), status
    mailer.dispatch(svc, mail_ids)
    if outcome is not None:
        svc.dispatch_owed(outcome.owed)
    flash(ngettext("%(num)s invitation sent. The game starts when every seat has accepted.",
                   "%(num)s invitations sent. The game starts when every seat has accepted.",
                   len(mail_ids)), "ok")
    return redirect(url_for("organiser.game", pending_id=pending_id), 303)


@bp.get("/games/<pending_id>")
@sessions.signed_in_required
def game(pending_id: str, error: str | None = None):
    svc = services()
    now = svc.clock()
    with svc.db.reading() as session:
        pending = invitations.own_pending(session, g.account, pending_id)
        rows = [(i, invitations.state_of(i, now)) for i in invitations.invitations_of(session, pending_id)]
        free = invitations.free_seats(session, pending, now)
        channel = organiser_channel(session, pending.game_id)
    return render_template("organiser/game.html", pending=pending, rows=rows, free=free,
                           summary=mailer.game_summary(pending), account=g.account, error=error,
                           **channel)


@bp.post("/games/<pending_id>/invitations/<int:invitation_id>/replace")
@sessions.signed_in_required
@own_limit(CREATE_LIMIT)
def replace(pending_id: str, invitation_id: int):
    svc = services()
    try:
        with svc.db.unit_of_work() as session:
            organiser = session.get(AccountRow, g.account.id)
            mail_id = invitations.replace(session, svc.settings, organiser, pending_id,
                                          invitation_id, request.form.get("name", ""),
                                          request.form.get("email", ""), svc.clock())
    except InvitationError as error:
        if error.status != 400:
            raise
        # a name or an address refused: the invitations again, with the reason above them
        return game(pending_id, error=gettext("%(error)s. Nothing was changed.",
                                              error=told(error))), 400
    mailer.dispatch(svc, [mail_id])
    flash(gettext("Invitation sent to the new player; the old invitation link no longer works."), "ok")
    return redirect(url_for("organiser.game", pending_id=pending_id), 303)


@bp.post("/games/<pending_id>/cancel")
@sessions.signed_in_required
def cancel(pending_id: str):
    svc = services()
    with svc.db.unit_of_work() as session:
        organiser = session.get(AccountRow, g.account.id)
        invitations.cancel(session, organiser, pending_id, svc.clock())
    flash(gettext("The game was cancelled; open invitation links no longer work."), "ok")
    return redirect(url_for("organiser.home"), 303)


@bp.post("/games/<pending_id>/start")
@sessions.signed_in_required
def start_with_accepted(pending_id: str):
    """Start the game now with the players who have accepted (409 when too few), the empty
    seats filled with bots of the level the form names (``bots``; none by default)."""
    svc = services()
    with svc.db.unit_of_work() as session:
        organiser = session.get(AccountRow, g.account.id)
        outcome = invitations.start_with_accepted(session, organiser, pending_id, svc.clock(),
                                                  svc.settings.mail_domain,
                                                  bots=request.form.get("bots"))
    svc.dispatch_owed(outcome.owed)
    flash(gettext("The game has started with the players who accepted."), "ok")
    return redirect(url_for("organiser.game", pending_id=pending_id), 303)


@bp.post("/games/<pending_id>/admin")
@sessions.signed_in_required
def open_admin(pending_id: str):
    """The organiser's way into /admin for a started game: a POST (it logs the admin session
    in), allowed to the account whose magic-link admin row has the game."""
    svc = services()
    with svc.db.reading() as session:
        pending = invitations.own_pending(session, g.account, pending_id)
        if pending.game_id is None:
            raise InvitationError(409, N_("This game has not started yet"))
        admin_row = admin_link.magic_link_admin(session, g.account.email)
        account = session.get(AccountRow, g.account.id)
    target = f"/admin/games/{pending.game_id}"
    if admin_row is None:  # an admin with a password logs in with it
        return redirect(url_for("admin.login", next=target), 303)
    admin_link.log_in_admin(admin_row)  # starts a fresh session ...
    sessions.log_in(account)            # ... in which the organiser stays signed in
    return redirect(target, 303)


@bp.app_template_filter("hours")
def _hours(value) -> str:
    return mailer.hours_text(float(value))
