"""A finished game's public record, and the page that checks one (``docs/fairness.md``).

``GET /play/<secret>/record.json`` (a player's link) and ``GET /watch/<token>/record.json``
(the spectators' link) download the record of a game that is over: every event with its
nonce, the commitment and the revealed seed.  ``/verify`` checks a record (pasted, uploaded,
or POSTed as JSON) with ``fairness.check_record``: the same checks as ``flask chasqui
verify-record FILE``.  Nothing here changes anything, so the blueprint needs no CSRF token,
and a record is read up to ``RECORD_LIMIT`` bytes (a long game's record is larger than the
other forms' limit)."""
from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, render_template, request

from engine.text import phrase
from service.mail import witness
from service.store import fairness
from service.web import kept_mails
from service.web.extensions import own_limit, services
from service.store.loading import Loaded, NotFound, load
from service.view import privileged_reads
from service.application.moves import load_for_secret
from service.web.request_checks import takes_body
from service.web.spectate import read_spectate_token

bp = Blueprint("verify", __name__)

RECORD_LIMIT = 4 * 1024 * 1024
VERIFY_LIMIT = "30 per minute"


def init_app(app, csrf) -> None:
    csrf.exempt(bp)  # every route only reads: a forged request can change nothing
    app.register_blueprint(bp)


@bp.get("/play/<secret>/record.json")
def player_record(secret: str):
    svc = services()
    with svc.db.reading() as session:
        loaded, _seat = load_for_secret(session, svc, secret)
        return _record(session, loaded)


@bp.get("/watch/<token>/record.json")
def spectator_record(token: str):
    svc = services()
    game_id = read_spectate_token(svc.settings.secret_key, token)
    with svc.db.reading() as session:
        return _record(session, load(session, game_id))


def _record(session, loaded: Loaded) -> Response:
    events = loaded.events.all()
    if not fairness.publishable(loaded.row.status, events):
        raise NotFound(phrase("the game's record is published when the game is over"))
    data = fairness.record(loaded.row.id, loaded.game.name, loaded.row.status, events,
                           loaded.game.outcome(loaded.state))
    data["privileged_reads"] = privileged_reads.in_record(session, loaded)  # outside the chain
    return Response(json.dumps(data, indent=1, ensure_ascii=False), mimetype="application/json",
                    headers={"Content-Disposition":
                             f'attachment; filename="chasqui-{loaded.row.id}-record.json"'})


@bp.route("/verify", methods=["GET", "POST"])
@takes_body(RECORD_LIMIT, raw=True)  # read by fairness.check_text with the shared rules
@own_limit(VERIFY_LIMIT, methods=["POST"])
def verify():
    if request.method == "GET":
        return render_template("pages/verify.html", verdict=None)
    record, mails = kept_mails.posted(_posted_text(), RECORD_LIMIT)
    verdict = fairness.check_text(record, RECORD_LIMIT)
    witness.add_check(verdict, record, mails)  # the player's kept mails, when they gave any
    status = 200 if verdict.readable else 400
    if request.is_json:
        return jsonify(verdict.as_json()), status
    return render_template("pages/verify.html", verdict=verdict), status


def _posted_text() -> bytes:
    """The record as sent: a JSON body, an uploaded file, or the pasted text."""
    if request.is_json:
        return request.get_data()
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        return upload.read(RECORD_LIMIT + 1)
    return request.form.get("record", "").encode()
