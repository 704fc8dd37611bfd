"""Checks every request passes before any view runs: what no route can take, refused once.

Why here and not in each view: a NUL in a path or query reaches a database lookup in dozens
of views (a game id, a pending game, an invitation token), and PostgreSQL cannot even compare
a text with a NUL in it -- it raises instead of finding nothing.  A JSON body nested thousands
of levels deep exhausts the parser's stack in whichever view reads it (the admin API's too).
Both are refused here with a 400 (``BadInput``: JSON under the APIs, the error page
elsewhere; ``service.errors``) before a view, a lookup or a parser sees them."""
from __future__ import annotations

from flask import Flask, request

from engine.text import phrase
from service.validation import BadInput, check_json_shape

BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def refuse_poisoned_request() -> None:
    if "\x00" in request.path:
        raise BadInput(phrase("the address contains a NUL character"))
    query = request.query_string
    if query and (b"%00" in query or b"\x00" in query):
        raise BadInput(phrase("the query contains a NUL character"))
    if request.method in BODY_METHODS and request.is_json:
        check_json_shape(request.get_data(cache=True))


def init_app(app: Flask) -> None:
    app.before_request(refuse_poisoned_request)
