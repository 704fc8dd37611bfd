"""Bad input gets a clear answer and changes nothing: one place that says which answer.

Pages answer with the error page (registered on the app, so every blueprint that reads a
seat secret or a game id shares it); the JSON APIs answer ``{"error": ...}`` with the same
status codes (registered per blueprint, which Flask prefers over the app's handlers).

The error page shows its title and message in the page's language: the titles
below, an unknown address (404) and a wrong method (405) are in the catalog.  An error's own
message reaches a reader through ``told``: every refusal is raised with a phrase
(``error.say``: the engine's ``IllegalAction``, ``service.core.refusals.Refusal`` and the accounts'
errors carry one), so the catalog finds each template where it is raised and nothing here
matches English text afterwards; ``str(error)`` stays English for the JSON API and the logs."""
from __future__ import annotations

from flask import Blueprint, Flask, jsonify, render_template, request

from engine import IllegalAction
from service.store.loading import NotFound
from service.core.refusals import said
from service.view.i18n import N_, page_language, translate
from service.store.events import Conflict
from service.core.tokens import BadSecret
from service.core.validation import BadInput

STATUS = ((IllegalAction, 400), (BadInput, 400), (BadSecret, 403), (NotFound, 404),
          (Conflict, 409))
PAGE_TITLES = {BadSecret: N_("Link not valid"), NotFound: N_("No such game")}
# Titles and messages of the HTTP errors that reach the app's handlers (unknown address,
# wrong method): Werkzeug's own texts are English.
HTTP_PAGES = {404: (N_("Not found"), N_("There is no page at this address.")),
              405: (N_("Not allowed"), N_("This address does not take this kind of request."))}


def told(error, language: str | None = None) -> str:
    """An error's message in ``language`` (the current page's or mail's by default)."""
    return translate(language or page_language(), said(error))


def page_errors(app: Flask) -> None:
    for error_class, title in PAGE_TITLES.items():
        status = dict(STATUS)[error_class]
        app.register_error_handler(error_class, _page(title, status))
    for code, (title, message) in HTTP_PAGES.items():
        app.register_error_handler(code, _http_page(code, title, message))
    app.register_error_handler(BadInput, _bad_input)


def _bad_input(error: BadInput):
    """Input refused before (or outside) a view that answers it itself: a request check
    (``service.web.request_checks``) or a view without a form to show the error on.  JSON for an
    API caller, the error page for a browser."""
    if request.path.startswith(("/api/", "/admin/api/")) or request.is_json:
        return jsonify(error=str(error)), 400
    return render_template("pages/error.html", title=N_("Not accepted"), message=told(error)), 400


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
