"""Bad input gets a clear answer and changes nothing: one place that says which answer.

Pages answer with the error page (registered on the app, so every blueprint that reads a
seat secret or a game id shares it); the JSON APIs answer ``{"error": ...}`` with the same
status codes (registered per blueprint, which Flask prefers over the app's handlers)."""
from __future__ import annotations

from flask import Blueprint, Flask, jsonify, render_template

from engine import IllegalAction
from service.games import NotFound
from service.store import Conflict
from service.tokens import BadSecret

STATUS = ((IllegalAction, 400), (BadSecret, 403), (NotFound, 404), (Conflict, 409))
PAGE_TITLES = {BadSecret: "Link not valid", NotFound: "No such game"}


def page_errors(app: Flask) -> None:
    for error_class, title in PAGE_TITLES.items():
        status = dict(STATUS)[error_class]
        app.register_error_handler(error_class, _page(title, status))


def _page(title: str, status: int):
    def handler(error):
        return render_template("pages/error.html", title=title, message=str(error)), status
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
