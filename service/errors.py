"""Bad input gets a clear answer and changes nothing: one place that says which answer.

Pages answer with the error page (registered on the app, so every blueprint that reads a
seat secret or a game id shares it); the JSON APIs answer ``{"error": ...}`` with the same
status codes (registered per blueprint, which Flask prefers over the app's handlers).

The error page shows its title and message in the page's language (issue 7): the titles
below, an unknown address (404) and a wrong method (405) are in the catalog.  An error's own
message reaches a reader through ``told``: its phrase (``error.say``: the engines' and the
accounts' errors carry one), else its English text when it is one of ``MESSAGES`` or matches
one of ``SHAPES`` (the service modules that raise them keep plain English strings, and
``str(error)`` stays English for the JSON API and the logs)."""
from __future__ import annotations

import re

from flask import Blueprint, Flask, jsonify, render_template

from engine import IllegalAction
from engine.text import phrase, term
from service.games import NotFound
from service.i18n import N_, page_language, translate
from service.store import Conflict
from service.tokens import BadSecret

STATUS = ((IllegalAction, 400), (BadSecret, 403), (NotFound, 404), (Conflict, 409))
PAGE_TITLES = {BadSecret: N_("Link not valid"), NotFound: N_("No such game")}
# Titles and messages of the HTTP errors that reach the app's handlers (unknown address,
# wrong method): Werkzeug's own texts are English.
HTTP_PAGES = {404: (N_("Not found"), N_("There is no page at this address.")),
              405: (N_("Not allowed"), N_("This address does not take this kind of request."))}
# The fixed messages of service errors that pages show (the error page, and the play page's
# flash after a stale or busy move); the ``tr`` filter translates them where they are shown.
MESSAGES = (
    N_("this link is not valid"), N_("this link is not valid (forged or mistyped)"),
    N_("this link is no longer valid (the seat was reassigned or revoked)"),
    N_("no such game"), N_("no such game (the link is forged or mistyped)"),
    N_("the game moved on; reload and try again"), N_("the game is busy; try again"),
    N_("this move was already recorded (double submit); nothing more was done"),
    # service.games, service.timekeeping, service.planning, service.talk, service.rematch,
    # service.zones and service.admin.commands: their fixed refusals
    N_("it is not your turn to act"), N_("seq must be an integer: the seq of the state you saw"),
    N_("options must be a JSON object"), N_("seed must be an integer"),
    N_("options.mail values must be true or false"),
    N_("clock must be a JSON object"), N_("vacation_days must be zero or more"),
    N_("per_decision_hours cannot exceed bank_max_hours"),
    N_("reminder_hours must be a list of positive hours"),
    N_("weekend_pause must be true or false"),
    N_("no vacation days left in this game"), N_("you are already on vacation"),
    N_("you are not on vacation"),
    N_("the plan in this link is malformed"), N_("the plan goes on after your turn ends"),
    N_("the plan in this link no longer fits the game"),
    N_("a step that draws or reveals something must be the last"),
    N_("choose one of the offered answers for each order"),
    N_("this game has no standing orders"),
    N_("the message is empty"), N_("this game was ended; the table is closed"),
    N_("a rematch can only be asked for when the game is over"),
    N_("choose a time zone"),
    N_("give a reason: it is recorded and mailed to the players"),
    N_("the game was abandoned; it cannot be rolled back"),
    N_("the new player needs a name"), N_("the new player needs a valid email"),
    N_("events must be a non-empty list"), N_("game.id is missing"),
    N_("the form was incomplete; go back and try again"),
)
# The refusals made with values (a seq, a status, a name) by modules that raise plain
# English: each template (a catalog msgid with ``str.format`` fields) is matched against the
# whole message, and the matched values fill in its translation.  A field called ``status``
# is a game status, itself translated.
SHAPES = (
    N_("no game {game}"),
    N_("the game moved on: you saw seq {seen}, it is now at seq {now}; "
       "reload to see the current state"),
    N_("the game moved on: you saw seq {seen}, it is now at seq {now}; reload and decide again"),
    N_("the game is {status}; no moves are taken"),
    N_("the game is {status}; its seats can no longer change"),
    N_("the game is {status}; only an active game can pause"),
    N_("the game is {status}, not paused"),
    N_("the game is {status} already"),
    N_("the game is {status}"),
    N_("options.mail must be an object with only: {known}"),
    N_("unknown clock setting(s): {unknown}"),
    N_("{setting} must be a positive number"),
    N_("timeout_policy must be one of {choices}"),
    N_("unknown time zone {zone}"),
    N_("the reason may have at most {count} characters"),
    N_("no seat {seat} in this game"),
    N_("to_seq must be a seq from 1 to {last}"),
    N_("nothing to take back: {why}"),
    N_("seat {seat} is already played by a bot"),
    N_("events[{index}] is malformed ({error})"),
    N_("events[{index}] is malformed"),
    N_("not a Chasqui game export (format must be {format})"),
    N_("unknown export version {version}"),
    N_("a game {game} exists here already; nothing was imported"),
    N_("the hash chain is broken at seq {seq}: {why}; nothing was imported"),
    N_("the events do not replay: {error}"),
    N_("seats must list the game's {count} seats"),
    N_("seats[{index}] needs a name and an email"),
    N_("event {seq} does not reproduce its hash"),
)
_FIELD = re.compile(r"\\\{(\w+)\\\}")
_SHAPES = tuple((re.compile(_FIELD.sub(r"(?P<\1>.+?)", re.escape(t)) + r"\Z", re.S), t)
                for t in SHAPES)


def said(error):
    """What of ``error`` a reader is shown: its phrase, else a phrase from ``SHAPES``, else
    its English text (translated by the catalog when it is one of ``MESSAGES``)."""
    say = getattr(error, "say", None)
    if say is not None:
        return say
    text = str(error)
    for pattern, template in _SHAPES:
        found = pattern.match(text)
        if found:
            values = found.groupdict()
            if "status" in values:
                values["status"] = term(values["status"])
            return phrase(template, **values)
    return text


def told(error, language: str | None = None) -> str:
    """An error's message in ``language`` (the current page's or mail's by default)."""
    return translate(language or page_language(), said(error))


def page_errors(app: Flask) -> None:
    for error_class, title in PAGE_TITLES.items():
        status = dict(STATUS)[error_class]
        app.register_error_handler(error_class, _page(title, status))
    for code, (title, message) in HTTP_PAGES.items():
        app.register_error_handler(code, _http_page(code, title, message))


def _page(title: str, status: int):
    def handler(error):
        return render_template("pages/error.html", title=title, message=told(error)), status
    return handler


def _http_page(status: int, title: str, message: str):
    def handler(error):
        allowed = getattr(error, "valid_methods", None)  # a 405 names the methods it takes
        headers = {"Allow": ", ".join(allowed)} if allowed else {}
        return render_template("pages/error.html", title=title, message=message), status, headers
    return handler


def json_errors(bp: Blueprint) -> None:
    for error_class, status in STATUS:
        bp.register_error_handler(error_class, _json(status))
    for code in (404, 405, 413):
        bp.register_error_handler(code, lambda error: (jsonify(error=error.description), error.code))


def _json(status: int):
    def handler(error):
        return jsonify(error=str(error)), status
    return handler
