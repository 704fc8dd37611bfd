"""The admin pages under /admin.

Access: a visitor who is not logged in is redirected to the login page (every page, every
form); a logged-in admin who is not an admin of the game asked for gets 403.  Every form is a
CSRF-protected POST (Flask-WTF's CSRFProtect covers this blueprint); a GET changes nothing.
Bad input is a 4xx page and changes nothing; a done command redirects (303) to the game.
One exception to "a GET changes nothing": a site admin's read of what a running game keeps
from its players (a seat's view, every move's content, the export) writes its trace
(``leave_trace``) -- never to the game itself, its chain or its state."""
from __future__ import annotations

import json
from functools import wraps
from urllib.parse import urlparse

from flask import (Blueprint, Response, abort, flash, g, redirect, render_template, request,
                   url_for)
from flask_babel import gettext as _
from werkzeug.exceptions import NotFound as HTTPNotFound

from engine import GAMES, IllegalAction
from engine.text import phrase, term
from service.store import fairness
from service.mail import mailer
from service.web import sessions
from service.application import admin_auth as auth
from service.application import admin_link
from service.application import admin_commands as commands
from service.application import rollback_consent
from service.application import seat_offers
from service.view.audit import audit, described, shows_secrets
from service.web.extensions import own_limit, services
from service.web.errors import told
from service.web import read_traces
from service.store.loading import Loaded, NotFound, load
from service.store import privileged_reads
from service.store.organisers import organiser_of
from service.store.game_lists import admin_games
from service.store.seats import game_seats
from service.store.mail_status import mail_status
from service.view.presenter import seat_context
from service.store.events import Conflict
from service.core.validation import BadInput, json_document, whole_number

bp = Blueprint("admin", __name__, url_prefix="/admin")

LOGIN_LIMIT = "5 per minute"
STATUSES = ("active", "paused", "finished", "abandoned")
LIST_LIMIT = 200


# --- access ------------------------------------------------------------------------------------

@bp.before_request
def _who() -> None:
    with services().db.reading() as session:
        g.admin = auth.from_cookie(session)


@bp.context_processor
def _admin_context() -> dict:
    return {"admin_user": g.get("admin")}


def login_required(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        if g.get("admin") is None:
            return _not_logged_in()
        return view(*args, **kwargs)
    return wrapper


def _signed_in_by_mail():
    """(the account this cookie signs in by mail, or None; its magic-link admin row, or None)."""
    with services().db.reading() as session:
        account = sessions.current(session)
        row = admin_link.magic_link_admin(session, account.email) if account is not None else None
    return account, row


def _not_logged_in():
    """A visitor is sent to log in.  Someone signed in by mail is an organiser, whose account
    has no password: the login form would be of no use to them, so they are told what the
    admin pages are for, and offered the admin pages of the games they organise, if any."""
    here = request.full_path.rstrip("?")
    account, row = _signed_in_by_mail()
    if account is None:
        return redirect(url_for("admin.login", next=here))
    return render_template("admin/not_an_admin.html", may_enter=row is not None,
                           next=here if request.method == "GET" else ""), 200 if row else 403


def game_admin_required(view):
    @wraps(view)
    @login_required
    def wrapper(game_id: str, *args, **kwargs):
        if not g.admin.may_admin(game_id):
            abort(403)
        return view(game_id, *args, **kwargs)
    return wrapper


def site_admin_required(view):
    @wraps(view)
    @login_required
    def wrapper(*args, **kwargs):
        if not g.admin.is_site_admin:
            abort(403)
        return view(*args, **kwargs)
    return wrapper


def outside_the_game(view):
    """A player first: an admin whose address holds a seat of this game is refused
    (``auth.PlayerFirst``, 403) -- whatever their other rights."""
    @wraps(view)
    def wrapper(game_id: str, *args, **kwargs):
        with services().db.reading() as session:
            g.admin.check_outside(game_seats(session, game_id))
        return view(game_id, *args, **kwargs)
    return wrapper


def _page_error(status: int, title: str, message: str):
    """The error page; ``title`` and ``message`` are already in the page's language (the
    template's ``tr`` leaves them as they are)."""
    return render_template("pages/error.html", title=title, message=message), status


@bp.errorhandler(403)
def _forbidden(_error):
    return _page_error(403, _("Not allowed"), _("You are not an admin of this game."))


@bp.errorhandler(404)
def _missing(error):
    message = error.description  # a view's own reason, in the page's language
    if message == HTTPNotFound.description:  # Werkzeug's: an unknown address
        message = _("There is no page at this address.")
    return _page_error(404, _("Not found"), message)


@bp.errorhandler(auth.PlayerFirst)
def _player_first(error):
    return _page_error(403, _("Not allowed"), told(error))


@bp.errorhandler(NotFound)
def _no_game(error):
    return _page_error(404, _("No such game"), told(error))


@bp.errorhandler(IllegalAction)
@bp.errorhandler(BadInput)
def _illegal(error):  # the engine's or a command's message, in the page's language
    return _page_error(400, _("Not done"), _("%(error)s. Nothing was changed.", error=told(error)))


@bp.errorhandler(Conflict)
def _conflict(error):
    return _page_error(409, _("Not done"), _("%(error)s. Nothing was changed.", error=told(error)))


@bp.errorhandler(429)
def _too_many(error):
    return _page_error(429, _("Too many attempts"),
                       _("Too many login attempts (%(limit)s); wait a minute.", limit=error.description))


# --- login -------------------------------------------------------------------------------------

def _safe_next(target: str | None) -> str:
    """Only a path on this site: never an open redirect to another host."""
    if target and target.startswith("/") and not target.startswith("//") and not urlparse(target).netloc:
        return target
    return url_for("admin.dashboard")


@bp.route("/login", methods=["GET", "POST"])
@own_limit(LOGIN_LIMIT, methods=["POST"])
def login():
    if request.method == "GET":
        return render_template("admin/login.html", next=request.args.get("next", ""))
    svc = services()
    with svc.db.reading() as session:
        row = auth.authenticate(session, request.form.get("email", ""),
                                request.form.get("password", ""))
    if row is None:
        return render_template("admin/login.html", next=request.form.get("next", ""),
                               error=_("Wrong email or password.")), 401
    auth.log_in(row)
    return redirect(_safe_next(request.form.get("next")), 303)


@bp.post("/enter")
def enter():
    """An organiser signed in by mail opens the admin pages of the games they organise: a POST,
    since it logs the admin session in (as the organiser's game page does)."""
    account, row = _signed_in_by_mail()
    if row is None:
        return redirect(url_for("admin.login"))
    admin_link.log_in_admin(row)  # a fresh session ...
    sessions.log_in(account)      # ... in which the organiser stays signed in
    return redirect(_safe_next(request.form.get("next")), 303)


@bp.post("/logout")
def logout():
    """Ends the session on the server -- the admin login and the organiser's sign-in the same
    cookie may carry: a saved copy of the cookie opens nothing afterwards."""
    with services().db.unit_of_work() as session:
        sessions.sign_out(session)
    return redirect(url_for("admin.login"), 303)


def leave_trace(head: Loaded, what: str, seat: int | None = None, seq: int | None = None) -> None:
    """The signed-in admin's privileged read of the game ``head`` (``read_traces``)."""
    read_traces.leave_trace(head, g.admin.actor, what, seat=seat, seq=seq)


# --- dashboard and game page -------------------------------------------------------------------

@bp.get("/")
@login_required
def dashboard():
    svc = services()
    status = request.args.get("status", "")
    game = request.args.get("game", "")
    query = request.args.get("q", "").strip()
    rows = []
    with svc.db.reading() as session:
        games = admin_games(session, auth.visible_ids(g.admin), LIST_LIMIT,
                            status=status if status in STATUSES else "",
                            game=game if game in GAMES else "", id_prefix=query)
        for row in games:
            loaded = load(session, row.id)
            to_act = loaded.game.to_act(loaded.state) if row.status == "active" else []
            rows.append({"row": row, "title": loaded.game.title,
                         "players": [s.name for s in loaded.seats],
                         "to_act": [loaded.seats[s].name for s in to_act]})
    return render_template("admin/dashboard.html", rows=rows, statuses=STATUSES,
                           games=list(GAMES), titles={n: GAMES[n].title for n in GAMES}, status=status, game=game, q=query,
                           limit=LIST_LIMIT)



@bp.get("/games/<game_id>")
@game_admin_required
def game_page(game_id: str):
    svc = services()
    with svc.db.reading() as session:
        loaded = load(session, game_id)
        mail = mail_status(session, game_id)
        offers = seat_offers.open_offers(session, game_id, svc.clock())
        admins = auth.actor_addresses(session) if g.admin.seat_in(loaded.seats) is None else None
        organiser = organiser_of(session, game_id)
    may_see_seats = g.admin.may_see_seats_of(loaded.seats)  # a player first: never in their game
    if may_see_seats:  # the log names every move's content
        leave_trace(loaded, privileged_reads.LOG)
    entries, report = audit(loaded, site_admin=may_see_seats, admins=admins, organiser=organiser)
    to_act = loaded.game.to_act(loaded.state) if loaded.row.status == "active" else []
    reveal = shows_secrets(loaded, may_see_seats)
    says = [described(loaded, i, reveal) for i in range(len(entries))]
    return render_template("admin/game.html", loaded=loaded, entries=entries, report=report,
                           mail=mail, to_act=to_act, title=loaded.game.title, says=says,
                           may_see_seats=may_see_seats, offers=offers, seat_in=g.admin.seat_in(loaded.seats),
                           reveal=reveal, seed_revealed=fairness.revealed(loaded.events),
                           to_act_names=[loaded.seats[s].name for s in to_act],
                           outcome=loaded.game.outcome(loaded.state))


@bp.get("/games/<game_id>/at/<int:seq>")
@game_admin_required
def time_travel(game_id: str, seq: int):
    """The game as it was right after event ``seq``, as a seat (site admins who do not play
    in the game only) or the public sees it, in the players' own rendering -- without their
    secret links."""
    svc = services()
    seat_arg = request.args.get("seat", "")
    seat = None
    with svc.db.reading() as session:
        head = load(session, game_id)
        if not 1 <= seq <= head.seq:
            abort(404, _("step must be from 1 to %(head)s", head=head.seq))
        if seat_arg != "":
            if not g.admin.may_see_seats:
                abort(403)
            g.admin.check_outside(head.seats)  # a player first
            seat = whole_number(seat_arg, "seat")
            if seat >= len(head.seats):
                abort(404, _("no seat %(seat)s", seat=repr(seat_arg)))
        loaded = load(session, game_id, upto=seq)
    if seat is not None:
        leave_trace(head, privileged_reads.SEAT_VIEW, seat=seat, seq=seq)
    context = seat_context(svc.settings, loaded, seat)
    context.update(actions=[], play_url=None, secret=None)
    event = loaded.head
    return render_template("admin/time_travel.html", head_seq=head.seq, event=event,
                           seats=head.seats, may_see_seats=g.admin.may_see_seats_of(head.seats),
                           **context)


@bp.get("/games/<game_id>/export")
@site_admin_required  # the export holds the seed, which is the whole hidden future
@outside_the_game
def export(game_id: str):
    with services().db.reading() as session:
        data = commands.export_game(session, game_id)
        head = load(session, game_id)
    leave_trace(head, privileged_reads.EXPORT)
    return Response(json.dumps(data, indent=1, ensure_ascii=False), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="chasqui-{game_id}.json"'})


@bp.post("/import")
@site_admin_required
def import_game():
    upload = request.files.get("file")
    raw = upload.read() if upload else request.form.get("data", "").encode()
    try:
        data = json_document(raw or b"null")
    except BadInput:  # not JSON, or nested or sized beyond any export
        raise IllegalAction(phrase("the file is not JSON")) from None
    svc = services()
    with svc.db.unit_of_work() as session:
        game_id = commands.import_game(session, data, svc.clock(), g.admin.actor)
    flash(_("Imported game %(game)s; its hash chain verifies.", game=game_id), "ok")
    return redirect(url_for("admin.game_page", game_id=game_id), 303)


# --- commands ----------------------------------------------------------------------------------

def _form_int(name: str, required: bool = True, what=None) -> int | None:
    """The form's field ``name`` as a whole number; a refusal calls it ``what`` (the words
    the form's label uses) when the field's name is no word an admin reads."""
    value = request.form.get(name, "").strip()
    if not value and not required:
        return None
    return whole_number(value, what or name)


def _run(game_id: str, command, done: str, **kwargs):
    svc = services()
    with svc.db.unit_of_work() as session:
        outcome = command(session, game_id, now=svc.clock(), domain=svc.settings.mail_domain,
                          **kwargs)
    svc.dispatch_owed(outcome.owed)
    flash(done(outcome) if callable(done) else done, "ok")
    return redirect(url_for("admin.game_page", game_id=game_id), 303)


@bp.post("/games/<game_id>/rollback")
@game_admin_required
@outside_the_game
def rollback(game_id: str):
    to_seq = _form_int("to_seq", what=term("the step to go back to"))
    return _run(game_id, rollback_consent.rollback, lambda outcome: _(
                    "Proposed going back to step %(seq)s of the record: the moves it would take "
                    "back showed something, so it happens once every player agrees by the link "
                    "they were mailed.", seq=to_seq) if rollback_consent.proposed(outcome) else _(
                    "Rolled back to step %(seq)s of the record; every player was mailed.",
                    seq=to_seq),
                to_seq=to_seq, reason=request.form.get("reason", ""), actor=g.admin.actor,
                expected_seq=_form_int("seq", required=False))


@bp.post("/games/<game_id>/pause")
@game_admin_required
def pause(game_id: str):
    return _run(game_id, commands.pause, _("Paused."), reason=request.form.get("reason", ""),
                actor=g.admin.actor, expected_seq=_form_int("seq", required=False))


@bp.post("/games/<game_id>/resume")
@game_admin_required
def resume(game_id: str):
    return _run(game_id, commands.resume, _("Resumed."), actor=g.admin.actor,
                expected_seq=_form_int("seq", required=False))


@bp.post("/games/<game_id>/abandon")
@game_admin_required
def abandon(game_id: str):
    return _run(game_id, commands.abandon, _("Abandoned."), reason=request.form.get("reason", ""),
                actor=g.admin.actor, expected_seq=_form_int("seq", required=False))


@bp.post("/games/<game_id>/seats/<int:seat>/replace")
@game_admin_required
def replace_seat(game_id: str, seat: int):
    """Offers the seat: the game changes only when the newcomer accepts (``seat_offers``)."""
    svc = services()
    with svc.db.unit_of_work() as session:
        offered = commands.replace_seat(
            session, game_id, seat, request.form.get("name", ""), request.form.get("email", ""),
            g.admin, svc.clock(), svc.settings.mail_domain,
            expected_seq=_form_int("seq", required=False))
        name, address = offered.offer.name, offered.offer.email
        player = offered.offer.previous_name
    mailer.dispatch(svc, offered.mail_ids)
    flash(_("%(player)s's seat was offered to %(name)s (%(address)s); the seat changes when "
            "they accept. Until then %(player)s keeps it and was told.", player=player,
            name=name, address=address), "ok")
    return redirect(url_for("admin.game_page", game_id=game_id), 303)


@bp.post("/games/<game_id>/seats/<int:seat>/bot")
@game_admin_required
def bot_seat(game_id: str, seat: int):
    level = request.form.get("level")
    done = (_("Seat %(seat)s is now played by the strong bot.", seat=seat + 1)
            if level == "strong" else _("Seat %(seat)s is now played by the easy bot.", seat=seat + 1))
    return _run(game_id, commands.bot_seat, done, seat=seat, level=level,
                admin=g.admin, expected_seq=_form_int("seq", required=False))
