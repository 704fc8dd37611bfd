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
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable

from engine import IllegalAction, get_game
from engine.text import phrase
from service.store import events as store
from service.store import randomness
from service.store.history import REVEAL_EVENT, created, effective_moves, seed_of
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
    return ({"randomness": {"scheme": randomness.GIVEN, "commitment": commitment(seed, salt)}},
            {"seed": str(seed), "salt": salt})


def contribution(text: str, by: str) -> dict:
    """One seat's share of the chance as GameCreated lists it: the text, and who gave it
    (``randomness.BY_PLAYER``, or ``randomness.BY_SERVICE`` for a seat that gave none)."""
    return {"text": text, "by": by}


def defaults(count: int) -> list[dict]:
    """Every seat's share drawn by the service: a game whose seats were all taken at once
    (the admin API, a rematch, the demo), where no player had a page to give theirs on."""
    return [contribution(randomness.default_contribution(), randomness.BY_SERVICE)
            for _ in range(count)]


def commit_shares(secret: str, contributions: list[dict]) -> tuple[dict, dict, int]:
    """(what GameCreated publishes, what it keeps sealed, the seed) for the service's secret
    ``secret``, committed to before the players gave ``contributions`` (one per seat, in seat
    order).  The seed is sealed beside the secret so that replaying reads it directly."""
    seed = randomness.derive_seed(secret, [c["text"] for c in contributions])
    public = {"randomness": {"scheme": randomness.SCHEME,
                             "commitment": randomness.service_commitment(secret),
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
    if isinstance(chance, dict) and chance.get("scheme") == randomness.SCHEME:
        secret, shares = shown.get("secret"), chance.get("contributions")
        if not (randomness.is_secret(secret) and isinstance(shares, list)
                and all(isinstance(c, dict) and randomness.is_contribution(c.get("text"))
                        for c in shares)):
            return None
        matches = (randomness.service_commitment(secret) == chance.get("commitment")
                   and randomness.derive_seed(secret, [c["text"] for c in shares]) == seed)
        return seed if matches else None
    if isinstance(chance, dict) and chance.get("scheme") != randomness.GIVEN:
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


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class Verdict:
    """What ``check_record`` found: each check, and whether all passed."""
    game_id: str | None = None
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    @property
    def readable(self) -> bool:
        """Whether the input was a record at all (its shape passed)."""
        return bool(self.checks) and self.checks[0].ok

    def add(self, name: str, ok: bool, detail: str) -> bool:
        self.checks.append(Check(name, ok, detail))
        return ok

    def as_json(self) -> dict:
        return {"game": self.game_id, "ok": self.ok,
                "checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in self.checks]}


SHAPE = "the record's shape"


def check_text(raw: bytes | str, limit: int) -> Verdict:
    """``check_record`` of a record's JSON text (a file, a paste, a request body) of at most
    ``limit`` bytes, read by the shared rules (bounded depth, finite numbers)."""
    try:
        data = json_document(raw, phrase("the record"), size=limit)
    except BadInput:  # not JSON, not UTF-8, too large, or nested beyond reason
        verdict = Verdict()
        verdict.add(SHAPE, False, "not JSON: upload or paste the record file as downloaded")
        return verdict
    return check_record(data)


def check_record(data: Any) -> Verdict:
    """Check a record (``record``'s JSON) as a stranger would: the shape, the hash chain,
    the commitment against the revealed seed and salt, and a replay of every effective move,
    each legal when made, to the recorded outcome.  Changes nothing anywhere."""
    verdict = Verdict()
    events = _parsed(data, verdict)
    if events is None:
        return verdict
    game_id = verdict.game_id
    chain = store.verify_chain(game_id, events)
    if not verdict.add("chain", chain.ok, f"{chain.events} events link and hash exactly"
                       if chain.ok else f"broken at seq {chain.broken_at}: {chain.reason}"):
        return verdict
    seed = _checked_seed(events, verdict)
    if seed is None:
        return verdict
    _replayed(data, events, seed, verdict)
    return verdict


def _parsed(data: Any, verdict: Verdict) -> list[Event] | None:
    shape = SHAPE
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        verdict.add(shape, False, f"not a Chasqui game record (format must be {RECORD_FORMAT!r})")
        return None
    if data.get("version") != RECORD_VERSION:
        verdict.add(shape, False, f"unknown record version {data.get('version')!r}")
        return None
    game = data.get("game")
    if not isinstance(game, dict) or not isinstance(game.get("id"), str):
        verdict.add(shape, False, "game.id is missing")
        return None
    verdict.game_id = game["id"]
    raw = data.get("events")
    if not isinstance(raw, list) or not raw:
        verdict.add(shape, False, "events must be a non-empty list")
        return None
    events = []
    for index, item in enumerate(raw):
        event = _event(item)
        if event is None:
            verdict.add(shape, False, f"events[{index}] is malformed")
            return None
        events.append(event)
    if events[0].kind != "GameCreated":
        verdict.add(shape, False, "the first event must be GameCreated")
        return None
    verdict.add(shape, True, f"a record of game {game['id']}, {len(events)} events")
    return events


def _event(item: Any) -> Event | None:
    if not isinstance(item, dict):
        return None
    try:
        seq, kind, payload, actor = item["seq"], item["kind"], item["payload"], item["actor"]
        at = store.utc(datetime.fromisoformat(item["recorded_at"]))
        prev_hash, digest, nonce = item["prev_hash"], item["hash"], item.get("nonce")
    except (KeyError, TypeError, ValueError):
        return None
    if not (type(seq) is int and isinstance(kind, str) and isinstance(payload, dict)
            and isinstance(actor, str) and isinstance(prev_hash, str) and isinstance(digest, str)
            and (nonce is None or isinstance(nonce, str))):
        return None
    return Event(seq, kind, payload, actor, at, prev_hash, digest,
                 None if nonce is None else {"nonce": nonce})


def _checked_seed(events: list[Event], verdict: Verdict) -> int | None:
    """The seed to replay with: the revealed one, once it matches the commitment; or, for a
    game from before fair play, the one its GameCreated shows."""
    name = "the seed"
    start = events[0].payload
    if "commitment" not in start and "randomness" not in start:
        try:
            seed = seed_of(events[0])
        except ValueError:
            verdict.add(name, False, "GameCreated has neither a commitment nor a seed")
            return None
        verdict.add(name, True, "recorded before commitments: GameCreated shows the seed itself")
        return seed
    reveals = [e for e in events if e.kind == REVEAL_EVENT]
    if len(reveals) != 1:
        verdict.add(name, False, "the record reveals no seed" if not reveals
                    else "the record reveals the seed more than once")
        return None
    seed = revealed_seed(start, reveals[0].payload)
    if seed is None:
        verdict.add(name, False, "what SeedRevealed shows does not match GameCreated's "
                                 "commitment")
        return None
    verdict.add(name, True, f"the seed revealed at seq {reveals[0].seq} matches the commitment "
                            "GameCreated published")
    return seed


def _replayed(data: dict, events: list[Event], seed: int, verdict: Verdict) -> None:
    """Every effective move, checked legal for its seat on the state it was made on, then
    the outcome compared with the one the record states."""
    name = "the replay"
    try:
        start = created(events)
        moves = effective_moves(events)
        game = get_game(start["game"])
        state = game.setup(start["players"], seed, start["options"])
        for event in moves:
            seat, action = event.payload.get("seat"), event.payload.get("action")
            if seat not in game.to_act(state):
                verdict.add(name, False, f"seq {event.seq}: seat {seat!r} was not to act")
                return
            game.find_legal_action(state, seat, action)
            game.apply_in_place(state, seat, action)
    except IllegalAction as error:
        verdict.add(name, False, f"a move does not replay: {error}")
        return
    except Exception as error:  # noqa: BLE001  a stranger's record may hold anything
        verdict.add(name, False, f"the events do not replay ({type(error).__name__})")
        return
    outcome = outcome_json(game.outcome(state))
    if outcome != data.get("outcome"):
        verdict.add(name, False, f"replaying {len(moves)} moves gives the outcome {outcome}, "
                                 f"not the recorded {data.get('outcome')}")
        return
    verdict.add(name, True, f"{len(moves)} moves replay, each legal, to the recorded outcome")
