"""A second verifier of Chasqui's public records, written from ``docs/fairness.md`` ("What a
record must obey") alone.  It shares no code with ``service/``: it imports the game rules
(``engine``) and the standard library only, and recomputes every hash itself.  The tests run
it beside ``service.store.fairness.check_record`` on genuine and forged records: if the two
ever disagree, the document or the service is wrong.

``verify(record)`` answers (ok, fair) with fair "proven" or "not proven", and the number of
the first rule broken when not ok ("4.2")."""
from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime

from engine import get_game

HEX = set("0123456789abcdef")
TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00")
DECIMAL = re.compile(r"0|[1-9][0-9]*")
ADMIN = re.compile(r"admin|admin:[1-9][0-9]*|admin:[^:\s]*@[^:\s]*")
ORGANISER = re.compile(r"organiser:[1-9][0-9]*")
SEATS = re.compile(r"seat:(0|[1-9][0-9]*)")
KINDS = {  # kind: (has a seat, the actors it allows)
    "GameCreated": (False, {"admin", "organiser", "a seat"}),
    "MoveMade": (True, {"the seat", "bot"}), "TurnTimedOut": (True, {"system"}),
    "RolledBack": (False, {"admin"}), "Undone": (True, {"the seat"}),
    "SeatReplaced": (True, {"admin"}), "SeatBotted": (True, {"admin", "organiser"}),
    "GamePaused": (False, {"admin", "system"}), "GameResumed": (False, {"admin"}),
    "GameAbandoned": (False, {"admin"}), "VacationStarted": (True, {"the seat", "system"}),
    "VacationEnded": (True, {"the seat", "system"}), "MessagePosted": (True, {"the seat"}),
    "SeedRevealed": (False, {"system"}), "GameImported": (False, {"admin"}),
    "RollbackProposed": (False, {"admin"}), "RollbackConsented": (True, {"the seat"}),
    "RollbackDeclined": (True, {"the seat"}), "TimeoutOrderSet": (True, {"the seat"}),
}
NEEDS = {"MoveMade": {"active"}, "TurnTimedOut": {"active"}, "Undone": {"active"},
         "GamePaused": {"active"}, "GameResumed": {"paused"},
         "GameAbandoned": {"active", "paused"}, "SeatReplaced": {"active", "paused"},
         "SeatBotted": {"active", "paused"}, "VacationStarted": {"active", "paused"},
         "RolledBack": {"active", "paused", "finished"},
         "MessagePosted": {"active", "paused", "finished"},
         "SeedRevealed": {"finished", "abandoned"}, "RollbackProposed": {"active", "paused"},
         "RollbackConsented": {"active", "paused"}, "RollbackDeclined": {"active", "paused"},
         "TimeoutOrderSet": {"active", "paused"}}
# What may stand between a rollback's proposal and the rollback (besides consents to it).
KEEPS_OPEN = {"MessagePosted", "VacationStarted", "VacationEnded", "TimeoutOrderSet"}


class Fails(Exception):
    """The number of the rule the record breaks."""


def verify(record) -> tuple[bool, str, str]:
    """(ok, fair, the first rule broken or "")."""
    try:
        fair = _verify(record)
    except Fails as rule:
        return False, "not proven", str(rule)
    return True, fair, ""


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def hexn(value, n: int) -> bool:
    return isinstance(value, str) and len(value) == n and set(value) <= HEX


def need(condition, rule: str) -> None:
    if not condition:
        raise Fails(rule)


def texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)


def _verify(r) -> str:
    need(isinstance(r, dict) and r.get("format") == "chasqui-record"
         and type(r.get("version")) is int and r["version"] == 1, "1.1")
    need(not any(0xD800 <= ord(c) <= 0xDFFF for t in texts(r) for c in t), "1.2")
    need(set(r) <= {"format", "version", "game", "outcome", "events", "privileged_reads"}
         and "outcome" in r, "1.3")
    g = r.get("game")
    need(isinstance(g, dict) and set(g) == {"id", "game", "status"}
         and all(isinstance(v, str) for v in g.values()) and 0 < len(g["id"]) <= 64, "1.4")
    reads = r.get("privileged_reads", [])
    need(isinstance(reads, list) and len(reads) <= 1000 and all(
        isinstance(x, dict) and set(x) == {"who", "what", "at"}
        and all(isinstance(v, str) and len(v) <= 500 for v in x.values()) for x in reads), "1.4")
    events = r.get("events")
    need(isinstance(events, list) and events, "1.5")
    for n, e in enumerate(events, start=1):
        need(isinstance(e, dict) and set(e) == {"seq", "kind", "payload", "actor", "recorded_at",
                                                "prev_hash", "hash", "nonce"}, "1.5")
        need(type(e["seq"]) is int and e["seq"] == n, "1.6")
        need(isinstance(e["kind"], str) and isinstance(e["actor"], str)
             and isinstance(e["payload"], dict)
             and type(e["payload"].get("schema_version")) is int
             and e["payload"]["schema_version"] in (1, 2, 3), "1.7")
        need(hexn(e["prev_hash"], 64) and hexn(e["hash"], 64), "1.8")
        need(e["nonce"] is None if e["payload"]["schema_version"] == 1
             else hexn(e["nonce"], 32), "1.8")
        need(isinstance(e["recorded_at"], str) and TIME.fullmatch(e["recorded_at"]), "1.9")
        need(_real_time(e["recorded_at"]), "1.9")
    first = events[0]["payload"]
    need(events[0]["kind"] == "GameCreated" and isinstance(first.get("players"), list)
         and first["players"] and all(isinstance(p, str) for p in first["players"])
         and isinstance(first.get("options"), dict), "1.10")
    version = first["schema_version"]
    need(all(e["payload"]["schema_version"] >= version for e in events), "1.10")
    _chain(g["id"], events)
    players = len(first["players"])
    _events(events, players, version)
    seed, fair = _seed(events, first, version, players)
    _replay(r, events, first, seed, version)
    return fair


def _real_time(text: str) -> bool:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def _chain(game_id: str, events: list) -> None:
    prev = "0" * 64
    for e in events:
        need(e["prev_hash"] == prev, "2.1")
        content = {"game": game_id, "seq": e["seq"], "kind": e["kind"], "payload": e["payload"],
                   "actor": e["actor"], "recorded_at": e["recorded_at"]}
        if e["nonce"] is not None:
            content["nonce"] = e["nonce"]
        need(sha(e["prev_hash"] + canonical(content)) == e["hash"], "2.2")
        prev = e["hash"]


def _actor_allowed(actor: str, allowed: set, seat, players: int) -> bool:
    seat_match = SEATS.fullmatch(actor)
    return (("admin" in allowed and ADMIN.fullmatch(actor) is not None)
            or ("organiser" in allowed and ORGANISER.fullmatch(actor) is not None)
            or ("a seat" in allowed and seat_match is not None
                and int(seat_match.group(1)) < players)
            or ("the seat" in allowed and actor == f"seat:{seat}")
            or actor in allowed & {"system", "bot"})


def _events(events: list, players: int, version: int) -> None:
    orders = {}
    for index, e in enumerate(events):
        need(e["kind"] in KINDS and (e["kind"] == "GameCreated") == (index == 0), "3.1")
        has_seat, allowed = KINDS[e["kind"]]
        seat = e["payload"].get("seat")
        need(not has_seat or (type(seat) is int and 0 <= seat < players), "3.2")
        need(_actor_allowed(e["actor"], allowed, seat, players), "3.3")
        if e["kind"] in ("RolledBack", "Undone"):
            to = e["payload"].get("to_seq")
            need(type(to) is int and 1 <= to < e["seq"], "3.4")
        if e["kind"] == "GameImported":
            need(hexn(e["payload"].get("source_last_hash"), 64), "3.5")
        if e["kind"] in ("SeatBotted", "TurnTimedOut", "TimeoutOrderSet") \
                and "level" in e["payload"]:
            need(e["payload"]["level"] in ("easy", "strong"), "3.7")
        if e["kind"] == "TimeoutOrderSet":
            orders[seat] = e["payload"].get("level")
        if e["kind"] == "SeatReplaced":
            orders.pop(seat, None)
        if e["kind"] == "TurnTimedOut" and "ordered" in e["payload"]:
            p = e["payload"]
            need(p["ordered"] is True and p.get("policy") == "bot" and p.get("level") is not None
                 and orders.get(seat) == p.get("level"), "3.8")
    reveals = [i for i, e in enumerate(events) if e["kind"] == "SeedRevealed"]
    if version == 1:
        need(not reveals, "3.6")
        return
    need(len(reveals) == 1, "3.6")
    need(all(e["kind"] in ("MessagePosted", "GameImported") for e in events[reveals[0] + 1:]),
         "3.6")


def _decimal(text) -> int:
    need(isinstance(text, str) and DECIMAL.fullmatch(text) and int(text) < 2 ** 256, "4.5")
    return int(text)


def _seed(events: list, first: dict, version: int, players: int) -> tuple[int, str]:
    if version == 1:
        need("commitment" not in first and "randomness" not in first
             and type(first.get("seed")) is int and 0 <= first["seed"] < 2 ** 256, "4.1")
        return first["seed"], "not proven"
    reveal = next(e["payload"] for e in events if e["kind"] == "SeedRevealed")
    if version == 2:
        need("seed" not in first and "randomness" not in first, "4.2")
        return _committed(first, reveal, "4.2"), "not proven"
    rnd = first.get("randomness")
    need(isinstance(rnd, dict) and "seed" not in first and "commitment" not in first, "4.3")
    if rnd.get("scheme") == "given" and set(rnd) == {"scheme", "commitment"}:
        return _committed(rnd, reveal, "4.3"), "not proven"
    need(rnd.get("scheme") == "chasqui-seed-v2"
         and set(rnd) == {"scheme", "commitment", "contributions"}, "4.3")
    given = rnd["contributions"]
    need(isinstance(given, list) and len(given) == players, "4.4")
    for c in given:
        need(isinstance(c, dict) and set(c) == {"text", "by"} and c["by"] in ("player", "chasqui")
             and isinstance(c["text"], str) and 1 <= len(c["text"]) <= 200
             and c["text"].isprintable(), "4.4")
    need(hexn(rnd["commitment"], 64) and set(reveal) == {"secret", "seed", "schema_version"}
         and hexn(reveal["secret"], 64), "4.4")
    seed = _decimal(reveal["seed"])
    need(sha("chasqui-service-commitment-v2:" + reveal["secret"]) == rnd["commitment"], "4.4")
    joined = ":".join(sha(c["text"]) for c in given)
    need(int(sha(f"chasqui-seed-v2:{reveal['secret']}:{joined}"), 16) == seed, "4.4")
    imported = any(e["kind"] == "GameImported" for e in events)
    by_players = any(c["by"] == "player" for c in given)
    return seed, "proven" if by_players and not imported else "not proven"


def _committed(published: dict, reveal: dict, rule: str) -> int:
    need(hexn(published.get("commitment"), 64), rule)
    need(set(reveal) == {"seed", "salt", "schema_version"} and hexn(reveal["salt"], 64), rule)
    seed = _decimal(reveal["seed"])
    need(sha(f"chasqui-seed-commitment-v1:{reveal['seed']}:{reveal['salt']}")
         == published["commitment"], rule)
    return seed


def _replay(r: dict, events: list, first: dict, seed: int, version: int) -> None:
    try:
        game = get_game(first.get("game"))
        state = game.setup(first["players"], seed, first.get("options"))
        game.keep_rules_version(state, first.get("rules_version"))
        history: dict[int, tuple] = {1: ()}  # seq -> what made the state right after it
        steps: tuple = ()  # ("move", seat, action) and ("reshuffle", key), in order
        status, revealed = "active", False
        bots: set = set()  # the seats a bot plays now
        used: set = set()  # the proposals a rollback has used
        for e in events[1:]:
            kind, p = e["kind"], e["payload"]
            need(not (version > 1 and status in ("finished", "abandoned") and not revealed
                      and kind != "SeedRevealed"), "5.6")
            need(kind not in NEEDS or status in NEEDS[kind], "5.3")
            if kind in ("MoveMade", "TurnTimedOut"):
                need(p["seat"] in game.to_act(state), "5.4")
                try:
                    game.find_legal_action(state, p["seat"], p.get("action"))
                except Exception:  # noqa: BLE001  any refusal of the engine
                    raise Fails("5.4") from None
                game.apply_in_place(state, p["seat"], p.get("action"))
                steps = steps + (("move", p["seat"], p.get("action")),)
            elif kind in ("RolledBack", "Undone"):
                if version >= 3 and (_replayed(game, first, seed, history[p["to_seq"]])
                                     .get("epoch") != state.get("epoch")):
                    _agreed(events, e, len(first["players"]), bots, used)
                steps = history[p["to_seq"]]
                if version >= 3 and hasattr(game, "reshuffle_unseen"):
                    key = int(sha(f"chasqui-reshuffle-v1:{seed}:{e['seq']}"), 16)
                    steps = steps + (("reshuffle", key),)
                state = _replayed(game, first, seed, steps)
                if status == "finished":
                    status = "active"
            if kind == "SeatBotted":
                bots.add(p["seat"])
            elif kind == "SeatReplaced":
                bots.discard(p["seat"])
            status = {"GamePaused": "paused", "GameResumed": "active",
                      "GameAbandoned": "abandoned"}.get(kind, status)
            if status == "active" and game.outcome(state) is not None:
                status = "finished"
            revealed = revealed or kind == "SeedRevealed"
            history[e["seq"]] = steps
        outcome = game.outcome(state)
    except Fails:
        raise
    except Exception:  # noqa: BLE001  an engine refusing a stranger's events
        raise Fails("5.1") from None
    need(status in ("finished", "abandoned") and r["game"]["status"] == status
         and r["game"]["game"] == first["game"], "5.7")
    written = None if outcome is None else {
        "scores": {str(k): v for k, v in outcome["scores"].items()},
        "winners": list(outcome["winners"])}
    need(written == r["outcome"], "5.7")


def _agreed(events: list, e: dict, players: int, bots: set, used: set) -> None:
    """Rule 5.8: a rollback that takes back a change of epoch names a proposal every seat held
    by a person consented to, with only talk, vacations and consents after the proposal."""
    number = e["payload"].get("proposal")
    need(e["kind"] == "RolledBack" and type(number) is int and 1 < number < e["seq"]
         and number not in used, "5.8")
    used.add(number)
    proposal = events[number - 1]
    need(proposal["kind"] == "RollbackProposed" and proposal["actor"] == e["actor"]
         and proposal["payload"].get("to_seq") == e["payload"]["to_seq"], "5.8")
    agreed = set()
    for between in events[number:e["seq"] - 1]:
        if (between["kind"] == "RollbackConsented"
                and between["payload"].get("proposal") == number):
            agreed.add(between["payload"]["seat"])
        else:
            need(between["kind"] in KEEPS_OPEN, "5.8")
    need(set(range(players)) - bots <= agreed, "5.8")


def _replayed(game, first: dict, seed: int, steps: tuple):
    """The state the steps make from the start (rule 5.5)."""
    state = game.setup(first["players"], seed, first.get("options"))
    game.keep_rules_version(state, first.get("rules_version"))
    for step in steps:
        if step[0] == "move":
            game.apply_in_place(state, step[1], step[2])
        else:
            shuffled = game.reshuffle_unseen(state, step[1])
            state = state if shuffled is None else shuffled
    return state
