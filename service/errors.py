"""Bad input gets a clear answer and changes nothing: one place that says which answer.

Pages answer with the error page (registered on the app, so every blueprint that reads a
seat secret or a game id shares it); the JSON APIs answer ``{"error": ...}`` with the same
status codes (registered per blueprint, which Flask prefers over the app's handlers).

The error page shows its title and message in the page's language (issue 7): the titles
below, an unknown address (404) and a wrong method (405) are in the catalog; an error's own
message is translated when it is one of ``MESSAGES`` (the fixed texts of the service's
errors), else shown as it was made (English, with the game id or seq it names)."""
from __future__ import annotations

from flask import Blueprint, Flask, jsonify, render_template

from engine import IllegalAction
from service.games import NotFound
from service.i18n import N_
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
)


def page_errors(app: Flask) -> None:
    for error_class, title in PAGE_TITLES.items():
        status = dict(STATUS)[error_class]
        app.register_error_handler(error_class, _page(title, status))
    for code, (title, message) in HTTP_PAGES.items():
        app.register_error_handler(code, _http_page(code, title, message))


def _page(title: str, status: int):
    def handler(error):
        return render_template("pages/error.html", title=title, message=str(error)), status
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
