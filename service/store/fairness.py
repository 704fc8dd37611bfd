"""Provable fair play: chance nobody chooses, committed at the start and revealed at the end,
and a public record of a finished game that anyone can check (``docs/fairness.md``).

While a game runs nobody may know its seed: it decides every hand, deck and future draw, so
whoever knew it would know the game.  So a new game's seed is derived
(``service.store.randomness``) from a secret of the service's, committed before the players
give theirs, and one contribution per seat: GameCreated publishes the commitment and the
contributions (``commit_shares``), and the secret and the seed are sealed with that event
(``store.Event.sealed``, a column no page, mail, export or API a player or game admin can
reach ever reads out).  A seed a site admin gives (tests, the admin API) is recorded as
given: GameCreated publishes only ``commitment(seed, salt)`` under the scheme "given"
(``commit``).  When the game ends, ``SeedRevealed`` publishes what was sealed
(``reveal_payload``; ``games.reveal_if_over``).  Then the game's record (``record``: every
event with its nonce) lets anyone check, without trusting this service, that the commitment
matches, that the hash chain is intact and that replaying every move through the engine, each
one legal when it was made, ends in the recorded outcome (``check_record``; the ``/verify``
page and ``flask chasqui verify-record``).

Games of schema version 2 published a top-level ``commitment(seed, salt)`` for a seed the
service chose alone, and reveal seed and salt; games started before fair play (version 1)
have their seed in GameCreated's payload and no nonces: their record checks the chain and
the replay, and says that there was no commitment."""
from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable

from engine import IllegalAction, canonical_json, clone, get_game
from engine.text import phrase
from service.store import events as store
from service.store import randomness as randomness_scheme
from service.store.history import (ENGINE_EVENTS, REVEAL_EVENT, REWIND_EVENTS, apply_step,
                                   consents_to, reshuffles, setup)
from service.store.events import Event
from service.core.validation import BadInput, json_document

SEED_BITS = 256
SALT_BYTES = 32
COMMITMENT_TAG = "chasqui-seed-commitment-v1"
ENDED = ("finished", "abandoned")
REVEALER = "system"
RECORD_FORMAT = "chasqui-record"
RECORD_VERSION = 1


def is_seed(seed: Any) -> bool:
    """A seed a game may have: a whole number of at most ``SEED_BITS`` bits, not negative."""
    return type(seed) is int and 0 <= seed < 2 ** SEED_BITS


def commitment(seed: int, salt: str) -> str:
    """SHA-256, in lowercase hex, of the ASCII text ``chasqui-seed-commitment-v1:<seed>:<salt>``
    (the seed in decimal without leading zeros, the salt as the 64 lowercase hex digits
    GameCreated's reveal shows): simple to recompute in any language."""
    return hashlib.sha256(f"{COMMITMENT_TAG}:{seed}:{salt}".encode("ascii")).hexdigest()


def commit(seed: int) -> tuple[dict, dict]:
    """(what GameCreated's payload publishes, what its event keeps sealed) for a seed a site
    admin gave: recorded as given (scheme "given"), so no record passes it off as chance
    nobody chose.  The seed is sealed as decimal text: JSON readers elsewhere lose integers
    beyond 2**53."""
    salt = secrets.token_hex(SALT_BYTES)
    return ({"randomness": {"scheme": randomness_scheme.GIVEN, "commitment": commitment(seed, salt)}},
            {"seed": str(seed), "salt": salt})


def contribution(text: str, by: str) -> dict:
    """One seat's share of the chance as GameCreated lists it: the text, and who gave it
    (``randomness_scheme.BY_PLAYER``, or ``randomness_scheme.BY_SERVICE`` for a seat that gave none)."""
    return {"text": text, "by": by}


def defaults(count: int) -> list[dict]:
    """Every seat's share drawn by the service: a game whose seats were all taken at once
    (the admin API, a rematch, the demo), where no player had a page to give theirs on."""
    return [contribution(randomness_scheme.default_contribution(), randomness_scheme.BY_SERVICE)
            for _ in range(count)]


def commit_shares(secret: str, contributions: list[dict]) -> tuple[dict, dict, int]:
    """(what GameCreated publishes, what it keeps sealed, the seed) for the service's secret
    ``secret``, committed to before the players gave ``contributions`` (one per seat, in seat
    order).  The seed is sealed beside the secret so that replaying reads it directly."""
    seed = randomness_scheme.derive_seed(secret, [c["text"] for c in contributions])
    public = {"randomness": {"scheme": randomness_scheme.SCHEME,
                             "commitment": randomness_scheme.service_commitment(secret),
                             "contributions": contributions}}
    return public, {"secret": secret, "seed": str(seed)}, seed


def reveal_payload(first: Event) -> dict | None:
    """SeedRevealed's payload for the game GameCreated ``first`` began: the service's secret
    and the seed it derived, or a given (or version 2) seed and its salt; None when it sealed
    no seed (a game from before fair play, whose seed its payload shows)."""
    sealed = first.sealed or {}
    if "seed" not in sealed:
        return None
    if "secret" in sealed:
        return {"secret": sealed["secret"], "seed": sealed["seed"]}
    return {"seed": sealed["seed"], "salt": sealed["salt"]}


def revealed_seed(start: dict, shown: dict) -> int | None:
    """The seed a SeedRevealed payload ``shown`` reveals, if it is what GameCreated's payload
    ``start`` committed to (else None): under "chasqui-seed-v2", the secret matches the
    commitment and the seed is the derivation of it and the contributions listed; under
    "given" (and in a version 2 game's top-level commitment), seed and salt match it.  The
    seed must be written in canonical decimal (no sign, no leading zero)."""
    chance = start.get("randomness")
    seed_text = shown.get("seed")
    if not (isinstance(seed_text, str) and seed_text.isascii() and seed_text.isdigit()
            and len(seed_text) <= len(str(2 ** SEED_BITS)) and str(int(seed_text)) == seed_text):
        return None
    seed = int(seed_text)
    if isinstance(chance, dict) and chance.get("scheme") == randomness_scheme.SCHEME:
        secret, shares = shown.get("secret"), chance.get("contributions")
        if not (randomness_scheme.is_secret(secret) and isinstance(shares, list)
                and all(isinstance(c, dict) and randomness_scheme.is_contribution(c.get("text"))
                        for c in shares)):
            return None
        matches = (randomness_scheme.service_commitment(secret) == chance.get("commitment")
                   and randomness_scheme.derive_seed(secret, [c["text"] for c in shares]) == seed)
        return seed if matches else None
    if isinstance(chance, dict) and chance.get("scheme") != randomness_scheme.GIVEN:
        return None  # a scheme this service never wrote
    committed = chance.get("commitment") if isinstance(chance, dict) else start.get("commitment")
    salt = shown.get("salt")
    if not (isinstance(salt, str) and salt.isascii()):
        return None
    return seed if commitment(seed, salt) == committed else None


def revealed(events: Iterable[Event]) -> bool:
    """Whether the game's seed has been revealed (newest events first: a reveal is late)."""
    return any(event.kind == REVEAL_EVENT for event in reversed(events))


def is_over(status: str) -> bool:
    return status in ENDED


def publishable(status: str, events: list[Event]) -> bool:
    """Whether the game's record may be published: it is over and, if it sealed a seed,
    that seed has been revealed (nothing in the record is a secret any more)."""
    return (is_over(status) and bool(events)
            and (reveal_payload(events[0]) is None or revealed(events)))


# --- the public record -------------------------------------------------------------------------

def outcome_json(outcome: dict | None) -> dict | None:
    """An engine's outcome as JSON (seat numbers as text keys, as JSON has them)."""
    if outcome is None:
        return None
    return {"scores": {str(k): v for k, v in outcome["scores"].items()},
            "winners": list(outcome["winners"])}


def record(game_id: str, game_name: str, status: str, events: list[Event],
           outcome: dict | None) -> dict:
    """A finished or abandoned game's public record: every event with its nonce, the
    outcome the service recorded.  Nothing else (no address, no link): what the players and
    spectators saw, plus what the end revealed.  The caller checks that the game is over."""
    if not publishable(status, events):
        raise ValueError("a game's record is published when it is over and revealed")
    return {
        "format": RECORD_FORMAT, "version": RECORD_VERSION,
        "game": {"id": game_id, "game": game_name, "status": status},
        "outcome": outcome_json(outcome),
        "events": [{"seq": e.seq, "kind": e.kind, "payload": e.payload, "actor": e.actor,
                    "recorded_at": e.recorded_at.isoformat(timespec="microseconds"),
                    "prev_hash": e.prev_hash, "hash": e.hash, "nonce": e.nonce}
                   for e in events],
    }


# --- the verifier ------------------------------------------------------------------------------
# Every rule below is numbered in docs/fairness.md ("What a record must obey"); a record that
# breaks any of them fails, whatever else it gets right.  Nothing the record states about
# itself (the game's name, status, outcome) is believed: each is recomputed from the events.

RECORD_KEYS = frozenset({"format", "version", "game", "outcome", "events", "privileged_reads"})
GAME_KEYS = frozenset({"id", "game", "status"})
EVENT_KEYS = frozenset({"seq", "kind", "payload", "actor", "recorded_at", "prev_hash", "hash",
                        "nonce"})
SCHEMA_VERSIONS = (1, 2, 3)
HASH_DIGITS, NONCE_DIGITS = 64, 32
MAX_GAME_ID = 64
# The one spelling of a time the record may publish (UTC, microseconds, "+00:00").
PUBLISHED_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00")
CANONICAL_DECIMAL = re.compile(r"0|[1-9][0-9]{0,77}")
ADMIN_ACTOR = re.compile(r"admin(:[1-9][0-9]*|:[^:\s]*@[^:\s]*)?")
ORGANISER_ACTOR = re.compile(r"organiser:[1-9][0-9]*")
SEAT_ACTOR = re.compile(r"seat:(0|[1-9][0-9]*)")
SYSTEM, BOT = "system", "bot"
IMPORTED = "GameImported"
SEATED_KINDS = frozenset({"MoveMade", "TurnTimedOut", "Undone", "SeatReplaced", "SeatBotted",
                          "VacationStarted", "VacationEnded", "MessagePosted",
                          "RollbackConsented", "RollbackDeclined", "TimeoutOrderSet"})
# Events that may name the level of the bot that plays (rule 3.7): a hand-over, a timeout a
# bot decided, and a player's order for their timeouts; written by the service's own words, not the engine's (``engine.search.LEVELS``
# says the same two), so a verifier reads them from the rules document alone.
LEVELLED_KINDS = frozenset({"SeatBotted", "TurnTimedOut", "TimeoutOrderSet"})
# A player's own order that a bot of a level decide when their time runs out (rule 3.8).
TIMEOUT_ORDER = "TimeoutOrderSet"
BOT_LEVELS = ("easy", "strong")
# Events that may follow SeedRevealed: table talk at a finished game, and an import's mark.
AFTER_REVEAL = frozenset({"MessagePosted", IMPORTED})
PROVEN, NOT_PROVEN = "proven", "not proven"


# Who may be the actor of each kind of event (docs/fairness.md, rule 3.3): "admin" (an admin
# by id, the API's token, or by address from before admins had ids), "organiser", "a seat"
# (any seat of the game: a rematch a player asked for), "the seat" (the one the payload names),
# and the service itself as "system" or "bot".
ACTORS = {
    "GameCreated": {"admin", "organiser", "a seat"},
    "MoveMade": {"the seat", BOT}, "TurnTimedOut": {SYSTEM},
    "RolledBack": {"admin"}, "Undone": {"the seat"}, "RollbackProposed": {"admin"},
    "RollbackConsented": {"the seat"}, "RollbackDeclined": {"the seat"},
    "SeatReplaced": {"admin"}, "SeatBotted": {"admin", "organiser"},
    "GamePaused": {"admin", SYSTEM}, "GameResumed": {"admin"}, "GameAbandoned": {"admin"},
    "VacationStarted": {"the seat", SYSTEM}, "VacationEnded": {"the seat", SYSTEM},
    "MessagePosted": {"the seat"}, REVEAL_EVENT: {REVEALER}, IMPORTED: {"admin"},
    TIMEOUT_ORDER: {"the seat"},
}


def _actor_allowed(actor: str, allowed: set[str], seat: Any, seats: int) -> bool:
    some_seat = SEAT_ACTOR.fullmatch(actor)
    return (actor in allowed & {SYSTEM, BOT}
            or ("admin" in allowed and ADMIN_ACTOR.fullmatch(actor) is not None)
            or ("organiser" in allowed and ORGANISER_ACTOR.fullmatch(actor) is not None)
            or ("a seat" in allowed and some_seat is not None and int(some_seat[1]) < seats)
            or ("the seat" in allowed and actor == f"seat:{seat}"))


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class Verdict:
    """What ``check_record`` found: each check, whether all passed, and how fair the game's
    chance provably was (``fair``: only a derived seed in a record made here is proven)."""
    game_id: str | None = None
    checks: list[Check] = field(default_factory=list)
    fair_reason: str = "the record did not verify"
    proven: bool = False
    contributions: dict | None = None
    recognised: bool = False  # the input says it is a record of this format and version
    # A site admin's reads of the running game, as the record lists them: outside the chain,
    # so shown as the record states them and never trusted.
    privileged_reads: list[dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    @property
    def fair(self) -> str:
        return PROVEN if self.ok and self.proven else NOT_PROVEN

    @property
    def fairness(self) -> str:
        """The fairness level in a sentence, for the page and the command line."""
        if not self.ok:
            return "not provably fair: the record did not verify"
        return ("provably fair: " if self.proven else "consistent, but NOT provably fair: ") \
            + self.fair_reason

    @property
    def readable(self) -> bool:
        """Whether the input was a record at all (JSON of this format and version, or a
        verdict whose first check passed): the page answers 400 when it was not, 200 with
        the failed checks when it was."""
        return self.recognised or (bool(self.checks) and self.checks[0].ok)

    def add(self, name: str, ok: bool, detail: str) -> bool:
        self.checks.append(Check(name, ok, detail))
        return ok

    def as_json(self) -> dict:
        return {"game": self.game_id, "ok": self.ok, "fair": self.fair,
                "fair_reason": self.fair_reason if self.ok else "the record did not verify",
                "contributions": self.contributions,
                "privileged_reads": self.privileged_reads,
                "checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in self.checks]}


class Broken(Exception):
    """A rule the record breaks: the check's detail says which, in words."""


SHAPE, EVENTS, CHAIN, SEED, REPLAY = ("the record's shape", "the events", "chain", "the seed",
                                      "the replay")


def check_text(raw: bytes | str, limit: int) -> Verdict:
    """``check_record`` of a record's JSON text (a file, a paste, a request body) of at most
    ``limit`` bytes, read by the shared rules (bounded depth, finite numbers)."""
    try:
        data = json_document(raw, phrase("the record"), size=limit, pairs=pairs_once)
    except BadInput:  # not JSON, not UTF-8, too large, or nested beyond reason
        verdict = Verdict()
        verdict.add(SHAPE, False, "not JSON: upload or paste the record file as downloaded")
        return verdict
    except RepeatedKey as repeated:
        verdict = Verdict()
        verdict.add(SHAPE, False, f"an object in the record holds the key "
                    f"{_shown(repeated.args[0])} twice: JSON readers take either value, so no "
                    "check could say which record it is")
        return verdict
    return check_record(data)


class RepeatedKey(Exception):
    """A key written twice in one JSON object (its ``args[0]``): Python keeps the last value,
    other readers the first or neither, and a record must mean one thing to every reader."""


def pairs_once(pairs: list[tuple[str, Any]]) -> dict:
    """An object of a record's JSON text, refused (``RepeatedKey``) when it holds a key twice."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise RepeatedKey(key)
        seen.add(key)
    return dict(pairs)


@dataclass
class _Record:
    """A record that passed its shape: the parsed events and what the checks learn."""
    data: dict
    events: list[Event]
    names: list[str]
    version: int
    seed: int | None = None
    secret: str | None = None


def check_record(data: Any) -> Verdict:
    """Check a record (``record``'s JSON) as a stranger would, by every rule of
    ``docs/fairness.md``: its shape, its events' kinds, actors and order, the hash chain over
    the text as published, the seed against the commitment (and, for a derived seed, every
    contribution), and a replay of every move, each legal when made, to the game's name,
    status and outcome, recomputed.  Changes nothing anywhere; never raises."""
    verdict = Verdict()
    steps = ((SHAPE, _shape), (CHAIN, _chain), (EVENTS, _event_rules), (SEED, _seed),
             (REPLAY, _replay))
    found: Any = data
    for name, step in steps:
        try:
            found, detail = step(found, verdict)
        except Broken as error:
            verdict.add(name, False, str(error))
            return verdict
        except Exception as error:  # noqa: BLE001  a stranger's record may hold anything
            verdict.add(name, False, f"the record cannot be checked ({type(error).__name__})")
            return verdict
        verdict.add(name, True, detail)
    return verdict


# --- rule family 1: the record's shape ----------------------------------------------------------

def _shape(data: Any, verdict: Verdict) -> tuple[_Record, str]:
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise Broken(f"not a Chasqui game record (format must be {RECORD_FORMAT!r})")
    if type(data.get("version")) is not int or data["version"] != RECORD_VERSION:
        raise Broken(f"unknown record version {_shown(data.get('version'))}")
    verdict.recognised = True
    _no_lone_surrogate(data)
    if not set(data) <= RECORD_KEYS:
        raise Broken(f"unknown fields in the record: {_shown(sorted(set(data) - RECORD_KEYS))}")
    game = data.get("game")
    if not (isinstance(game, dict) and set(game) == GAME_KEYS
            and all(isinstance(game[k], str) for k in GAME_KEYS)
            and 0 < len(game["id"]) <= MAX_GAME_ID):
        raise Broken(f"game must hold exactly its id (1 to {MAX_GAME_ID} characters), game and "
                     "status, as text")
    verdict.game_id = game["id"]
    verdict.privileged_reads = _privileged_reads(data.get("privileged_reads", []))
    if "outcome" not in data:
        raise Broken("the record states no outcome (null when the game has none)")
    raw = data.get("events")
    if not isinstance(raw, list) or not raw:
        raise Broken("events must be a non-empty list")
    events = [_event(item, index) for index, item in enumerate(raw)]
    first = events[0]
    if first.kind != "GameCreated":
        raise Broken("the first event must be GameCreated")
    players = first.payload.get("players")
    if not (isinstance(players, list) and players and all(isinstance(p, str) for p in players)
            and isinstance(first.payload.get("options"), dict)):
        raise Broken("GameCreated must name the players, as a list of text, and its options, "
                     "as an object")
    version = first.payload["schema_version"]
    for event in events:
        if event.payload["schema_version"] < version:
            raise Broken(f"{_said(event, players)} is of schema version "
                         f"{event.payload['schema_version']}, older than its game's {version}")
    return (_Record(data, events, players, version),
            f"a record of game {game['id']}, {len(events)} events, schema version {version}")


READ_KEYS = frozenset({"who", "what", "at"})
MOST_READS = 1000


def _privileged_reads(reads: Any) -> list[dict]:
    """The record's list of a site admin's reads while the game ran, to show as it is."""
    if not (isinstance(reads, list) and len(reads) <= MOST_READS and all(
            isinstance(r, dict) and set(r) == READ_KEYS
            and all(isinstance(v, str) and len(v) <= 500 for v in r.values()) for r in reads)):
        raise Broken(f"privileged_reads lists at most {MOST_READS} reads, each exactly who, "
                     "what and at, as texts")
    return reads


def _no_lone_surrogate(value: Any) -> None:
    """Text that is not Unicode (a lone surrogate such as "\\ud800") anywhere, even in a key:
    it cannot be hashed as UTF-8, so no event holding it was ever recorded."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if any(0xD800 <= ord(c) <= 0xDFFF for c in item):
                raise Broken("the record holds text that is not Unicode (a lone surrogate)")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _event(item: Any, index: int) -> Event:
    where = f"event {index + 1}"
    if not isinstance(item, dict) or set(item) != EVENT_KEYS:
        raise Broken(f"{where} must hold exactly: {', '.join(sorted(EVENT_KEYS))}")
    seq, kind, payload, actor = item["seq"], item["kind"], item["payload"], item["actor"]
    if type(seq) is not int or seq != index + 1:
        raise Broken(f"{where} is numbered {_shown(seq)}: events are numbered 1, 2, 3… in order")
    if not (isinstance(kind, str) and isinstance(payload, dict) and isinstance(actor, str)):
        raise Broken(f"{where}: its kind and actor must be text, its payload an object")
    version = payload.get("schema_version")
    if type(version) is not int or version not in SCHEMA_VERSIONS:
        raise Broken(f"{where}: unknown schema version {_shown(version)}")
    if not (_hex(item["prev_hash"], HASH_DIGITS) and _hex(item["hash"], HASH_DIGITS)):
        raise Broken(f"{where}: hashes are written as {HASH_DIGITS} lowercase hex digits")
    nonce = item["nonce"]
    if (nonce is None) != (version == 1) or not (nonce is None or _hex(nonce, NONCE_DIGITS)):
        raise Broken(f"{where}: an event of schema version 2 or later has a nonce of "
                     f"{NONCE_DIGITS} lowercase hex digits, one of version 1 has none")
    at = item["recorded_at"]
    if not (isinstance(at, str) and PUBLISHED_TIME.fullmatch(at)):
        raise Broken(f"{where}: its time must be written as YYYY-MM-DDTHH:MM:SS.ffffff+00:00")
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:  # written in the form, but a day that does not exist
        raise Broken(f"{where}: its time {_shown(at)} is no day of the calendar") from None
    return Event(seq, kind, payload, actor, moment, item["prev_hash"], item["hash"],
                 None if nonce is None else {"nonce": nonce})


def _hex(text: Any, digits: int) -> bool:
    return (isinstance(text, str) and len(text) == digits
            and all(c in "0123456789abcdef" for c in text))


def _shown(value: Any) -> str:
    """A value for a verdict, cut short: a forger's field may be a megabyte long."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


# --- rule family 2: the hash chain over the text as published -----------------------------------

def published_hash(game_id: str, event: Event, recorded_at: str) -> str:
    """SHA-256 of the previous hash and the canonical JSON of the event as the record
    publishes it, its time as the text it is written with (never re-spelled)."""
    content = {"game": game_id, "seq": event.seq, "kind": event.kind, "payload": event.payload,
               "actor": event.actor, "recorded_at": recorded_at}
    if event.nonce is not None:
        content["nonce"] = event.nonce
    return hashlib.sha256((event.prev_hash + canonical_json(content)).encode()).hexdigest()


def _chain(found: _Record, verdict: Verdict) -> tuple[_Record, str]:
    prev = store.GENESIS
    raw = found.data["events"]
    for event, item in zip(found.events, raw):
        if event.prev_hash != prev:
            raise Broken(f"{_said(event, found.names)}: prev_hash does not link to the event "
                         "before it")
        if published_hash(verdict.game_id, event, item["recorded_at"]) != event.hash:
            raise Broken(f"{_said(event, found.names)}: its hash does not match its content")
        prev = event.hash
    return found, f"{len(found.events)} events link and hash exactly"


# --- rule family 3: each event's kind, actor, place and targets ---------------------------------

def _event_rules(found: _Record, verdict: Verdict) -> tuple[_Record, str]:
    seats = len(found.names)
    reveals = [e for e in found.events if e.kind == REVEAL_EVENT]
    orders: dict[int, Any] = {}
    for event in found.events:
        said = _said(event, found.names)
        if event.kind not in ACTORS:
            raise Broken(f"{said}: unknown kind of event {_shown(event.kind)}")
        if event.kind == "GameCreated" and event.seq != 1:
            raise Broken(f"{said}: a game is created once, by its first event")
        seat = event.payload.get("seat")
        if event.kind in SEATED_KINDS and not (type(seat) is int and 0 <= seat < seats):
            raise Broken(f"{said} names no seat of this game")
        if not _actor_allowed(event.actor, ACTORS[event.kind], seat, seats):
            raise Broken(f"{said} is recorded as done by {_shown(event.actor)}, who may not "
                         "do that")
        _target(event, said)
        _ordered(event, said, orders)
    _reveal_place(found, reveals)
    imports = sum(e.kind == IMPORTED for e in found.events)
    return found, ("every event is of a known kind, by whom it may be, in its place"
                   + ("" if not imports else "; imported once" if imports == 1
                      else f"; imported {imports} times"))


def _target(event: Event, said: str) -> None:
    if event.kind in REWIND_EVENTS:
        to_seq = event.payload.get("to_seq")
        if not (type(to_seq) is int and 1 <= to_seq < event.seq):
            raise Broken(f"{said} goes back to {_shown(to_seq)}, not to an earlier event")
    if event.kind == IMPORTED and not _hex(event.payload.get("source_last_hash"), HASH_DIGITS):
        raise Broken(f"{said} must name the imported record's last hash")
    if (event.kind in LEVELLED_KINDS and "level" in event.payload
            and event.payload["level"] not in BOT_LEVELS):
        raise Broken(f"{said} names the bot level {_shown(event.payload['level'])}, not one of "
                     f"{', '.join(BOT_LEVELS)}")


def _ordered(event: Event, said: str, orders: dict[int, Any]) -> None:
    """A timeout the record says a player's own order decided must follow that player's
    order for a bot of the same level, still in force: the service cannot claim a consent
    nobody gave."""
    seat = event.payload.get("seat")
    if event.kind == TIMEOUT_ORDER:
        orders[seat] = event.payload.get("level")
    elif event.kind == "SeatReplaced":
        orders.pop(seat, None)   # a new player has given no order
    elif event.kind == "TurnTimedOut" and "ordered" in event.payload:
        level = event.payload.get("level")
        if (event.payload["ordered"] is not True or event.payload.get("policy") != "bot"
                or level is None or orders.get(seat) != level):
            raise Broken(f"{said} says the player's own order chose the bot, but no order of "
                         "theirs for that bot was in force")


def _reveal_place(found: _Record, reveals: list[Event]) -> None:
    if found.version == 1:
        if reveals:
            raise Broken("a record of schema version 1 has its seed in GameCreated and no "
                         "SeedRevealed")
        return
    if len(reveals) != 1:
        raise Broken("the record reveals no seed" if not reveals
                     else "the record reveals the seed more than once")
    after = found.events[reveals[0].seq:]
    late = next((e for e in after if e.kind not in AFTER_REVEAL), None)
    if late is not None:
        raise Broken(f"{_said(late, found.names)} comes after the seed's reveal: only table "
                     "talk and an import's mark may")


# --- rule family 4: the seed, by the version the record's first event says ----------------------

def _seed(found: _Record, verdict: Verdict) -> tuple[_Record, str]:
    start = found.events[0].payload
    if found.version == 1:
        return _seed_v1(found, start, verdict)
    reveal = next(e for e in found.events if e.kind == REVEAL_EVENT).payload
    if found.version == 2:
        return _seed_committed(found, start, reveal, verdict, "commitment",
                               "the service chose the seed alone and committed to it before "
                               "play (a site admin could have given it)")
    randomness = start.get("randomness")
    if "commitment" in start or "seed" in start or not isinstance(randomness, dict):
        raise Broken("GameCreated of schema version 3 holds its randomness, and no seed or "
                     "commitment beside it")
    if randomness.get("scheme") == randomness_scheme.GIVEN and set(randomness) == {
            "scheme", "commitment"}:
        return _seed_committed(found, randomness, reveal, verdict, "commitment",
                               "the seed was given by a site admin")
    if randomness.get("scheme") == randomness_scheme.SCHEME and set(randomness) == {
            "scheme", "commitment", "contributions"}:
        return _seed_derived(found, randomness, reveal, verdict)
    raise Broken("GameCreated's randomness is of no scheme this verifier knows")


def _seed_v1(found: _Record, start: dict, verdict: Verdict) -> tuple[_Record, str]:
    if "commitment" in start or "randomness" in start:
        raise Broken("a record that starts with a commitment is not one from before "
                     "commitments: its GameCreated says schema version 1")
    if not is_seed(start.get("seed")):
        raise Broken("GameCreated of schema version 1 shows its seed, a whole number from 0 "
                     "to 2**256 - 1")
    found.seed = start["seed"]
    verdict.fair_reason = ("recorded before commitments: GameCreated shows the seed, so whoever "
                           "made the game knew it")
    return found, "recorded before commitments: GameCreated shows the seed itself"


def _seed_committed(found: _Record, published: dict, reveal: dict, verdict: Verdict, key: str,
                    why: str) -> tuple[_Record, str]:
    start = found.events[0].payload
    if found.version == 2 and ("seed" in start or "randomness" in start):
        raise Broken("GameCreated of schema version 2 publishes a commitment, not the seed")
    if not _hex(published.get(key), HASH_DIGITS):
        raise Broken("GameCreated publishes no commitment")
    if set(reveal) != {"seed", "salt", "schema_version"} or not _hex(reveal["salt"], 64):
        raise Broken("SeedRevealed shows exactly the seed and the salt (64 lowercase hex "
                     "digits)")
    seed = _decimal_seed(reveal["seed"])
    if commitment(seed, reveal["salt"]) != published[key]:
        raise Broken("the revealed seed and salt do not match GameCreated's commitment")
    found.seed = seed
    verdict.fair_reason = why
    return found, "the revealed seed and salt match the commitment GameCreated published"


def _seed_derived(found: _Record, randomness: dict, reveal: dict,
                  verdict: Verdict) -> tuple[_Record, str]:
    given = randomness["contributions"]
    if not (isinstance(given, list) and len(given) == len(found.names) and all(
            isinstance(c, dict) and set(c) == {"text", "by"}
            and randomness_scheme.is_contribution(c["text"])
            and c["by"] in (randomness_scheme.BY_PLAYER, randomness_scheme.BY_SERVICE)
            for c in given)):
        raise Broken("GameCreated's randomness holds one contribution per seat, each a text "
                     "given by a player or by Chasqui")
    if not _hex(randomness["commitment"], HASH_DIGITS):
        raise Broken("GameCreated publishes no commitment to the service's secret")
    if set(reveal) != {"secret", "seed", "schema_version"} or not randomness_scheme.is_secret(
            reveal["secret"]):
        raise Broken("SeedRevealed shows exactly the service's secret (64 lowercase hex "
                     "digits) and the seed")
    seed = _decimal_seed(reveal["seed"])
    if randomness_scheme.service_commitment(reveal["secret"]) != randomness["commitment"]:
        raise Broken("the revealed secret does not match the commitment GameCreated published")
    if randomness_scheme.derive_seed(reveal["secret"], [c["text"] for c in given]) != seed:
        raise Broken("the revealed seed is not the one the secret and the contributions give")
    found.seed, found.secret = seed, reveal["secret"]
    players = sum(c["by"] == randomness_scheme.BY_PLAYER for c in given)
    verdict.contributions = {"players": players, "chasqui": len(given) - players}
    imported = any(e.kind == IMPORTED for e in found.events)
    verdict.proven = players > 0 and not imported
    verdict.fair_reason = (
        "imported: its seed was known to whoever exported it" if imported else
        "every contribution was drawn by Chasqui, so Chasqui alone could have steered the seed"
        if players == 0 else
        f"the seed comes from the service's committed secret and {len(given)} contributions "
        f"({players} from players, {len(given) - players} from Chasqui)")
    return found, (f"the seed derives from the committed secret and the contributions "
                   f"({players} from players, {len(given) - players} from Chasqui)")


def _decimal_seed(text: Any) -> int:
    if not (isinstance(text, str) and CANONICAL_DECIMAL.fullmatch(text) and is_seed(int(text))):
        raise Broken("the revealed seed must be written in decimal without a sign or a leading "
                     "zero, from 0 to 2**256 - 1")
    return int(text)


# --- rule family 5: the replay, and the game's name, status and outcome -------------------------

@dataclass
class _Course:
    """The game as the replay has it after each event: the engine's state and the status,
    and a copy of the state right after each event a rewind goes back to (``kept``), so a
    rewind costs one copy and one reshuffle, never a replay from the start: a forger's record
    of thousands of rewinds is checked in time linear in its size."""
    game: Any
    state: dict
    seed: int
    reshuffles: bool
    events: list[Event] = field(default_factory=list)
    status: str = "active"
    kept: dict[int, dict] = field(default_factory=dict)
    bots: set[int] = field(default_factory=set)  # the seats a bot plays now
    proposals_used: set[int] = field(default_factory=set)


# What each kind of event needs the game's status to be, and the status it leaves.
STATUS_NEEDED = {
    "MoveMade": ("active",), "TurnTimedOut": ("active",), "RolledBack": ("active", "paused",
                                                                         "finished"),
    "Undone": ("active",), "SeatReplaced": ("active", "paused"),
    "SeatBotted": ("active", "paused"), "GamePaused": ("active",), "GameResumed": ("paused",),
    "GameAbandoned": ("active", "paused"), "VacationStarted": ("active", "paused"),
    "MessagePosted": ("active", "paused", "finished"), "RollbackProposed": ("active", "paused"),
    "RollbackConsented": ("active", "paused"), "RollbackDeclined": ("active", "paused"),
    TIMEOUT_ORDER: ("active", "paused"), REVEAL_EVENT: ENDED,
}
STATUS_LEFT = {"GamePaused": "paused", "GameResumed": "active", "GameAbandoned": "abandoned"}


def _replay(found: _Record, verdict: Verdict) -> tuple[_Record, str]:
    """Every event in order on the game's state: each move legal for its seat when it was
    made, each rewind to the state right after its target with the service's own reshuffle
    step (``history.apply_step``), and once the game is over (in a record with a revealed
    seed) the reveal comes next."""
    game_name = found.events[0].payload.get("game")
    if not isinstance(game_name, str):
        raise Broken("GameCreated names no game")
    replayed = _replayable(found)
    try:
        game = get_game(game_name)
    except IllegalAction:
        raise Broken(f"GameCreated names no game Chasqui knows: {_shown(game_name)}") from None
    course = _Course(game, setup(game, replayed[0]), found.seed, reshuffles(replayed[0]),
                     replayed)
    targets = {e.payload["to_seq"] for e in replayed if e.kind in REWIND_EVENTS}
    moves, revealed_yet = 0, False
    for event in replayed:
        if event.seq > 1:
            if (found.version > 1 and course.status in ENDED and not revealed_yet
                    and event.kind != REVEAL_EVENT):
                raise Broken(f"{_said(event, found.names)} comes after the game ended, before "
                             "its seed's reveal")
            _step(course, event, found.names)
        if event.seq in targets:
            course.kept[event.seq] = clone(course.state)
        moves += event.kind in ENGINE_EVENTS
        revealed_yet = revealed_yet or event.kind == REVEAL_EVENT
    _stated(found, course)
    return found, (f"{moves} moves replay, each legal when made, to the game's status "
                   f"({course.status}) and outcome")


def _replayable(found: _Record) -> list[Event]:
    """The events as the service's replay reads them: GameCreated with the seed it used."""
    first = found.events[0]
    sealed = {**(first.sealed or {}), "seed": str(found.seed)}
    if found.secret is not None:
        sealed["secret"] = found.secret
    return [Event(first.seq, first.kind, first.payload, first.actor, first.recorded_at,
                  first.prev_hash, first.hash, sealed), *found.events[1:]]


def _step(course: _Course, event: Event, names: list[str]) -> None:
    needed = STATUS_NEEDED.get(event.kind)
    if needed is not None and course.status not in needed:
        raise Broken(f"{_said(event, names)} while the game was {course.status}")
    game, state = course.game, course.state
    if event.kind in ENGINE_EVENTS:
        seat, action = event.payload.get("seat"), event.payload.get("action")
        if seat not in game.to_act(state):
            raise Broken(f"{_said(event, names)}: {names[seat]} was not to act")
        try:
            game.find_legal_action(state, seat, action)
        except IllegalAction as error:
            raise Broken(f"{_said(event, names)} was not a legal move: {error}") from None
        game.apply_in_place(state, seat, action)
    elif event.kind in REWIND_EVENTS:
        # The state right after ``to_seq``, and in a game that reshuffles at rewinds the
        # reshuffle the service's replay applies (``history.apply_step``): what
        # ``history.rebuild`` of the events up to this one gives, without replaying them.
        target = course.kept[event.payload["to_seq"]]
        if course.reshuffles and target.get("epoch") != state.get("epoch"):
            _consented(course, event, names)
        course.state = clone(target)
        if course.reshuffles:
            apply_step(game, course.state, event, course.seed)
        if course.status == "finished":
            course.status = "active"
    elif event.kind == "SeatBotted":
        course.bots.add(event.payload["seat"])
    elif event.kind == "SeatReplaced":
        course.bots.discard(event.payload["seat"])
    course.status = STATUS_LEFT.get(event.kind, course.status)
    if course.status == "active" and course.game.outcome(course.state) is not None:
        course.status = "finished"


def _consented(course: _Course, event: Event, names: list[str]) -> None:
    """A rewind whose span made something known (the epoch differs) must be an admin's
    rollback that names a proposal of it which every seat held by a person agreed to, with
    nothing but table talk, vacations and consents between (``history.consents_to``).  Each
    proposal is used once, so the spans checked never overlap."""
    number = event.payload.get("proposal")
    proposed = (course.events[number - 1] if type(number) is int and 1 < number < event.seq
                else None)
    if (event.kind != "RolledBack" or proposed is None or proposed.kind != "RollbackProposed"
            or number in course.proposals_used or proposed.actor != event.actor
            or proposed.payload.get("to_seq") != event.payload["to_seq"]):
        raise Broken(f"{_said(event, names)} takes back moves that showed something, without "
                     "a proposal of it that every player agreed to")
    course.proposals_used.add(number)
    agreed = consents_to(number, course.events[number:event.seq - 1])
    people = set(range(len(names))) - course.bots
    if agreed is None or not people <= agreed:
        raise Broken(f"{_said(event, names)} takes back moves that showed something, but not "
                     "every player agreed to its proposal while it was open")


def _stated(found: _Record, course: _Course) -> None:
    """The game's name, status and outcome the record states must be the recomputed ones."""
    stated, name = found.data["game"], found.events[0].payload["game"]
    if stated["game"] != name:
        raise Broken(f"the record says the game is {_shown(stated['game'])}; its GameCreated "
                     f"says {_shown(name)}")
    if course.status not in ENDED:
        raise Broken(f"the events leave the game {course.status}: a record is of a game that "
                     "is over")
    if stated["status"] != course.status:
        raise Broken(f"the record says the game is {_shown(stated['status'])}; its events say "
                     f"{course.status}")
    outcome = outcome_json(course.game.outcome(course.state))
    if outcome != found.data["outcome"]:
        raise Broken(f"replaying the moves gives the outcome {outcome}, not the recorded "
                     f"{_shown(found.data['outcome'])}")


# --- events in words ----------------------------------------------------------------------------

EVENT_WORDS = {
    "GameCreated": "the game's creation", "MoveMade": "a move by {name}",
    "TurnTimedOut": "{name}'s turn running out", "RolledBack": "a rollback",
    "Undone": "{name} taking back a move", "SeatReplaced": "a new player for {name}'s seat",
    "SeatBotted": "a bot taking {name}'s seat", "GamePaused": "a pause",
    "GameResumed": "the game resuming", "GameAbandoned": "the game's abandonment",
    "VacationStarted": "{name}'s vacation starting", "VacationEnded": "{name}'s vacation ending",
    "MessagePosted": "a message from {name}", REVEAL_EVENT: "the seed's reveal",
    "RollbackProposed": "a proposed rollback", "RollbackConsented": "{name}'s consent to a rollback",
    "RollbackDeclined": "{name}'s refusal of a rollback",
    TIMEOUT_ORDER: "{name}'s order for when their time runs out", IMPORTED: "the game's import",
}


def _said(event: Event, names: list[str]) -> str:
    """"event 12 (a move by Ana)": how a verdict names an event, never by a code."""
    seat = event.payload.get("seat")
    name = (names[seat] if type(seat) is int and 0 <= seat < len(names)
            else "a seat")
    words = EVENT_WORDS.get(event.kind)
    return f"event {event.seq} ({words.format(name=name)})" if words else f"event {event.seq}"
