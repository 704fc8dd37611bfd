"""Feeds by link, for calendar apps and feed readers (no login, no cookie, never a write).

* ``GET /calendar/<token>.ics`` — the player's open deadlines in every game (iCalendar);
* ``GET /feeds/<token>.atom`` — the player's games' news (Atom);
* ``GET /watch/<token>/feed.atom`` — a game's public news, by its spectator token (Atom);
* ``POST /play/<secret>/calendar/new`` and ``/play/<secret>/feed/new`` — a new private link
  (CSRF-protected, from the play page): the old one stops working.

A private link that is forged, mistyped or replaced by a newer one is a 404, so nothing tells
whether a guessed link ever existed."""
from __future__ import annotations

import functools

from flask import Blueprint, Response, flash, redirect, render_template, url_for
from flask_babel import gettext

from engine.text import phrase
from service.application.feed_links import new_link
from service.store import preferences, private_feeds
from service.store.loading import NotFound
from service.view import feeds as news
from service.view.calendar import calendar
from service.view.i18n import page_language
from service.web.extensions import services
from service.web.spectate import watched

bp = Blueprint("feeds", __name__)

ATOM = "application/atom+xml; charset=utf-8"
ICALENDAR = "text/calendar; charset=utf-8"


def _owner(session, kind: str, token: str) -> str:
    address = private_feeds.owner_of(session, services().settings.secret_key, kind, token)
    if address is None:
        raise NotFound(phrase("this feed link is not valid (forged, mistyped or replaced by a new one)"))
    return address


def _language(session, address: str) -> str:
    """A calendar app or feed reader sends no useful language: the player's own choice."""
    return preferences.address_language(session, address) or preferences.DEFAULT_LANGUAGE


@bp.get("/calendar/<token>.ics")
def player_calendar(token: str):
    svc = services()
    with svc.db.reading() as session:
        address = _owner(session, "calendar", token)
        decisions = private_feeds.open_decisions(session, address)
        language = _language(session, address)
    return Response(calendar(svc.settings, decisions, language), content_type=ICALENDAR)


@bp.get("/feeds/<token>.atom")
def player_feed(token: str):
    svc = services()
    with svc.db.reading() as session:
        address = _owner(session, "feed", token)
        language = _language(session, address)
        games = news.loaded_games(session, address)
    feed = news.player_feed(svc.settings, games, address, language,
                            f"{svc.settings.base_url}/feeds/{token}.atom")
    return Response(render_template("feeds/atom.xml", **feed), content_type=ATOM)


@bp.get("/watch/<token>/feed.atom")
def game_feed(token: str):
    svc = services()
    feed = news.game_feed(svc.settings, watched(token), page_language(),
                          f"{svc.settings.base_url}/watch/{token}/feed.atom")
    return Response(render_template("feeds/atom.xml", **feed), content_type=ATOM)


@bp.post("/play/<secret>/<any(calendar, feed):kind>/new")
def renew(secret: str, kind: str):
    new_link(services(), secret, kind)
    flash(gettext("Done: a new calendar link; the old one no longer works.") if kind == "calendar"
          else gettext("Done: a new feed link; the old one no longer works."), "ok")
    return redirect(url_for("play.page", secret=secret, _anchor="private-feeds"), 303)


def links(session, seat) -> dict:
    """The play page's links to the seat's player's calendar and games feed (reads only)."""
    settings = services().settings
    token = functools.partial(private_feeds.link_token, session, settings.secret_key, seat)
    return {"calendar_url": f"{settings.base_url}/calendar/{token('calendar')}.ics",
            "player_feed_url": f"{settings.base_url}/feeds/{token('feed')}.atom"}
