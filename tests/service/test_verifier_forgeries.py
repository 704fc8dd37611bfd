"""A verifier no forger passes: each forgery below is re-hashed with SHA-256 and the
published nonces (the chain is intact) and used to verify ``ok``; now every one fails, and a
verifier written from ``docs/fairness.md`` alone (``tests/independent_verifier.py``) agrees
with ours on every genuine record of the three games and on every forgery."""
from __future__ import annotations

import json

import pytest

from service.store import fairness
from service.store import randomness
from tests import independent_verifier
from tests.service import record_kit as kit


@pytest.fixture
def incan_gold(app, client, new_game):
    return kit.bot_record(app, client, new_game, "incan_gold")


def reveal_index(record) -> int:
    return next(i for i, e in enumerate(record["events"]) if e["kind"] == "SeedRevealed")


def rollback_after_the_reveal(r):
    """RolledBack appended after SeedRevealed, the last two moves then played again."""
    last_moves = [e for e in r["events"] if e["kind"] == "MoveMade"][-2:]
    r["events"].append({**r["events"][-1], "kind": "RolledBack", "actor": "admin:1",
                        "payload": {"to_seq": last_moves[0]["seq"] - 1, "reason": "again",
                                    "schema_version": r["events"][-1]["payload"][
                                        "schema_version"]}})
    r["events"].extend(kit.copied(move) for move in last_moves)


def reveal_in_the_middle(r):
    reveal = r["events"].pop(reveal_index(r))
    r["events"].insert(len(r["events"]) // 2, reveal)


def admin_moves_for_a_seat(r):
    next(e for e in r["events"] if e["kind"] == "MoveMade")["actor"] = "admin:1"


def a_seat_reveals(r):
    r["events"][reveal_index(r)]["actor"] = "seat:0"


def seed_with_a_leading_zero(r):
    r["events"][reveal_index(r)]["payload"]["seed"] = "0" + r["events"][reveal_index(r)][
        "payload"]["seed"]


def another_game(r):
    r["game"]["game"] = "inca_empire"


def said_abandoned(r):
    r["game"]["status"] = "abandoned"


def stripped_of_its_commitment(r):
    """The seed put into GameCreated, the commitment (or the randomness holding it) and the
    reveal taken out; the schema version still says what it said."""
    seed = int(r["events"][reveal_index(r)]["payload"]["seed"])
    del r["events"][reveal_index(r)]
    created = r["events"][0]["payload"]
    created.pop("commitment", None)
    created.pop("randomness", None)
    created["seed"] = seed


def stripped_and_said_old(r):
    """The same, and GameCreated said to be of schema version 1 (no nonce): at most
    consistent, never provably fair."""
    stripped_of_its_commitment(r)
    r["events"][0]["payload"]["schema_version"] = 1
    r["events"][0]["nonce"] = None


def time_written_with_z(r):
    r["events"][1]["recorded_at"] = r["events"][1]["recorded_at"].replace("+00:00", "Z")


FORGERIES = {
    rollback_after_the_reveal: "the events", reveal_in_the_middle: "the events",
    admin_moves_for_a_seat: "the events", a_seat_reveals: "the events",
    seed_with_a_leading_zero: "the seed", another_game: "the replay",
    said_abandoned: "the replay", stripped_of_its_commitment: "the events",
    time_written_with_z: "the record's shape",
}


@pytest.mark.parametrize("forgery", FORGERIES, ids=lambda f: f.__name__)
def test_a_rehashed_forgery_fails_the_check_that_catches_it_and_both_verifiers_agree(
        client, incan_gold, forgery):
    assert fairness.check_record(incan_gold).ok
    forged = kit.forged(incan_gold, forgery)
    verdict = client.post("/verify", json=forged)
    assert verdict.status_code == 200
    answer = verdict.get_json()
    assert not answer["ok"] and answer["fair"] == "not proven"
    assert [c["name"] for c in answer["checks"] if not c["ok"]] == [FORGERIES[forgery]]
    ok, _fair, rule = independent_verifier.verify(forged)
    assert not ok, f"the independent verifier passed {forgery.__name__}"


def test_a_record_stripped_to_look_old_is_consistent_but_never_provably_fair(client, incan_gold):
    forged = kit.forged(incan_gold, stripped_and_said_old)
    answer = client.post("/verify", json=forged).get_json()
    assert answer["ok"] and answer["fair"] == "not proven"
    assert "recorded before commitments" in answer["fair_reason"]
    assert independent_verifier.verify(forged)[:2] == (True, "not proven")
    page = client.post("/verify", data={"record": json.dumps(forged)})
    assert "NOT provably fair" in page.get_data(as_text=True)


def test_a_verdict_names_events_in_words_not_by_code(client, incan_gold):
    detail = next(c["detail"] for c in client.post(
        "/verify", json=kit.forged(incan_gold, admin_moves_for_a_seat)).get_json()["checks"]
        if not c["ok"])
    assert "event 3 (a move by P" in detail and "seq" not in detail


@pytest.mark.parametrize("game", list(kit.GAMES))
def test_both_verifiers_pass_a_genuine_record_of_each_game(app, client, new_game, game):
    record = kit.bot_record(app, client, new_game, game)
    verdict = fairness.check_record(record)
    assert verdict.ok and verdict.fair == "not proven", verdict.as_json()
    assert independent_verifier.verify(record) == (True, verdict.fair, "")


def test_a_derived_seed_is_provably_fair_and_its_contributions_are_counted(client):
    record = kit.hand_made_v3()
    answer = client.post("/verify", json=record).get_json()
    assert answer["ok"] and answer["fair"] == "proven", answer
    assert answer["contributions"] == {"players": 2, "chasqui": 1}
    assert independent_verifier.verify(record) == (True, "proven", "")
    page = client.post("/verify", data={"record": json.dumps(record)})
    assert "provably fair" in page.get_data(as_text=True)


def test_a_derived_seed_whose_every_contribution_is_the_services_is_not_provably_fair(client):
    """Rule 4.4: with no player's own contribution, the service alone could steer the seed."""
    record = kit.hand_made_v3(by=(randomness.BY_SERVICE,) * 3)
    answer = client.post("/verify", json=record).get_json()
    assert answer["ok"] and answer["fair"] == "not proven", answer
    assert answer["contributions"] == {"players": 0, "chasqui": 3}
    assert "Chasqui alone could have steered the seed" in answer["fair_reason"]
    assert independent_verifier.verify(record) == (True, "not proven", "")


def test_a_derived_seed_record_with_a_rollback_verifies_with_both():
    """A rewind replays as the service's replay does (and the independent verifier as the
    document says): the moves after it were made on the rewound state."""
    record = kit.hand_made_v3(rewind_at=6)
    assert "RolledBack" in {e["kind"] for e in record["events"]}
    verdict = fairness.check_record(record)
    assert verdict.ok and verdict.fair == "proven", verdict.as_json()
    assert independent_verifier.verify(record) == (True, "proven", "")


def test_a_seed_a_site_admin_gave_verifies_but_is_not_provably_fair(client):
    record = kit.hand_made_v3(scheme=randomness.GIVEN)
    answer = client.post("/verify", json=record).get_json()
    assert answer["ok"] and answer["fair"] == "not proven"
    assert answer["fair_reason"] == "the seed was given by a site admin"
    assert independent_verifier.verify(record) == (True, "not proven", "")


def test_an_imported_game_verifies_but_is_not_provably_fair(client):
    record = kit.hand_made_v3(extra=[("GameImported", {"source_last_hash": "e" * 64},
                                      "admin:2")])
    answer = client.post("/verify", json=record).get_json()
    assert answer["ok"] and answer["fair"] == "not proven"
    assert answer["fair_reason"].startswith("imported")
    assert independent_verifier.verify(record) == (True, "not proven", "")


def derived_seed_of_other_contributions(r):
    r["events"][0]["payload"]["randomness"]["contributions"][0]["text"] = "chosen"


def chasqui_said_to_be_a_player(r):
    r["events"][0]["payload"]["randomness"]["contributions"][2]["by"] = "player"


def contribution_missing(r):
    r["events"][0]["payload"]["randomness"]["contributions"].pop()


def commitment_beside_randomness(r):
    r["events"][0]["payload"]["commitment"] = "0" * 64


def unknown_kind(r):
    r["events"].insert(3, {**r["events"][3], "kind": "CardsPeeked"})


def rollback_to_a_later_event(r):
    r["events"].insert(3, {**r["events"][3], "kind": "RolledBack", "actor": "admin:1",
                           "payload": {"to_seq": 9, "reason": "x", "schema_version": 3}})


V3_FORGERIES = {
    derived_seed_of_other_contributions: "the seed", contribution_missing: "the seed",
    commitment_beside_randomness: "the seed", unknown_kind: "the events",
    rollback_to_a_later_event: "the events",
}


@pytest.mark.parametrize("forgery", V3_FORGERIES, ids=lambda f: f.__name__)
def test_a_forged_derived_seed_record_fails_and_both_verifiers_agree(forgery):
    forged = kit.forged(kit.hand_made_v3(), forgery)
    verdict = fairness.check_record(forged)
    assert [c.name for c in verdict.checks if not c.ok] == [V3_FORGERIES[forgery]]
    assert not independent_verifier.verify(forged)[0]


def test_who_gave_each_contribution_is_covered_by_the_chain():
    """Saying Chasqui's contribution was a player's changes GameCreated: without re-hashing
    the chain breaks; re-hashed, it only changes the count the verdict reports."""
    record = kit.hand_made_v3()
    changed = kit.copied(record)
    chasqui_said_to_be_a_player(changed)
    assert [c.name for c in fairness.check_record(changed).checks if not c.ok] == ["chain"]
    assert not independent_verifier.verify(changed)[0]


def test_a_genuine_game_with_undo_rollback_pause_talk_and_bots_verifies_with_both(
        app, client, new_game):
    """Every kind of event the service writes, by the actors it writes them with, passes."""
    from tests.service.test_admin_support import (everyone_agrees, move, post_form, site_admin,
                                                  token_in)

    site_admin(app, client)
    data, secrets = new_game(players=3, seed=9)
    assert move(client, secrets[0], "stay", 1).status_code == 200
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    assert client.post(f"/play/{secrets[0]}/undo", data={
        "seq": "2", "csrf_token": token_in(page)}).status_code == 303
    page = client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    assert client.post(f"/play/{secrets[1]}/talk", data={
        "text": "good luck", "csrf_token": token_in(page)}).status_code == 303
    assert move(client, secrets[0], "stay", 4).status_code == 200
    assert post_form(client, data["id"], "rollback", to_seq="4", reason="misclick").status_code == 303
    everyone_agrees(app, client, data["id"], secrets)
    assert post_form(client, data["id"], "pause", reason="tea").status_code == 303
    assert post_form(client, data["id"], "resume").status_code == 303
    for seat in range(3):
        assert post_form(client, data["id"], f"seats/{seat}/bot").status_code == 303
    page = client.get(f"/play/{secrets[2]}").get_data(as_text=True)  # talk after the end
    assert client.post(f"/play/{secrets[2]}/talk", data={
        "text": "well played", "csrf_token": token_in(page)}).status_code == 303
    record = json.loads(client.get(f"/play/{secrets[0]}/record.json").get_data())
    kinds = {e["kind"] for e in record["events"]}
    assert {"Undone", "MessagePosted", "RolledBack", "GamePaused", "GameResumed",
            "SeatBotted", "SeedRevealed"} <= kinds
    verdict = fairness.check_record(record)
    assert verdict.ok, verdict.as_json()
    assert independent_verifier.verify(record) == (True, "not proven", "")


def test_an_abandoned_games_record_verifies_with_both(app, client, new_game):
    from tests.service.test_admin_support import move, post_form, site_admin

    site_admin(app, client)
    data, secrets = new_game(players=3, seed=9)
    assert move(client, secrets[0], "stay", 1).status_code == 200
    assert post_form(client, data["id"], "abandon", reason="we stop").status_code == 303
    record = json.loads(client.get(f"/play/{secrets[0]}/record.json").get_data())
    assert record["events"][-1]["kind"] == "SeedRevealed"
    verdict = fairness.check_record(record)
    assert verdict.ok and record["game"]["status"] == "abandoned", verdict.as_json()
    assert independent_verifier.verify(record) == (True, "not proven", "")


def test_privileged_reads_are_shown_never_trusted_and_must_be_a_list_of_texts(client):
    """Outside the chain: adding or removing a line changes no check, and the verdict shows
    the lines as the record states them; a section of another shape fails the record."""
    read = {"who": "a Chasqui admin (admin 3)", "at": "2026-03-01T12:05:00+00:00",
            "what": "viewed Ana's seat as it was after event 4 of the record"}
    record = {**kit.hand_made_v3(), "privileged_reads": [read]}
    answer = client.post("/verify", json=record).get_json()
    assert answer["ok"] and answer["privileged_reads"] == [read]
    page = client.post("/verify", data={"record": json.dumps(record)}).get_data(as_text=True)
    assert "viewed Ana&#39;s seat as it was after event 4 of the record" in page
    for malformed in ("admin 3", [{"who": 3}], [{**read, "seq": 4}]):
        bad = {**record, "privileged_reads": malformed}
        assert [c.name for c in fairness.check_record(bad).checks if not c.ok] == [
            "the record's shape"]
        assert not independent_verifier.verify(bad)[0]


def test_a_verdict_begun_by_hand_with_a_passing_first_check_is_readable():
    """Another check (the kept mails') may run on a verdict it did not get from
    ``check_record``: a first check that passed makes it readable."""
    verdict = fairness.Verdict()
    verdict.add("the record's shape", True, "a record")
    assert verdict.readable
