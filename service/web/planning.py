"""Multi-step turns as one plan: pick the steps, see the result, confirm once.

Some games' turns are sequences of small engine actions (market trades, several
placements, several sacrifices, each ending with "done"); mail shows them as one link per
step.  On the page a player can instead *plan* the steps: every GET shows the state after the
steps chosen so far (computed on a copy, nothing stored), and one CSRF-protected POST submits
the whole sequence in a single transaction — all steps or none.

A plan never looks past chance or hidden information: a step that changes the engine's
``epoch`` (a draw, a reveal) may only be the last step, and its result is not previewed.

Standing orders are set here too, for a game whose presentation offers them
(``service.view.presentations``): an action the engine accepts from a seat at any time but never
lists, recorded as that seat's MoveMade like any other move."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext

from engine import IllegalAction, clone
from engine.core import without_label
from engine.text import phrase, term
from service.store import events as store
from service.web.extensions import services
from service.web.errors import told
from service.application.games import Owed, StaleMove, queue_mail, record_move, submit_move
from service.store.loading import load
from service.application.moves import load_for_secret, page_wait, resolve_seat
from service.view.presentations import presentation
from service.view.presenter import seat_context
from service.core.validation import BadInput, json_document, whole_number

bp = Blueprint("planning", __name__, url_prefix="/play")

MAX_STEPS = 40


def parse_steps(text: str) -> list[int]:
    if not text:
        return []
    try:
        steps = [whole_number(part, "a step") for part in text.split(".")]
    except BadInput:
        raise IllegalAction(phrase("the plan in this link is malformed")) from None
    if len(steps) > MAX_STEPS:
        raise IllegalAction(phrase("the plan in this link is malformed"))
    return steps


def preview(game, state: dict, seat: int, steps: list[int]) -> tuple[dict, list[dict], bool]:
    """Apply the chosen steps to a copy; returns (state to show, the actions, closed).

    ``closed`` is true when the plan can take no further step: the seat's turn ended, or the
    last step draws or reveals something (then the state shown is the one before it)."""
    work, actions = clone(state), []
    for index in steps:
        if seat not in game.to_act(work):
            raise IllegalAction(phrase("the plan goes on after your turn ends"))
        legal = game.legal_actions(work, seat)
        if index >= len(legal):
            raise IllegalAction(phrase("the plan in this link no longer fits the game"))
        before_epoch = work.get("epoch")
        candidate = clone(work)
        game.apply_in_place(candidate, seat, without_label(legal[index]))
        actions.append(legal[index])
        if candidate.get("epoch") != before_epoch:
            if len(actions) != len(steps):
                raise IllegalAction(phrase(
                    "a step that draws or reveals something must be the last"))
            return work, actions, True
        work = candidate
    return work, actions, seat not in game.to_act(work)


@bp.get("/<secret>/plan")
def plan(secret: str):
    svc = services()
    with svc.db.reading() as session:
        loaded, seat = load_for_secret(session, svc, secret)
    context = seat_context(svc.settings, loaded, seat)
    try:
        steps = parse_steps(request.args.get("steps", ""))
        if seat not in loaded.game.to_act(loaded.state) or loaded.row.status != "active":
            raise IllegalAction(phrase("it is not your turn to act"))
        shown, actions, closed = preview(loaded.game, loaded.state, seat, steps)
    except IllegalAction as error:
        flash(gettext("Not done: %(error)s", error=told(error)), "error")
        return redirect(url_for("play.page", secret=secret), 303)
    context.update(
        view=loaded.game.view(shown, seat), planned=actions, steps=steps, closed=closed,
        revealing=closed and bool(steps) and seat in loaded.game.to_act(shown),
        next_actions=[] if closed else loaded.game.legal_actions(shown, seat),
        step_url=lambda i: url_for("planning.plan", secret=secret,
                                   steps=".".join(map(str, steps + [i]))))
    return render_template("pages/plan.html", **context)


@bp.post("/<secret>/plan")
def confirm(secret: str):
    svc = services()
    try:
        actions = json_document(request.form.get("actions", ""), "the plan")  # bounded
        seq = whole_number(request.form.get("seq", ""), "seq")
        if not isinstance(actions, list) or not actions or len(actions) > MAX_STEPS:
            raise ValueError
    except ValueError:
        flash(gettext("Not done: the plan was incomplete; start it again"), "error")
        return redirect(url_for("play.page", secret=secret), 303)
    owed = Owed()
    try:
        with svc.db.unit_of_work() as session:
            game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
            for action in actions:
                outcome = submit_move(session, game_id, seat, action, seq, f"seat:{seat}",
                                      svc.clock(), svc.settings.mail_domain,
                                      on_page=page_wait(svc))
                seq, owed = outcome.seq, owed + outcome.owed
    except StaleMove as error:
        flash(told(error), "warning")
    except (IllegalAction, store.Conflict) as error:
        flash(gettext("Not done (no step was made): %(error)s", error=told(error)), "error")
    else:
        svc.dispatch_owed(owed)
        flash(ngettext("Done: %(num)s step in one go", "Done: %(num)s steps in one go",
                       len(actions)), "ok")
    return redirect(url_for("play.page", secret=secret), 303)


def standing_orders(game_name: str, form) -> dict[str, str]:
    """The answers ``form`` gives to each of the game's standing orders (the first answer, "ask",
    when left out); refused unless each is one the game offers."""
    offered = presentation(game_name).standing_choices
    orders = {order.key: form.get(order.key, order.values[0]) for order in offered}
    if any(orders[order.key] not in order.values for order in offered):
        raise IllegalAction(phrase("choose one of the offered answers for each order"))
    return orders


@bp.post("/<secret>/standing")
def standing(secret: str):
    """A game's standing orders: what the engine answers for this seat without asking."""
    svc = services()
    try:
        with svc.db.unit_of_work() as session:
            game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
            loaded = load(session, game_id)
            orders = standing_orders(loaded.game.name, request.form)
            if loaded.row.status != "active":
                raise IllegalAction(phrase("the game is {status}", status=term(loaded.row.status)))
            if loaded.game.standing_orders(loaded.state, seat) is None:
                raise IllegalAction(phrase("this game has no standing orders"))
            chosen = loaded.game.find_legal_action(
                loaded.state, seat, {"type": "standing_orders", "orders": orders})
            record_move(session, loaded, "MoveMade", seat, chosen, f"seat:{seat}", svc.clock(),
                        seq_seen=loaded.seq)
            owed = queue_mail(session, loaded, seat, svc.clock(), svc.settings.mail_domain,
                              on_page=page_wait(svc))
        svc.dispatch_owed(owed)
    except (IllegalAction, store.Conflict) as error:
        flash(gettext("Not done: %(error)s", error=told(error)), "error")
    else:
        flash(gettext("Standing orders saved."), "ok")
    return redirect(url_for("play.page", secret=secret), 303)
