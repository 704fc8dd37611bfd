"""Play pages.  A GET only ever shows; every change is a CSRF-protected POST, because mail
scanners and link previewers follow every link in a mail."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import get_translations, gettext

from engine import IllegalAction
from service.application import rematches, timeout_orders
from service.application.admin_commands import undo_label, undo_move
from service.mail import mailer
from service.store import notes, timekeeping
from service.store.imports import was_imported
from service.application.confirmations import named, own_move
from service.web.extensions import services
from service.web.feeds import links as feed_links
from service.web.channel import seat_channel
from service.web.errors import told
from service.application.games import is_fresh
from service.view import bot_levels
from service.view.i18n import page_language, said
from service.application.moves import load_for_secret, make_move, resolve_seat
from service.view.presenter import seat_context
from service.view.moments import since_sent
from service.view.privileged_reads import after_the_end
from service.view.chance import chance_context
from service.store.events import Conflict
from service.core.validation import json_document, whole_number

bp = Blueprint("play", __name__, url_prefix="/play")


@bp.get("/<secret>")
def page(secret: str):
    svc = services()
    with svc.db.reading() as session:
        loaded, seat = load_for_secret(session, svc, secret)
        zone = timekeeping.zone_of(session, loaded.row.id, seat)
        clocks = timekeeping.table(session, loaded, svc.clock(), zone, page_language())
        undo = undo_label(loaded, seat, session)  # no second replay
        own_notes = notes.read(session, loaded.seats[seat])  # this seat's holder's only
        private_links = feed_links(session, loaded.seats[seat])
        context_channel = seat_channel(session, loaded.row.id, seat)
        admin_reads = after_the_end(session, loaded)
        imported = was_imported(session, loaded.row.id)
        timeout_order = timeout_orders.in_force(session, loaded.row.id, seat)
        rematch = (rematches.standing(session, svc.settings, loaded.row.id, seat, svc.clock())
                   if loaded.row.status == "finished" else None)
    context = seat_context(svc.settings, loaded, seat)
    context["rematch"] = rematch
    context["privileged_reads"] = admin_reads
    context.update(chance_context(loaded.first.payload, seat, imported))
    context.update(private_links)
    context.update(context_channel)
    context["undo"], context["notes"] = undo, own_notes
    context["notes_limit"] = notes.MAX_NOTES
    context["clocks"], context["my_zone"] = clocks, zone
    context["timeout_order"] = timeout_order
    context["table_rule"] = mailer.timeout_rule(timekeeping.clock_of(loaded.first.payload))
    context["timeout_order_bots"] = bot_levels.levels_named()
    return render_template("pages/play.html", **context)


@bp.get("/<secret>/a/<int:seq>/<int:index>")
def confirm(secret: str, seq: int, index: int):
    """The target of a mail's action link: names the action, changes nothing.  The link
    stays good while the seat's decision is unchanged (see ``games.is_fresh``)."""
    svc = services()
    with svc.db.reading() as session:
        loaded, seat = load_for_secret(session, svc, secret)
    context = seat_context(svc.settings, loaded, seat)
    if not is_fresh(loaded, seat, seq):  # a seq the game never had is no "moved on"
        foreign = not 0 < seq <= loaded.seq
        return render_template("pages/moved_on.html", foreign=foreign,
                               since=None if foreign else since_sent(loaded, seat, seq),
                               **context), 409
    context["seq"] = seq
    if index >= len(context["actions"]):
        return render_template("pages/error.html", title="Not available",
                               message="that action is not available now"), 404
    return render_template("pages/confirm.html", chosen=context["actions"][index], **context)


@bp.post("/<secret>/move")
def move(secret: str):
    svc = services()
    try:
        action = json_document(request.form.get("action", ""), "the action")  # bounded
        seq = whole_number(request.form.get("seq", ""), "seq")
    except ValueError:
        return render_template("pages/error.html", title="Malformed move",
                               message="the form was incomplete; go back and try again"), 400
    try:
        outcome = make_move(svc, secret, action, seq, on_page=True)
    except Conflict as error:  # StaleMove too
        flash(told(error), "warning")
        return redirect(url_for("play.page", secret=secret), 303)
    except IllegalAction as error:
        flash(gettext("Not done: %(error)s", error=told(error)), "error")
        return redirect(url_for("play.page", secret=secret), 303)
    # The player's own move, never the newest event (a bot may have chosen after it).
    move = named(own_move(outcome.loaded, outcome.seat)) if outcome.loaded is not None else None
    flash(gettext("Done: %(move)s", move=move_text(move)) if move
          else gettext("Done: your move was recorded"), "ok")
    return redirect(url_for("play.page", secret=secret), 303)


def move_text(move) -> str:
    """The move's phrase (or label) in the page's language, counts in their right form."""
    catalog = get_translations()
    return said(move, catalog.gettext, catalog.ngettext)


@bp.post("/<secret>/undo")
def undo(secret: str):
    """Take back one's own last move while nothing new became known: appends an
    ``Undone`` event; the move stays in the log, struck through."""
    svc = services()
    try:
        seq = whole_number(request.form.get("seq", ""), "seq")
    except ValueError:
        return render_template("pages/error.html", title="Malformed request",
                               message="the form was incomplete; go back and try again"), 400
    try:
        with svc.db.unit_of_work() as session:
            game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
            outcome = undo_move(session, game_id, seat, seq, svc.clock(), svc.settings.mail_domain)
    except Conflict as error:  # StaleMove too
        flash(told(error), "warning")
        return redirect(url_for("play.page", secret=secret), 303)
    except IllegalAction as error:
        flash(gettext("Not done: %(error)s", error=told(error)), "error")
        return redirect(url_for("play.page", secret=secret), 303)
    svc.dispatch_owed(outcome.owed)
    flash(gettext("Done: your move was taken back; choose again."), "ok")
    return redirect(url_for("play.page", secret=secret), 303)
