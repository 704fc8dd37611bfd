"""A game's chat channel on its pages: the organiser adds, removes and lets players add
webhooks on their game's page (``/organise/games/<id>``); a seated player does so on the
play page when the organiser allows it.  Every change is a CSRF-protected POST; a refused
URL or format answers 400 and stores nothing.  The secret of a signed ("json") hook is shown
once, in the answer to the form that added it (``no-store``: no cache keeps it)."""
from __future__ import annotations

from flask import Blueprint, flash, g, make_response, redirect, render_template, request, url_for
from flask_babel import gettext

from engine import IllegalAction
from service.application import invitations, webhooks as channel
from service.application.moves import resolve_seat
from engine.text import phrase
from service.application.invitations import InvitationError
from service.mail.webhook_guard import UnsafeTarget
from service.store import webhooks as store
from service.store.loading import NotFound
from service.view.i18n import page_language
from service.web import sessions
from service.web.errors import told
from service.web.extensions import services

bp = Blueprint("channel", __name__)
REFUSED = (NotFound, IllegalAction, UnsafeTarget)  # answered 400; nothing was changed


def _refused(error):
    return render_template("pages/error.html", title=gettext("Not done"),
                           message=gettext("%(error)s. Nothing was changed.",
                                           error=told(error))), 400


def _added(secret: str | None, back: str):
    """The answer to an added hook: its secret, once, or back to the page."""
    if secret is None:
        flash(gettext("The webhook was added: the channel hears of each new turn."), "ok")
        return redirect(back, 303)
    response = make_response(render_template("pages/webhook_added.html", secret=secret,
                                             back=back))
    response.headers["Cache-Control"] = "no-store"
    return response


def _add(session, game_id: str, by: str):
    svc = services()
    return channel.add(session, svc.settings, game_id, request.form.get("style", ""),
                       request.form.get("url", "").strip(), request.form.get("talk") == "on",
                       page_language(), by, svc.clock())


def _started_game(session, pending_id: str) -> str:
    pending = invitations.own_pending(session, g.account, pending_id)
    if pending.game_id is None:
        raise IllegalAction(phrase("This game has not started yet"))
    return pending.game_id


@bp.errorhandler(InvitationError)
def _not_yours(error: InvitationError):
    return render_template("pages/error.html", title=gettext("Not done"),
                           message=told(error)), error.status


@bp.before_request
def _who() -> None:
    with services().db.reading() as session:
        g.account = sessions.current(session)


@bp.post("/organise/games/<pending_id>/webhooks")
@sessions.signed_in_required
def organiser_add(pending_id: str):
    back = url_for("organiser.game", pending_id=pending_id)
    try:
        with services().db.unit_of_work() as session:
            _hook, secret = _add(session, _started_game(session, pending_id), channel.ORGANISER)
    except REFUSED as error:
        return _refused(error)
    return _added(secret, back)


@bp.post("/organise/games/<pending_id>/webhooks/<int:hook_id>/remove")
@sessions.signed_in_required
def organiser_remove(pending_id: str, hook_id: int):
    return _organiser_change(
        pending_id, lambda session, game_id: channel.remove(session, game_id, hook_id,
                                                            channel.ORGANISER),
        gettext("The webhook was removed: nothing more is posted to it."))


@bp.post("/organise/games/<pending_id>/webhooks/players")
@sessions.signed_in_required
def organiser_policy(pending_id: str):
    allowed = request.form.get("players_may_add") == "on"
    return _organiser_change(
        pending_id, lambda session, game_id: store.set_players_may_add(
            session, game_id, allowed, services().clock()),
        gettext("Saved: who may add webhooks."))


def _organiser_change(pending_id: str, change, done: str):
    """``change(session, game id)`` of the organiser's started game, then back to its page."""
    try:
        with services().db.unit_of_work() as session:
            change(session, _started_game(session, pending_id))
    except REFUSED as error:
        return _refused(error)
    flash(done, "ok")
    return redirect(url_for("organiser.game", pending_id=pending_id), 303)


@bp.post("/play/<secret>/webhooks")
def seat_add(secret: str):
    svc = services()
    try:
        with svc.db.unit_of_work() as session:
            game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
            if not store.players_may_add(session, game_id):
                raise IllegalAction(phrase("Only the organiser adds this game's webhooks"))
            _hook, found = _add(session, game_id, channel.seat_actor(seat))
    except REFUSED as error:
        return _refused(error)
    return _added(found, url_for("play.page", secret=secret))


@bp.post("/play/<secret>/webhooks/<int:hook_id>/remove")
def seat_remove(secret: str, hook_id: int):
    svc = services()
    try:
        with svc.db.unit_of_work() as session:
            game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
            channel.remove(session, game_id, hook_id, channel.seat_actor(seat))
    except (NotFound, IllegalAction) as error:
        return _refused(error)
    flash(gettext("The webhook was removed: nothing more is posted to it."), "ok")
    return redirect(url_for("play.page", secret=secret), 303)


def seat_channel(session, game_id: str, seat: int) -> dict:
    """The play page's part: the hooks (hosts only) and whether this seat may add one."""
    allowed = store.players_may_add(session, game_id)
    return {"channel": {"allowed": allowed, "mine": channel.seat_actor(seat),
                        "hooks": channel.shown(session, game_id) if allowed else [],
                        "styles": store.STYLES}}


def organiser_channel(session, game_id: str | None) -> dict:
    if game_id is None:
        return {"channel": None}
    return {"channel": {"hooks": channel.shown(session, game_id), "styles": store.STYLES,
                        "players_may_add": store.players_may_add(session, game_id)}}
