"""Checks every request passes before any view runs: what no route can take, refused once.

Why here and not in each view: a NUL in a path or query reaches a database lookup in dozens
of views (a game id, a pending game, an invitation token), and PostgreSQL cannot even compare
a text with a NUL in it -- it raises instead of finding nothing.  A JSON body nested thousands
of levels deep exhausts the parser's stack in whichever view reads it (the admin API's too).
A NUL in a form field is refused for the same reason as in a path.
All are refused here with a 400 (``BadInput``: JSON under the APIs, the error page
elsewhere; ``service.web.errors``) before a view, a lookup or a parser sees them."""
from __future__ import annotations

from flask import Flask, current_app, request
from werkzeug.routing import IntegerConverter

from engine.text import phrase
from service.core.validation import MAX_WHOLE, BadInput, check_json_shape

BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def takes_body(limit: int, raw: bool = False):
    """Marks a view that reads a larger body than the app's ``MAX_CONTENT_LENGTH`` (a game's
    record, a raw mail), and (``raw``) reads it itself -- as bytes whatever its type says (a
    mail provider's webhook) or through ``validation.json_document`` -- so the checks below
    neither refuse it at the app's limit nor consume it as a form."""
    def mark(view):
        view.body_limit, view.raw_body = limit, raw
        return view
    return mark


def refuse_poisoned_request() -> None:
    view = current_app.view_functions.get(request.endpoint)
    limit = getattr(view, "body_limit", None)
    if limit is not None:
        request.max_content_length = limit
        request.max_form_memory_size = limit
    if "\x00" in request.path:
        raise BadInput(phrase("the address contains a NUL character"))
    query = request.query_string
    if query and (b"%00" in query or b"\x00" in query):
        raise BadInput(phrase("the query contains a NUL character"))
    if request.method not in BODY_METHODS or getattr(view, "raw_body", False):
        return
    if request.is_json:
        check_json_shape(request.get_data(cache=True))
    elif request.mimetype in FORM_TYPES and any("\x00" in value
                                                for value in request.form.values()):
        raise BadInput(phrase("a form field contains a NUL character"))


class WholeNumberConverter(IntegerConverter):
    """``<int:…>`` in every route, bounded by ``validation.MAX_WHOLE``: a longer number in a
    path (``/mailbox/99999999999999999999999``) matches no route (404) instead of overflowing
    the database lookup the view makes with it."""

    def __init__(self, url_map, fixed_digits=0, min=None, max=MAX_WHOLE, signed=False):
        super().__init__(url_map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


def init_app(app: Flask) -> None:
    """Set before any blueprint is registered: a rule picks its converter when it is added."""
    app.url_map.converters["int"] = WholeNumberConverter
    app.before_request(refuse_poisoned_request)
