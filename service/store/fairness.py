"""Provable fair play: a secret seed committed at the start, revealed at the end, and a public
record of a finished game that anyone can check (``docs/fairness.md``).

While a game runs nobody may know its seed: it decides every hand, deck and future draw, so
whoever knew it would know the game.  So a new game's seed is 256 bits from ``secrets``
(unless a site admin gives one), GameCreated publishes only ``commitment(seed, salt)``, and
the seed and a random salt are sealed with that event (``store.Event.sealed``, a column no
page, mail, export or API a player or game admin can reach ever reads out).  When the game
ends, ``SeedRevealed`` publishes seed and salt (``games.reveal_if_over``).  Then the game's
record (``record``: every event with its nonce) lets anyone check, without trusting this
service, that the commitment matches, that the hash chain is intact and that replaying every
move through the engine, each one legal when it was made, ends in the recorded outcome
(``check_record``; the ``/verify`` page and ``flask chasqui verify-record``).

Games started before fair play have their seed in GameCreated's payload and no nonces; their
record checks the chain and the replay, and says that there was no commitment."""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable

from engine import IllegalAction, get_game
from engine.text import phrase
from service.store import events as store
from service.store.history import (REVEAL_EVENT, created, effective_moves, effective_steps,
                                   replay, seed_of)
from service.store.events import Event
from service.core.validation import BadInput, json_document

SEED_BITS = 256
SALT_BYTES = 32
COMMITMENT_TAG = "chasqui-seed-commitment-v1"
ENDED = ("finished", "abandoned")
REVEALER = "system"
RECORD_FORMAT = "chasqui-record"
RECORD_VERSION = 1


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


def is_seed(seed: Any) -> bool:
    """A seed a game may have: a whole number of at most ``SEED_BITS`` bits, not negative."""
    return type(seed) is int and 0 <= seed < 2 ** SEED_BITS


def commitment(seed: int, salt: str) -> str:
    """SHA-256, in lowercase hex, of the ASCII text ``chasqui-seed-commitment-v1:<seed>:<salt>``
    (the seed in decimal without leading zeros, the salt as the 64 lowercase hex digits
    GameCreated's reveal shows): simple to recompute in any language."""
    return hashlib.sha256(f"{COMMITMENT_TAG}:{seed}:{salt}".encode("ascii")).hexdigest()


def commit(seed: int) -> tuple[dict, dict]:
    """(what GameCreated's payload publishes, what its event keeps sealed) for ``seed``.
    The seed is sealed as decimal text: JSON readers elsewhere lose integers beyond 2**53."""
    salt = secrets.token_hex(SALT_BYTES)
    return {"commitment": commitment(seed, salt)}, {"seed": str(seed), "salt": salt}


def reveal_payload(first: Event) -> dict | None:
    """SeedRevealed's payload for the game GameCreated ``first`` began, or None when it
    sealed no seed (a game from before fair play, whose seed its payload shows)."""
    sealed = first.sealed or {}
    if "seed" not in sealed:
        return None
    return {"seed": sealed["seed"], "salt": sealed["salt"]}


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
    if "commitment" not in start:
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
    shown = reveals[0].payload
    seed_text, salt = shown.get("seed"), shown.get("salt")
    if not (isinstance(seed_text, str) and seed_text.isascii() and seed_text.isdigit()
            and len(seed_text) <= len(str(2 ** SEED_BITS)) and isinstance(salt, str)
            and salt.isascii()):
        verdict.add(name, False, "SeedRevealed must show the seed in decimal and the salt")
        return None
    if commitment(int(seed_text), salt) != start["commitment"]:
        verdict.add(name, False, "the revealed seed and salt do not match GameCreated's "
                                 "commitment")
        return None
    verdict.add(name, True, f"the seed revealed at seq {reveals[0].seq} matches the commitment "
                            "GameCreated published")
    return int(seed_text)


class _NotToAct(ValueError):
    """A move by a seat the replayed state did not ask to act."""


def _legal_move(game):
    """The replay's check of each move on the state it was made on: its seat was to act and
    the action is one the rules allow there."""
    def check(state: dict, event: Event) -> None:
        seat, action = event.payload.get("seat"), event.payload.get("action")
        if seat not in game.to_act(state):
            raise _NotToAct(f"seq {event.seq}: seat {seat!r} was not to act")
        game.find_legal_action(state, seat, action)
    return check


def _replayed(data: dict, events: list[Event], seed: int, verdict: Verdict) -> None:
    """Every effective move, checked legal for its seat on the state it was made on, then
    the outcome compared with the one the record states."""
    name = "the replay"
    try:
        start = created(events)
        moves = effective_moves(events)
        game = get_game(start["game"])
        state = game.setup(start["players"], seed, start["options"])
        replay(game, state, effective_steps(events), seed, _legal_move(game))
    except _NotToAct as error:
        verdict.add(name, False, str(error))
        return
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
