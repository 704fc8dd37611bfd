"""``POST /inbound/mail``: a mail provider's inbound webhook hands us the raw RFC 5322 message.

Authorised by the shared secret ``CHASQUI_INBOUND_TOKEN`` in the ``X-Chasqui-Inbound-Token``
header (or ``Authorization: Bearer …``); closed (403) while the setting is unset.  No cookie
is involved, so the blueprint is CSRF-exempt.  The envelope recipient may be given as
``?to=play+…@…``; otherwise the To/Cc/Delivered-To headers are read.

A mail that cannot be read (``UnreadableMail``: a charset that does not exist, a malformed
X-Chasqui-Seq) answers 400 and records nothing; a database that failed answers 503, the one
answer after which a provider's retry may succeed.  A mail for a reply address that is not
ours, or signed for no seat, is recorded as refused and answered 200, like every mail the
service took: a forger learns nothing."""
from __future__ import annotations

import hmac

from flask import Blueprint, jsonify, request

from service.application.inbound import handle
from service.mail.inbound_parse import UnreadableMail
from service.store.db import DatabaseFailure
from service.web.request_checks import takes_body
from service.web.extensions import services

bp = Blueprint("inbound", __name__, url_prefix="/inbound")
MAX_BYTES = 1024 * 1024


def _authorised() -> bool:
    token = services().settings.inbound_token
    given = request.headers.get("X-Chasqui-Inbound-Token", "")
    auth = request.headers.get("Authorization", "")
    if not given and auth.startswith("Bearer "):
        given = auth[7:]
    return bool(token) and bool(given) and hmac.compare_digest(token.encode(), given.encode())


@bp.post("/mail")
@takes_body(MAX_BYTES, raw=True)  # a raw mail with a quoted HTML part, whatever its type says
def receive():
    if not _authorised():
        return jsonify(error="inbound token required (X-Chasqui-Inbound-Token)"), 403
    if (request.content_length or 0) > MAX_BYTES:
        return jsonify(error="message too large"), 413
    raw = request.get_data(cache=False)
    if not raw.strip():
        return jsonify(error="the body must be the raw RFC 5322 message"), 400
    recipients = request.args.getlist("to")
    try:
        status = handle(services(), raw, recipients)
    except UnreadableMail as error:
        return jsonify(error=str(error)), 400
    except DatabaseFailure:
        return jsonify(error="the database is unavailable; try again later"), 503
    return jsonify(status=status), 200
