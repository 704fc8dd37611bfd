"""The admin JSON API under /admin/api.  Every refusal is JSON with a 4xx; a caller who is not
an admin of the game gets 403 (never a redirect, and unknown games are 403 too for them).

Credentials: the operator's ``CHASQUI_ADMIN_TOKEN`` as ``Authorization: Bearer …`` (a site
admin; no cookie, so no CSRF risk), or the admin's login session cookie -- then a POST must
carry the CSRF token (``X-CSRFToken`` header), because the blueprint is exempt from the
automatic form check only so that token callers need none."""
from __future__ import annotations

from flask import Blueprint, g, jsonify, request
from flask_wtf.csrf import CSRFError

from engine import GAMES
from service.mail import mailer
from service.application import admin_auth as auth
from service.application import admin_commands as commands
from service.application import rollback_consent
from service.application.games import level_of
from service.view.audit import audit
from service.store import privileged_reads
from service.web.admin_pages import STATUSES, LIST_LIMIT, leave_trace, mail_status, outside_the_game
from service.web.extensions import csrf, services
from service.web.errors import json_errors
from service.store.loading import load
from service.core.validation import whole_number
from service.store.organisers import organiser_of
from service.store.game_lists import admin_games

bp = Blueprint("admin_api", __name__, url_prefix="/admin/api")


class Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@bp.before_request
def _authenticate() -> None:
    svc = services()
    admin = auth.from_bearer(svc.settings.admin_token)
    if admin is None:
        with svc.db.reading() as session:
            admin = auth.from_cookie(session)
        if admin is not None and request.method not in ("GET", "HEAD", "OPTIONS"):
            csrf.protect()  # a cookie rides along with any cross-site request: check CSRF
    if admin is None:
        raise Refused(403, "admin login or admin token required")
    g.admin = admin
    game_id = (request.view_args or {}).get("game_id")
    if game_id is not None and not admin.may_admin(game_id):
        raise Refused(403, "you are not an admin of this game")


@bp.errorhandler(Refused)
def _refused(error: Refused):
    return jsonify(error=str(error)), error.status


@bp.errorhandler(auth.PlayerFirst)
def _player_first(error):
    return jsonify(error=str(error)), 403


@bp.errorhandler(CSRFError)
def _csrf(error):
    return jsonify(error=f"CSRF check failed: {error.description}"), 400


json_errors(bp)


def _site_admin() -> None:
    if not g.admin.is_site_admin:
        raise Refused(403, "only a site admin may do this")


def _body() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise Refused(400, "the body must be a JSON object (Content-Type: application/json)")
    return data


@bp.get("/games")
def games():
    status, game = request.args.get("status", ""), request.args.get("game", "")
    svc = services()
    with svc.db.reading() as session:
        rows = admin_games(session, auth.visible_ids(g.admin), LIST_LIMIT,
                           status if status in STATUSES else "", game if game in GAMES else "")
        result = []
        for row in rows:
            loaded = load(session, row.id)
            result.append({
                "id": row.id, "game": row.game, "status": row.status, "seq": row.head_seq,
                "waiting_since": row.updated_at.isoformat(),
                "to_act": loaded.game.to_act(loaded.state) if row.status == "active" else []})
    return jsonify(games=result)


@bp.get("/games/<game_id>")
def game(game_id: str):
    svc = services()
    with svc.db.reading() as session:
        loaded = load(session, game_id)
        mail = mail_status(session, game_id)
        admins = auth.actor_addresses(session) if g.admin.seat_in(loaded.seats) is None else None
        organiser = organiser_of(session, game_id)
    site_admin = g.admin.may_see_seats_of(loaded.seats)
    if site_admin:  # the log names every move's content
        leave_trace(loaded, privileged_reads.LOG)
    entries, report = audit(loaded, site_admin=site_admin, admins=admins, organiser=organiser)
    return jsonify(
        id=game_id, game=loaded.game.name, status=loaded.row.status, seq=loaded.seq,
        to_act=loaded.game.to_act(loaded.state) if loaded.row.status == "active" else [],
        players=[{"seat": s.seat, "name": s.name, "email": s.email, "bot": s.bot,
                  "bot_level": level_of(s) if s.bot else None,
                  "mail": {"counts": mail.get(s.seat, {}).get("counts", {}),
                           "latest": [{"kind": r.kind, "seq": r.seq, "status": r.status,
                                       "attempts": r.attempts, "last_error": r.last_error}
                                      for r in mail.get(s.seat, {}).get("latest", [])]}}
                 for s in loaded.seats],
        chain={"ok": report.ok, "events": report.events, "broken_at": report.broken_at,
               "reason": report.reason},
        log=[e.as_json() for e in entries])


@bp.get("/games/<game_id>/at/<int:seq>")
def time_travel(game_id: str, seq: int):
    seat_arg = request.args.get("seat")
    svc = services()
    with svc.db.reading() as session:
        head = load(session, game_id)
        if not 1 <= seq <= head.seq:
            raise Refused(404, f"seq must be from 1 to {head.seq}")
        seat = None
        if seat_arg is not None:
            if not g.admin.may_see_seats:
                raise Refused(403, "only a site admin may see a seat's private view")
            g.admin.check_outside(head.seats)  # a player first
            seat = whole_number(seat_arg, "seat")
            if seat >= len(head.seats):
                raise Refused(404, f"no seat {seat_arg!r}")
        loaded = load(session, game_id, upto=seq)
    if seat is not None:
        leave_trace(head, privileged_reads.SEAT_VIEW, seat=seat, seq=seq)
    return jsonify(game_id=game_id, seq=seq, seat=seat, view=loaded.game.view(loaded.state, seat),
                   to_act=loaded.game.to_act(loaded.state))


@bp.get("/games/<game_id>/export")
@outside_the_game
def export(game_id: str):
    _site_admin()
    with services().db.reading() as session:
        data = commands.export_game(session, game_id)
        head = load(session, game_id)
    leave_trace(head, privileged_reads.EXPORT)
    return jsonify(data)


@bp.post("/games/import")
def import_game():
    _site_admin()
    data = _body()
    svc = services()
    with svc.db.unit_of_work() as session:
        game_id = commands.import_game(session, data, svc.clock(), g.admin.actor)
    return jsonify(id=game_id), 201


def _run(game_id: str, command, as_admin: bool = False, **kwargs):
    """``as_admin``: the command takes the admin (to check a seat's rights), not the actor."""
    svc = services()
    if as_admin:
        kwargs["admin"] = g.admin
    else:
        kwargs["actor"] = g.admin.actor
    with svc.db.unit_of_work() as session:
        outcome = command(session, game_id, now=svc.clock(), domain=svc.settings.mail_domain,
                          **kwargs)
    svc.dispatch_owed(outcome.owed)
    # a rollback that took back something shown is only proposed: the caller is told so
    proposed = {"proposed": True} if rollback_consent.proposed(outcome) else {}
    return jsonify(id=game_id, seq=outcome.seq, mailed=len(outcome.owed.mail), **proposed)


@bp.post("/games/<game_id>/rollback")
@outside_the_game
def rollback(game_id: str):
    data = _body()
    return _run(game_id, rollback_consent.rollback, to_seq=data.get("to_seq"),
                reason=data.get("reason"), expected_seq=data.get("seq"))


@bp.post("/games/<game_id>/pause")
def pause(game_id: str):
    data = _body()
    return _run(game_id, commands.pause, reason=data.get("reason", ""), expected_seq=data.get("seq"))


@bp.post("/games/<game_id>/resume")
def resume(game_id: str):
    data = _body()
    return _run(game_id, commands.resume, expected_seq=data.get("seq"))


@bp.post("/games/<game_id>/abandon")
def abandon(game_id: str):
    data = _body()
    return _run(game_id, commands.abandon, reason=data.get("reason"), expected_seq=data.get("seq"))


@bp.post("/games/<game_id>/seats/<int:seat>/replace")
def replace_seat(game_id: str, seat: int):
    """202: the seat is offered; the game changes only when the newcomer accepts."""
    data = _body()
    svc = services()
    with svc.db.unit_of_work() as session:
        offered = commands.replace_seat(session, game_id, seat, data.get("name"),
                                        data.get("email"), g.admin, svc.clock(),
                                        svc.settings.mail_domain, expected_seq=data.get("seq"))
        offer = {"id": offered.offer.id, "seat": seat, "name": offered.offer.name,
                 "email": offered.offer.email, "status": offered.offer.status,
                 "expires_at": offered.offer.expires_at.isoformat()}
    mailer.dispatch(svc, offered.mail_ids)
    return jsonify(id=game_id, seq=offered.seq, offer=offer, mailed=len(offered.mail_ids)), 202


@bp.post("/games/<game_id>/seats/<int:seat>/bot")
def bot_seat(game_id: str, seat: int):
    data = _body()
    return _run(game_id, commands.bot_seat, as_admin=True, seat=seat, level=data.get("level"),
                expected_seq=data.get("seq"))
