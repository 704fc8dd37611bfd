"""Records to verify, genuine and forged, for the verifier's tests.  No tests in here.

``rehashed`` re-hashes a tampered record as a forger holding every nonce would: SHA-256 over
the canonical JSON of each event as published (its time as written), so the chain is intact
and only the rules can catch the forgery.  ``bot_record`` plays a game through the service to
its end (every seat handed to a bot); ``hand_made_v3`` builds a record of schema version 3
through the store's hashing functions, as the new seed scheme records one."""
from __future__ import annotations

import hashlib
import json
import random
from datetime import datetime, timedelta, timezone

from engine import canonical_json, get_game
from engine.core import without_label
from service.store import events as store
from service.store import fairness
from service.store import randomness
from service.store.history import rebuild
from tests.service.test_admin_support import post_form, site_admin

GAMES = {"incan_gold": 3, "machu_picchu": 2, "inca_empire": 3}


def copied(record: dict) -> dict:
    return json.loads(json.dumps(record))


def rehashed(record: dict) -> dict:
    """``record`` with every prev_hash and hash recomputed over the events as written."""
    prev = store.GENESIS
    for event in record["events"]:
        content = {key: event[key] for key in ("seq", "kind", "payload", "actor", "recorded_at")}
        content["game"] = record["game"]["id"]
        if event.get("nonce") is not None:
            content["nonce"] = event["nonce"]
        event["prev_hash"] = prev
        event["hash"] = prev = hashlib.sha256(
            (prev + canonical_json(content)).encode("utf-8", "surrogatepass")).hexdigest()
    return record


def forged(record: dict, change) -> dict:
    """A copy of ``record`` changed by ``change``, renumbered 1, 2, 3… and re-hashed."""
    copy = copied(record)
    change(copy)
    for seq, event in enumerate(copy["events"], start=1):
        event["seq"] = seq
    return rehashed(copy)


def bot_record(app, client, new_game, game: str, seed: int = 9) -> dict:
    """A game played through the service to its end by bots, and its public record."""
    site_admin(app, client)
    data, secrets = new_game(game=game, players=GAMES[game], seed=seed)
    for seat in range(GAMES[game]):
        assert post_form(client, data["id"], f"seats/{seat}/bot").status_code == 303
    response = client.get(f"/play/{secrets[0]}/record.json")
    assert response.status_code == 200, response.get_data(as_text=True)
    return json.loads(response.get_data())


def rewind(writer, to_seq: int, players: int, consented: bool = True) -> None:
    """An admin's rollback as the service records one that may need consent: proposed, every
    seat agreeing, then rolled back naming the proposal (``consented``); or rolled back at
    once, as only a rollback that took back nothing shown may be."""
    payload = {"to_seq": to_seq, "reason": "misclick"}
    if consented:
        proposal = writer.seq + 1
        writer.add("RollbackProposed", {**payload, "proposal": proposal}, "admin:1")
        for seat in range(players):
            writer.add("RollbackConsented", {"proposal": proposal, "seat": seat}, f"seat:{seat}")
        payload["proposal"] = proposal
    writer.add("RolledBack", payload, "admin:1")


def hand_made_v3(game_name: str = "incan_gold", scheme: str = randomness.SCHEME,
                 by: tuple[str, ...] = (randomness.BY_PLAYER, randomness.BY_PLAYER,
                                         randomness.BY_SERVICE),
                 pick_seed: int = 3, extra: list[tuple[str, dict, str]] = (),
                 rewind_at: int | None = None) -> dict:
    """A finished game's record of schema version 3, each seat playing random legal moves
    (``pick_seed``), its GameCreated holding ``randomness`` of ``scheme``; ``extra``: events
    (kind, payload, actor) appended after the reveal; ``rewind_at``: after that many moves an
    admin rolls the game back two events, and the state goes on from the service's replay."""
    game = get_game(game_name)
    names = ["Ana", "Bo", "Cy", "Di"][:len(by)]
    secret, texts = "ab" * 32, [f"entropy of {name}" for name in names]
    if scheme == randomness.SCHEME:
        seed = randomness.derive_seed(secret, texts)
        public = {"scheme": scheme, "commitment": randomness.service_commitment(secret),
                  "contributions": [{"text": t, "by": b} for t, b in zip(texts, by)]}
        revealed = {"secret": secret, "seed": str(seed)}
    else:
        seed, salt = 2 ** 200 + 7, "cd" * 32
        public = {"scheme": scheme, "commitment": fairness.commitment(seed, salt)}
        revealed = {"seed": str(seed), "salt": salt}
    writer = _Writer("handmade3")
    writer.add("GameCreated", {"game": game_name, "rules_version": game.rules_version,
                               "players": names, "options": {}, "clock": {},
                               "randomness": public}, "organiser:1", sealed={"seed": str(seed)})
    state, chooser = game.setup(names, seed, {}), random.Random(pick_seed)
    while game.outcome(state) is None:
        if writer.seq - 1 == rewind_at:
            rewind(writer, writer.seq - 2, len(names))
            game, state = rebuild(writer.stored)
        seat = game.to_act(state)[0]
        chosen = chooser.choice(game.legal_actions(state, seat))
        action = without_label(chosen)
        game.apply_in_place(state, seat, action)
        writer.add("MoveMade", {"seat": seat, "action": action, "label": chosen.get("label", ""),
                                "seq_seen": writer.seq}, f"seat:{seat}")
    writer.add("SeedRevealed", revealed, "system")
    for kind, payload, actor in extra:
        writer.add(kind, payload, actor)
    return {"format": "chasqui-record", "version": 1,
            "game": {"id": writer.game_id, "game": game_name, "status": "finished"},
            "outcome": fairness.outcome_json(game.outcome(state)), "events": writer.events}


class _Writer:
    """Events of one game hashed by the store's own ``new_event``, schema version 3."""

    def __init__(self, game_id: str):
        self.game_id, self.events, self.stored = game_id, [], []
        self.prev, self.now = store.GENESIS, datetime(2026, 3, 1, 12, tzinfo=timezone.utc)

    @property
    def seq(self) -> int:
        return len(self.events)

    def add(self, kind: str, payload: dict, actor: str, sealed: dict | None = None) -> None:
        self.now += timedelta(minutes=1)
        event, _ = store.new_event(self.game_id, self.seq + 1, self.prev, kind,
                                   {**payload, "schema_version": 3}, actor, self.now, sealed)
        self.prev = event.hash
        self.stored.append(event)
        self.events.append({"seq": event.seq, "kind": kind, "payload": event.payload,
                            "actor": actor, "recorded_at": self.now.isoformat(
                                timespec="microseconds"),
                            "prev_hash": event.prev_hash, "hash": event.hash,
                            "nonce": event.nonce})
