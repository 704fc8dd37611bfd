"""A forger who changes GameCreated's shares of the chance, re-hashing everything, is caught
by the start mail a player kept: relabelling the service's share as a player's (which would
make the verdict "proven") or changing a share with the seed recomputed from the revealed
secret both rewrite the first event, whose hash every later mail's fingerprint covers."""
from __future__ import annotations

from service.mail import witness
from service.store import randomness
from tests.service import record_kit as kit
from tests.service.test_fair_play import play_to_the_end, record_of
from tests.service.test_witness_mails import failed, raw_mails, verdict_of


def shares(record) -> list[dict]:
    return record["events"][0]["payload"]["randomness"]["contributions"]


def relabelled(record):
    shares(record)[0]["by"] = randomness.BY_PLAYER


def share_changed_and_seed_recomputed(record):
    shares(record)[0]["text"] = "a share the forger prefers"
    reveal = record["events"][-1]["payload"]
    reveal["seed"] = str(randomness.derive_seed(reveal["secret"],
                                                [c["text"] for c in shares(record)]))


def test_a_relabelled_share_passes_alone_but_fails_against_the_kept_start_mail(
        app, client, new_game):
    data, secrets = new_game(players=3, seed=None)  # every share drawn by Chasqui
    kept = raw_mails(app, "p0@example.com")[0]
    play_to_the_end(client, secrets, pick=-1)
    genuine = record_of(client, secrets[0])
    assert {c["by"] for c in shares(genuine)} == {randomness.BY_SERVICE}
    assert verdict_of(client, genuine)["fair"] == "not proven"
    forged = kit.forged(genuine, relabelled)
    alone = verdict_of(client, forged)
    assert alone["ok"] and alone["fair"] == "proven", "the chain alone cannot tell"
    caught = verdict_of(client, forged, [kept])
    assert not caught["ok"] and failed(caught) == [witness.WITNESS_CHECK]
    assert verdict_of(client, genuine, [kept])["ok"]


def test_a_changed_share_with_its_seed_recomputed_fails_the_replay_or_the_kept_mail(
        app, client, new_game):
    data, secrets = new_game(players=3, seed=None)
    kept = raw_mails(app, "p0@example.com")[0]
    play_to_the_end(client, secrets, pick=-1)
    forged = kit.forged(record_of(client, secrets[0]), share_changed_and_seed_recomputed)
    caught = verdict_of(client, forged, [kept])
    assert not caught["ok"] and witness.WITNESS_CHECK in failed(caught)
