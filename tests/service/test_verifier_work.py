"""The public verifier's work grows with the record, not with its square: a forger's record of
thousands of rewinds (each a rollback of nothing, legal and re-hashed) is checked with one
reshuffle per rewind, so a 4 MB record cannot hold a worker for hours."""
from __future__ import annotations

import random

import pytest

from engine import get_game
from engine.core import without_label
from service.store import fairness
from service.store import randomness
from service.store.history import rebuild
from tests import independent_verifier
from tests.service import record_kit as kit


def created(game_id: str, game, names: list[str], secret: str):
    """(a writer holding a GameCreated of schema version 3 whose seed derives from ``secret``
    and one share per player, every share a player's; that seed)."""
    texts = [f"share of {name}" for name in names]
    seed = randomness.derive_seed(secret, texts)
    writer = kit._Writer(game_id)
    writer.add("GameCreated", {"game": game.name, "rules_version": game.rules_version,
                               "players": names, "options": {}, "clock": {},
                               "randomness": {
                                   "scheme": randomness.SCHEME,
                                   "commitment": randomness.service_commitment(secret),
                                   "contributions": [{"text": t, "by": randomness.BY_PLAYER}
                                                     for t in texts]}},
               "organiser:1", sealed={"seed": str(seed)})
    return writer, seed


def record_of_rewinds(rewinds: int, game_name: str = "incan_gold") -> dict:
    """A finished game of schema version 3 whose first ``rewinds`` events after GameCreated
    each roll the game back to the event before them, then random legal moves to the end."""
    game, names, secret = get_game(game_name), ["Ana", "Bo", "Cy"], "ab" * 32
    writer, seed = created("rewinds", game, names, secret)
    for _ in range(rewinds):
        writer.add("RolledBack", {"to_seq": writer.seq, "reason": "again"}, "admin:1")
    game, state = rebuild(writer.stored)
    chooser = random.Random(5)
    while game.outcome(state) is None:
        random_move(writer, game, state, chooser)
    return revealed_record(writer, game, state, game_name, secret, seed)


def test_a_record_of_many_rewinds_is_checked_with_one_reshuffle_per_rewind(monkeypatch):
    record = record_of_rewinds(120)
    game_type = type(get_game("incan_gold"))
    real, calls = game_type.reshuffle_unseen, []

    def counted(self, state, key):
        calls.append(key)
        return real(self, state, key)

    monkeypatch.setattr(game_type, "reshuffle_unseen", counted)
    verdict = fairness.check_record(record)
    assert verdict.ok and verdict.fair == "proven", verdict.as_json()
    assert len(calls) == 120


def test_a_record_of_many_rewinds_verifies_alike_with_both_verifiers():
    record = record_of_rewinds(7)
    assert fairness.check_record(record).ok
    assert independent_verifier.verify(record) == (True, "proven", "")


def record_of_random_rewinds(game_name: str, players: int, pick_seed: int,
                             consented: bool = True) -> dict:
    """A finished game of schema version 3 in which, now and then, an admin rolls back to a
    random earlier event (a rollback of a rollback included), with every seat's consent unless
    ``consented`` is false; the state always goes on from the service's own replay
    (``history.rebuild``)."""
    game, names, secret = get_game(game_name), ["Ana", "Bo", "Cy", "Di"][:players], "cd" * 32
    writer, seed = created(f"random-rewinds-{pick_seed}", game, names, secret)
    chooser, state = random.Random(pick_seed), game.setup(names, seed, {})
    while game.outcome(state) is None:
        if writer.seq > 3 and chooser.random() < 0.08:
            kit.rewind(writer, chooser.randrange(1, writer.seq), len(names), consented)
            game, state = rebuild(writer.stored)
            continue
        random_move(writer, game, state, chooser)
    return revealed_record(writer, game, state, game_name, secret, seed)


@pytest.mark.parametrize("game_name, players", kit.GAMES.items())
@pytest.mark.parametrize("pick_seed", [1, 4])
def test_records_of_random_rollbacks_verify_alike_with_both_verifiers(game_name, players,
                                                                       pick_seed):
    record = record_of_random_rewinds(game_name, players, pick_seed)
    assert sum(e["kind"] == "RolledBack" for e in record["events"]) >= 1
    verdict = fairness.check_record(record)
    assert verdict.ok and verdict.fair == "proven", verdict.as_json()
    assert independent_verifier.verify(record) == (True, "proven", "")


@pytest.mark.parametrize("game_name, players", kit.GAMES.items())
def test_a_rollback_past_something_shown_without_every_consent_fails_both_verifiers(game_name,
                                                                                    players):
    record = record_of_random_rewinds(game_name, players, 4, consented=False)
    verdict = fairness.check_record(record)
    assert not verdict.ok and "without a proposal" in str(verdict.as_json())
    assert independent_verifier.verify(record)[:1] == (False,)
    assert independent_verifier.verify(record)[2] == "5.8"


def random_move(writer, game, state: dict, chooser: random.Random) -> None:
    """A random legal move by the first seat to act, made on ``state`` and recorded."""
    seat = game.to_act(state)[0]
    chosen = chooser.choice(game.legal_actions(state, seat))
    game.apply_in_place(state, seat, without_label(chosen))
    writer.add("MoveMade", {"seat": seat, "action": without_label(chosen),
                            "label": chosen.get("label", ""), "seq_seen": writer.seq},
               f"seat:{seat}")


def revealed_record(writer, game, state: dict, game_name: str, secret: str, seed: int) -> dict:
    """The finished game's record once its seed is revealed."""
    writer.add("SeedRevealed", {"secret": secret, "seed": str(seed)}, "system")
    return {"format": "chasqui-record", "version": 1,
            "game": {"id": writer.game_id, "game": game_name, "status": "finished"},
            "outcome": fairness.outcome_json(game.outcome(state)), "events": writer.events}
