"""No-login pages reached from every mail.

* ``/me/<token>`` — "my games": every game of the address (token = the address signed with
  itsdangerous), longest waiting first, a "next game" button, and the mail preference per game
  (every turn / daily digest / off) and language.  Changes are CSRF-protected POSTs.
* ``/unsubscribe/<token>`` — RFC 8058 one-click unsubscribe.  GET shows a confirm page and
  changes nothing (mail scanners follow links); POST turns the mail off, authorised by the
  token alone (no login, no CSRF: mail clients POST ``List-Unsubscribe=One-Click`` without
  cookies), so its blueprint is CSRF-exempt."""
from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for

from service.store import preferences
from service.mail.digest import seat_games
from service.web.errors import told
from service.view.i18n import N_
from service.store.models import SeatRow
from service.store.preferences import BadToken
from service.core.tokens import make_secret
from service.core.validation import BadInput, whole_number
from service.core.language_codes import locale_for
from service.web.extensions import services

me = Blueprint("me", __name__, url_prefix="/me")
unsubscribe = Blueprint("unsubscribe", __name__, url_prefix="/unsubscribe")


def _svc():
    return services()


@me.errorhandler(BadToken)
@unsubscribe.errorhandler(BadToken)
def _bad_token(error):
    return render_template("pages/error.html", title="Link not valid", message=told(error)), 403


@me.get("/<token>")
def my_games(token: str):
    svc = _svc()
    address = preferences.read_address_token(svc.settings.secret_key, token)
    with svc.db.reading() as session:
        games = seat_games(session, address)
        stored = preferences.address_language(session, address)
    language = stored or preferences.DEFAULT_LANGUAGE
    if stored:  # else the page follows the browser (service.web.languages.select_page_locale)
        g.chasqui_language = stored
    for game in games:
        secret = make_secret(svc.settings.secret_key, game["game_id"], game["seat"], game["nonce"])
        game["play_url"] = url_for("play.page", secret=secret)
        del game["nonce"]
    waiting = [g for g in games if g["waiting"]]
    return render_template("pages/my_games.html", address=address, games=games, token=token,
                           next_game=waiting[0] if waiting else None, now=svc.clock(),
                           modes=preferences.MODES, languages=preferences.LANGUAGES,
                           language=language)


def _own_seat(session, address: str, game_id: str, seat: int) -> SeatRow:
    row = session.get(SeatRow, (game_id, seat))
    if row is None or preferences.normal_address(row.email) != address:
        abort(404)
    return row


@me.post("/<token>/mode")
def set_mode(token: str):
    svc = _svc()
    address = preferences.read_address_token(svc.settings.secret_key, token)
    mode = request.form.get("mode", "")
    try:
        seat = whole_number(request.form.get("seat", ""), "seat")
    except BadInput:
        abort(400)
    if mode not in preferences.MODES:
        abort(400)
    with svc.db.unit_of_work() as session:
        _own_seat(session, address, request.form.get("game_id", ""), seat)
        preferences.set_preference(session, request.form["game_id"], seat, svc.clock(), mode=mode)
    flash(N_("Saved."), "ok")  # translated where it is shown (tr): the page's language
    return redirect(url_for("me.my_games", token=token), 303)


@me.post("/<token>/language")
def set_language(token: str):
    svc = _svc()
    address = preferences.read_address_token(svc.settings.secret_key, token)
    language = locale_for(request.form.get("language", ""))
    if language not in preferences.LANGUAGES:
        abort(400)
    with svc.db.unit_of_work() as session:
        preferences.set_address_language(session, address, language, svc.clock())
    flash(N_("Saved."), "ok")  # shown (tr) in the language just chosen
    return redirect(url_for("me.my_games", token=token, lang=language), 303)


def _target(token: str):
    svc = _svc()
    game_id, seat, address = preferences.read_unsubscribe_token(svc.settings.secret_key, token)
    return svc, game_id, seat, address


@unsubscribe.get("/<token>")
def confirm(token: str):
    _svc_, game_id, _seat, address = _target(token)
    return render_template("pages/unsubscribe.html", token=token, address=address,
                           every_game=game_id == "*",
                           my_games_url=url_for("me.my_games", token=preferences.address_token(
                               _svc_.settings.secret_key, address)))


@unsubscribe.post("/<token>")
def one_click(token: str):
    """RFC 8058: the body is ``List-Unsubscribe=One-Click``; a form POST from the confirm
    page works the same.  Idempotent."""
    svc, game_id, seat, address = _target(token)
    with svc.db.unit_of_work() as session:
        if game_id == "*":
            for row in preferences.seats_of(session, address):
                preferences.set_preference(session, row.game_id, row.seat, svc.clock(), mode="off")
        else:
            row = session.get(SeatRow, (game_id, seat))
            if row is None or preferences.normal_address(row.email) != address:
                return render_template("pages/error.html", title="Link not valid",
                                       message="this seat now has another player"), 404
            preferences.set_preference(session, game_id, seat, svc.clock(), mode="off")
    return render_template("pages/unsubscribe_done.html", address=address,
                           every_game=game_id == "*",
                           my_games_url=url_for("me.my_games", token=preferences.address_token(
                               svc.settings.secret_key, address)))


def init_app(app, csrf) -> None:
    app.register_blueprint(me)
    app.register_blueprint(unsubscribe)
    csrf.exempt(unsubscribe)  # authorised by the signed token; mail clients send no cookie
    app.context_processor(_html_lang)


def _html_lang() -> dict:
    """``<html lang>`` of the page: ``en``, ``zh-Hans`` or ``ja``."""
    from flask_babel import get_locale

    from service.view.i18n import CONTENT_LANGUAGE

    def html_lang() -> str:
        locale = get_locale()
        return CONTENT_LANGUAGE.get(str(locale), "en") if locale else "en"
    return {"html_lang": _Lazy(html_lang)}


class _Lazy:
    """Renders as the function's answer, computed only if a template uses it."""

    def __init__(self, fn):
        self.fn = fn

    def __str__(self) -> str:
        return self.fn()

    def __html__(self) -> str:
        return self.fn()
