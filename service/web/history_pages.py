"""The game's story and its check at once, for players and spectators.

* ``GET /play/<secret>/history`` and ``GET /watch/<token>/history`` — every event of the game,
  one step at a time (``?step=<n>``, from 1; the newest by default), with the board as the
  reader could see it right after that step (``service.view.story`` says who sees what;
  ``?as=<n>`` or ``?as=table`` picks whose view once the game is over).
* ``GET /play/<secret>/verify`` and ``GET /watch/<token>/verify`` — the ``/verify`` page with
  the verdict on this game's own record already computed: the finished game's mail and pages
  link here, so a player checks their game with one click (nothing is fetched from a URL).

Every route only reads: links, forms without JavaScript and GETs, so a mail scanner or a link
previewer following them changes nothing."""
from __future__ import annotations

from flask import Blueprint, render_template, request

from service.application.moves import load_for_secret
from service.core.validation import whole_number
from service.store import fairness
from service.store.loading import Loaded, load
from service.view.story import TABLE, story
from service.web import verify_pages
from service.web.extensions import services
from service.web.spectate import read_spectate_token, spectate_url

bp = Blueprint("history", __name__)


@bp.get("/play/<secret>/history")
def player_history(secret: str):
    svc = services()
    with svc.db.reading() as session:
        loaded, seat = load_for_secret(session, svc, secret)
        return _page(loaded, seat, f"{svc.settings.base_url}/play/{secret}")


@bp.get("/watch/<token>/history")
def spectator_history(token: str):
    svc = services()
    with svc.db.reading() as session:
        loaded = load(session, read_spectate_token(svc.settings.secret_key, token))
        return _page(loaded, None, spectate_url(loaded.row.id))


def _page(loaded: Loaded, seat: int | None, home: str):
    """The history page; read in the open session (older events are read on demand)."""
    count = len(loaded.events.all())
    at = _number(request.args.get("step"), "the step", 1, count, count)
    told = story(loaded, seat, at, _asked(len(loaded.seats)))
    return render_template("pages/history.html", story=told, count=count, home=home,
                           history_url=f"{home}/history", game_name=loaded.game.name,
                           title=loaded.game.title, view=told.view, seat=told.shown,
                           players=[s.name for s in loaded.seats], reader=seat,
                           asked=request.args.get("as"), table=TABLE)


def _asked(seats: int) -> int | str | None:
    """``?as=``: ``table``, or a seat counted from 1 as players count them; None if absent."""
    raw = request.args.get("as")
    if raw is None or raw == TABLE:
        return raw
    return _number(raw, "the player", 1, seats, None) - 1


def _number(raw, what: str, low: int, high: int, default):
    return default if raw is None else whole_number(raw, what, low, high)


@bp.get("/play/<secret>/verify")
def player_check(secret: str):
    svc = services()
    with svc.db.reading() as session:
        loaded, _seat = load_for_secret(session, svc, secret)
        return _checked(session, loaded)


@bp.get("/watch/<token>/verify")
def spectator_check(token: str):
    svc = services()
    with svc.db.reading() as session:
        loaded = load(session, read_spectate_token(svc.settings.secret_key, token))
        return _checked(session, loaded)


def _checked(session, loaded: Loaded):
    """The verdict on the game's record exactly as its download gives it (404 while the game
    runs: its record is published when it is over)."""
    record = verify_pages._record(session, loaded).get_data()  # the download's very bytes
    verdict = fairness.check_text(record, len(record) + 1)
    return render_template("pages/verify.html", verdict=verdict)
