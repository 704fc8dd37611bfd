"""The JSON API.  Every error is a JSON body ``{"error": ...}`` with a 4xx and no new event."""
from __future__ import annotations

import hmac

from flask import Blueprint, jsonify, request

from engine.text import render
from service.core.addresses import first_repeated_person, one_seat_each
from service.web.extensions import services
from service.application.confirmations import own_move
from service.web.errors import json_errors
from service.application.games import create_game
from service.store.loading import load
from service.store.history import superseded_seqs
from service.application.moves import load_for_secret, make_move, resolve_seat
from service.store import notes, privileged_reads
from service.web.read_traces import leave_trace
from service.store.models import SeatRow
from service.web import notes as notes_pages
from service.view.presenter import secret_for
from service.view.i18n import translate
from service.core.validation import (BadInput, bot_level, bounded_number, json_document,
                                     one_address, person_name)

bp = Blueprint("api", __name__, url_prefix="/api")
MAX_SEED = 2**256 - 1


class ApiError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@bp.errorhandler(ApiError)
def _api_error(error: ApiError):
    return jsonify(error=str(error)), error.status


json_errors(bp)


BODY_RULE = "the body must be a JSON object (Content-Type: application/json)"


def _json_body() -> dict:
    """The body as a JSON object, bounded in size and depth (``validation.json_document``)."""
    if not request.is_json:
        raise ApiError(400, BODY_RULE)
    try:
        data = json_document(request.get_data(cache=True))
    except BadInput as error:
        raise ApiError(400, f"{error}; {BODY_RULE}") from None
    if not isinstance(data, dict):
        raise ApiError(400, BODY_RULE)
    return data


def _require_admin() -> None:
    token = services().settings.admin_token
    header = request.headers.get("Authorization", "")
    given = header[7:] if header.startswith("Bearer ") else ""
    if not token or not given or not hmac.compare_digest(token.encode(), given.encode()):
        raise ApiError(403, "admin token required (Authorization: Bearer …)")


def _players(data: dict) -> list[dict]:
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise ApiError(400, "players must be a non-empty list of {name, email}")
    clean = []
    for i, player in enumerate(players):
        who = f"players[{i}]"
        if not isinstance(player, dict):
            raise ApiError(400, f"{who} must be an object {{name, email}}")
        clean.append(_player(player, who))
    repeated = first_repeated_person([player["email"] for player in clean if player["email"]])
    if repeated is not None:
        raise ApiError(400, render(one_seat_each(repeated)) + "; one person holds one seat "
                       "(addresses that differ only in capitals or a +tag are one person)")
    return clean


def _player(player: dict, who: str) -> dict:
    """A person (name and address), or a seat a bot plays from the start (name and
    ``bot_level``, no address: nobody is mailed for it)."""
    name = person_name(player.get("name"), who)
    if "bot_level" in player and "email" not in player:
        return {"name": name, "email": "", "bot_level": bot_level(player["bot_level"],
                                                                  f"{who}.bot_level")}
    return {"name": name, "email": one_address(player.get("email"), who)}


def _seed(data: dict) -> int | None:
    """A site admin's seed (tests, a replayed table): a whole number of at most 256 bits."""
    seed = data.get("seed")
    return None if seed is None else bounded_number(seed, "seed", 0, MAX_SEED, whole=True)


@bp.post("/games")
def create():
    _require_admin()
    data = _json_body()
    svc = services()
    if not isinstance(data.get("game"), str):
        raise ApiError(400, "game must be a game name, e.g. \"incan_gold\"")
    players, seed = _players(data), _seed(data)
    with svc.db.unit_of_work() as session:
        game_id, outcome = create_game(session, data["game"], players, seed,
                                       data.get("options"), "admin", svc.clock(),
                                       svc.settings.mail_domain, clock=data.get("clock"),
                                       pace=data.get("pace"))
        loaded = load(session, game_id)
        urls = [f"{svc.settings.base_url}/play/{secret_for(svc.settings, loaded, s.seat)}"
                for s in loaded.seats]
    svc.dispatch_owed(outcome.owed)
    return jsonify(id=game_id, seq=outcome.seq, seats=[
        {"seat": i, "name": p["name"], "play_url": None if p.get("bot_level") else urls[i]}
        for i, p in enumerate(players)]), 201


@bp.get("/games/<game_id>")
def game_status(game_id: str):
    _require_admin()
    svc = services()
    with svc.db.reading() as session:
        loaded = load(session, game_id)
        events = loaded.events.all()  # every event, read while the session is open
    leave_trace(loaded, "admin", privileged_reads.LOG)  # every move's payload: the operator's read
    superseded = superseded_seqs(events)
    return jsonify(
        id=game_id, game=loaded.game.name, status=loaded.row.status, pace=loaded.row.pace,
        seq=loaded.seq,
        to_act=loaded.game.to_act(loaded.state), outcome=_outcome_json(loaded),
        players=[{"seat": s.seat, "name": s.name, "email": s.email} for s in loaded.seats],
        events=[{"seq": e.seq, "kind": e.kind, "payload": e.payload, "actor": e.actor,
                 "recorded_at": e.recorded_at.isoformat(), "prev_hash": e.prev_hash,
                 "hash": e.hash, "superseded": e.seq in superseded} for e in events])


def _outcome_json(loaded):
    result = loaded.game.outcome(loaded.state)
    if result is None:
        return None
    return {"scores": {str(k): v for k, v in result["scores"].items()},
            "winners": result["winners"]}


def _seat_payload(loaded, seat: int) -> dict:
    """What ``presenter.seat_context`` shows a seat, as JSON: its view and its legal actions
    (none unless it must act in an active game).  Built here, not from ``seat_context``,
    whose links (a signed secret, a URL per action) the API does not send: every move's
    answer is one of these."""
    game, state = loaded.game, loaded.state
    to_act = game.to_act(state)
    acting = loaded.row.status == "active" and seat in to_act
    return {"game": game.name, "game_id": loaded.row.id, "seat": seat,
            "seq": loaded.seq, "view": game.view(state, seat), "to_act": to_act,
            "legal_actions": [named(a) for a in game.legal_actions(state, seat)] if acting else [],
            "outcome": _outcome_json(loaded)}


def named(action: dict) -> dict:
    """An action as the API lists it: its ``label`` in the game's own English words (a Moon
    Tile is "3 corn", as the rulebook and the page say, never its id "corn3"); the action
    is matched without its label, so a client may echo it back as it came."""
    return {**action, "label": translate("en", action)}


def move_label(payload: dict) -> str:
    """A recorded move's label in the game's own English words (the recorded ``label`` was
    written from the phrase without a catalog, so it may hold an id)."""
    return translate("en", payload.get("say")) or payload.get("label", "")


@bp.get("/play/<secret>")
def play_state(secret: str):
    svc = services()
    with svc.db.reading() as session:
        loaded, seat = load_for_secret(session, svc, secret)
    return jsonify(_seat_payload(loaded, seat))


@bp.get("/play/<secret>/notes")
def notes_read(secret: str):
    """The seat's private notes, for the seat's own secret only (``service.store.notes``)."""
    svc = services()
    with svc.db.reading() as session:
        game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
        return jsonify(_notes_json(notes.read(session, session.get(SeatRow, (game_id, seat)))))


@bp.post("/play/<secret>/notes")
def notes_write(secret: str):
    data = _json_body()
    if "notes" not in data:
        raise ApiError(400, "send {\"notes\": \"<text>\"} (\"\" removes them)")
    return jsonify(_notes_json(notes_pages.save(secret, data["notes"])))


def _notes_json(kept: dict) -> dict:
    when = kept["updated_at"]
    return {"notes": kept["notes"], "updated_at": when.isoformat() if when else None}


@bp.post("/play/<secret>")
def play_move(secret: str):
    data = _json_body()
    if "action" not in data or "seq" not in data:
        raise ApiError(400, "send {\"action\": {...}, \"seq\": <the seq you saw>}")
    svc = services()
    outcome = make_move(svc, secret, data["action"], data["seq"])
    answer = _seat_payload(outcome.loaded, outcome.seat)
    mine = own_move(outcome.loaded, outcome.seat)  # never a bot's move made after it
    answer["move"] = {"seq": mine.seq, "label": move_label(mine.payload)} if mine else None
    return jsonify(answer)
