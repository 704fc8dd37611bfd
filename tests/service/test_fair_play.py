"""Fair play: a sealed 256-bit seed committed in GameCreated and revealed when the game ends,
a nonce in every new event's hash, a finished game's public record that ``/verify`` and
``flask chasqui verify-record`` check, and games recorded before all this still working."""
from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta

from sqlalchemy import select

from engine import get_game
from service.store import fairness
from service.store import events as store
from service.store.loading import load
from service.store.history import seed_of
from service.store.models import GameRow, SeatRow
from tests.service.test_admin_support import (accept_offer, login, make_admin, move, post_form,
                                              site_admin, svc)


def stored_events(app, game_id):
    with svc(app).db.reading() as session:
        return store.load(session, game_id)


def play_to_the_end(client, secrets, pick=-1):
    """Every seat to act plays its ``pick``-th legal action until the game is over."""
    for _ in range(2000):
        states = [client.get(f"/api/play/{s}").get_json() for s in secrets]
        if states[0]["outcome"] is not None:
            return states[0]
        for seat in states[0]["to_act"]:
            state = client.get(f"/api/play/{secrets[seat]}").get_json()
            if state["legal_actions"]:
                response = client.post(f"/api/play/{secrets[seat]}", json={
                    "action": state["legal_actions"][pick], "seq": state["seq"]})
                assert response.status_code == 200, response.get_json()
    raise AssertionError("the game did not end")


def record_of(client, secret):
    response = client.get(f"/play/{secret}/record.json")
    assert response.status_code == 200, response.get_data(as_text=True)
    return json.loads(response.get_data())


# --- the seed --------------------------------------------------------------------------------

def test_a_new_game_commits_to_a_sealed_secret_and_derives_its_seed_as_documented(
        app, client, admin_headers):
    """Seats taken all at once (the admin API): every contribution is the service's, said so;
    the seed is the documented derivation of the sealed secret and the contributions."""
    players = [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(3)]
    ids = [client.post("/api/games", json={"game": "incan_gold", "players": players},
                       headers=admin_headers).get_json()["id"] for _ in range(2)]
    firsts = [stored_events(app, game_id)[0] for game_id in ids]
    for first in firsts:
        assert "seed" not in first.payload and "commitment" not in first.payload
        assert first.payload["schema_version"] == 3
        chance, secret = first.payload["randomness"], first.sealed["secret"]
        assert chance["scheme"] == "chasqui-seed-v2" and len(secret) == 64
        assert chance["commitment"] == hashlib.sha256(
            f"chasqui-service-commitment-v2:{secret}".encode()).hexdigest()
        texts = [c["text"] for c in chance["contributions"]]
        assert [c["by"] for c in chance["contributions"]] == ["chasqui"] * 3
        digests = ":".join(hashlib.sha256(t.encode()).hexdigest() for t in texts)
        seed = int(hashlib.sha256(f"chasqui-seed-v2:{secret}:{digests}".encode()).hexdigest(), 16)
        assert seed_of(first) == seed == int(first.sealed["seed"])
        assert len(first.nonce) == 32
    seeds = [seed_of(first) for first in firsts]
    assert seeds[0] != seeds[1] and max(seeds) > 2 ** 64  # drawn from 256 bits, not 31


def test_a_given_seed_is_recorded_as_given(app, client, new_game):
    data, _ = new_game(players=3, seed=42)
    first = stored_events(app, data["id"])[0]
    salt = first.sealed["salt"]
    assert first.payload["randomness"] == {"scheme": "given",
                                           "commitment": fairness.commitment(42, salt)}
    assert "secret" not in first.sealed


def test_a_given_seed_is_sealed_too_and_deals_the_same_game(app, client, new_game):
    data, _ = new_game(players=3, seed=42)
    first = stored_events(app, data["id"])[0]
    assert "seed" not in first.payload and seed_of(first) == 42
    with svc(app).db.reading() as session:
        state = load(session, data["id"]).state
    assert state == get_game("incan_gold").setup(["P0", "P1", "P2"], 42, {})


def test_a_seed_out_of_range_is_refused_and_nothing_is_created(app, client, admin_headers):
    players = [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(3)]
    for seed in (-1, 2 ** 256, "7", True):
        response = client.post("/api/games", json={"game": "incan_gold", "players": players,
                                                   "seed": seed}, headers=admin_headers)
        assert response.status_code == 400, seed
    with svc(app).db.reading() as session:
        assert session.scalars(select(GameRow.id)).all() == []


# --- the chain -------------------------------------------------------------------------------

def test_every_new_event_hash_covers_its_nonce_and_the_chain_verifies(app, client, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    events = stored_events(app, data["id"])
    assert store.verify_chain(data["id"], events).ok
    moved = events[1]
    without_nonce = store.event_hash(data["id"], moved.seq, moved.kind, moved.payload,
                                     moved.actor, moved.recorded_at, moved.prev_hash)
    assert moved.nonce and moved.hash != without_nonce
    stripped = [events[0], store.Event(*[getattr(moved, f) for f in (
        "seq", "kind", "payload", "actor", "recorded_at", "prev_hash", "hash")])]
    report = store.verify_chain(data["id"], stripped)
    assert not report.ok and report.broken_at == 2 and "nonce" in report.reason


def test_a_game_recorded_before_fair_play_replays_verifies_and_goes_on(app, client, admin_headers):
    """Events written the old way (seed in GameCreated's payload, schema version 1, no
    nonce, no sealed data) load, replay and verify; the moves made now join its chain with
    nonces and the chain still verifies, on the page, the API and the CLI."""
    game_id, now = "oldgame1", svc(app).clock()
    names = ["P0", "P1", "P2"]
    game = get_game("incan_gold")
    created = {"game": "incan_gold", "rules_version": game.rules_version, "seed": 1234,
               "players": names, "options": {}, "clock": {}, "schema_version": 1}
    state = game.setup(names, 1234, {})
    stay = {"type": "stay"}
    with svc(app).db.unit_of_work() as session:
        session.add(GameRow(id=game_id, game="incan_gold", status="active", created_at=now,
                            updated_at=now, head_seq=2))
        session.add_all(SeatRow(game_id=game_id, seat=i, name=n, email=f"p{i}@example.com",
                                nonce=f"n{i}") for i, n in enumerate(names))
        session.flush()
        first = store.append(session, game_id, 1, store.GENESIS, "GameCreated", created,
                             "admin", now)
        store.append(session, game_id, 2, first.hash, "MoveMade",
                     {"seat": 0, "action": stay, "label": "Stay in the temple", "seq_seen": 1,
                      "schema_version": 1}, "seat:0", now)
    game.apply_in_place(state, 0, stay)
    old = stored_events(app, game_id)
    assert [e.sealed for e in old] == [None, None] and seed_of(old[0]) == 1234
    assert store.verify_chain(game_id, old).ok
    with svc(app).db.reading() as session:
        assert load(session, game_id).state == state
    with svc(app).db.unit_of_work() as session:  # a move made now: the new way
        from service.application.games import submit_move
        submit_move(session, game_id, 1, stay, 2, "seat:1", now + timedelta(minutes=1), "x")
    events = stored_events(app, game_id)
    assert events[2].payload["schema_version"] == 3 and events[2].nonce
    assert store.verify_chain(game_id, events).ok
    assert app.test_cli_runner().invoke(args=["chasqui", "verify", game_id]).exit_code == 0
    log = client.get(f"/admin/api/games/{game_id}", headers=admin_headers).get_json()
    assert log["chain"]["ok"] and all(entry["verified"] for entry in log["log"])


def test_verify_of_an_unknown_game_exits_non_zero_with_a_message(app):
    result = app.test_cli_runner().invoke(args=["chasqui", "verify", "NOPE"])
    assert result.exit_code != 0 and "NOPE: no such game" in result.output
    assert "0 events, ok" not in result.output


# --- the end reveals -------------------------------------------------------------------------

def test_the_end_of_a_game_reveals_its_seed_and_salt_with_the_last_move(app, client, new_game):
    data, secrets = new_game(players=3, seed=5)
    final = play_to_the_end(client, secrets)
    events = stored_events(app, data["id"])
    reveal = events[-1]
    assert reveal.kind == "SeedRevealed" and reveal.actor == "system"
    assert reveal.recorded_at == events[-2].recorded_at  # written with the move that ended it
    assert reveal.payload["seed"] == "5" and reveal.payload["salt"] == events[0].sealed["salt"]
    assert [e.kind for e in events].count("SeedRevealed") == 1
    assert final["seq"] == reveal.seq and store.verify_chain(data["id"], events).ok
    with svc(app).db.reading() as session:
        assert session.get(GameRow, data["id"]).head_seq == reveal.seq


def test_an_abandoned_game_reveals_its_seed(app, client, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    assert post_form(client, data["id"], "abandon", reason="we stop").status_code == 303
    events = stored_events(app, data["id"])
    assert [e.kind for e in events[-2:]] == ["GameAbandoned", "SeedRevealed"]
    assert fairness.check_record(record_of(client, secrets[1])).ok


def test_a_revealed_game_cannot_be_rolled_back(app, client, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3, seed=5)
    play_to_the_end(client, secrets)
    before = stored_events(app, data["id"])
    response = post_form(client, data["id"], "rollback", to_seq=2, reason="again",
                         seq=before[-1].seq)
    assert response.status_code == 400 and "seed was revealed" in response.get_data(as_text=True)
    assert stored_events(app, data["id"]) == before
    page = client.get(f"/admin/games/{data['id']}").get_data(as_text=True)
    assert "can no longer be rolled back" in page and 'name="to_seq"' not in page


# --- the public record -----------------------------------------------------------------------

def test_a_finished_games_record_verifies_on_the_page_and_on_the_command_line(
        app, client, new_game, tmp_path):
    data, secrets = new_game(players=3, seed=9)
    play_to_the_end(client, secrets)
    record = record_of(client, secrets[2])
    assert record["outcome"] is not None and record["game"]["status"] == "finished"
    assert all(e["nonce"] for e in record["events"])
    assert "@" not in json.dumps(record)  # no address of anyone
    play = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    assert "verify this game" in play and f"/play/{secrets[0]}/record.json" in play
    watch_url = [line for line in play.split('"') if "/watch/" in line and line.count("/") == 4][0]
    watch = client.get(watch_url.replace("http://chasqui.test", ""))
    assert "verify this game" in watch.get_data(as_text=True)
    from_watch = client.get(watch_url.replace("http://chasqui.test", "") + "/record.json")
    assert json.loads(from_watch.get_data()) == record

    answer = client.post("/verify", json=record)
    assert answer.status_code == 200 and answer.get_json()["ok"], answer.get_json()
    assert [c["name"] for c in answer.get_json()["checks"]] == [
        "the record's shape", "chain", "the events", "the seed", "the replay"]
    page = client.post("/verify", data={"record": json.dumps(record)})
    assert page.status_code == 200 and "Verified" in page.get_data(as_text=True)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    result = app.test_cli_runner().invoke(args=["chasqui", "verify-record", str(path)])
    assert result.exit_code == 0 and f"{data['id']}: verified" in result.output
    assert "fair play: consistent, but NOT provably fair: the seed was given by a site admin" \
        in result.output


def tampered(record, change, rehash=False):
    """A copy of ``record`` changed by ``change``; ``rehash``: its hash chain recomputed
    after the change, as a forger holding every nonce could."""
    copy = json.loads(json.dumps(record))
    change(copy)
    if rehash:
        prev = store.GENESIS
        for e in copy["events"]:
            e["prev_hash"] = prev
            e["hash"] = prev = store.event_hash(
                copy["game"]["id"], e["seq"], e["kind"], e["payload"], e["actor"],
                store.utc(datetime.fromisoformat(e["recorded_at"])), prev, e["nonce"])
    return copy


def failed_checks(client, record) -> list[str]:
    verdict = client.post("/verify", json=record).get_json()
    return [c["name"] for c in verdict["checks"] if not c["ok"]]


def test_a_tampered_record_fails_the_check_that_catches_it(app, client, new_game, tmp_path):
    data, secrets = new_game(players=3, seed=9)
    play_to_the_end(client, secrets)
    record = record_of(client, secrets[0])

    def other_seed(r):
        r["events"][-1]["payload"]["seed"] = "10"

    def illegal_move(r):
        first_move = next(e for e in r["events"] if e["kind"] == "MoveMade")
        first_move["payload"]["action"] = {"type": "dance"}

    def other_outcome(r):
        r["outcome"]["winners"] = [w + 1 for w in r["outcome"]["winners"]]

    def no_nonce(r):
        r["events"][1]["nonce"] = None

    assert failed_checks(client, record) == []
    assert failed_checks(client, tampered(record, other_seed)) == ["chain"]
    assert failed_checks(client, tampered(record, other_seed, rehash=True)) == ["the seed"]
    assert failed_checks(client, tampered(record, illegal_move)) == ["chain"]
    assert failed_checks(client, tampered(record, illegal_move, rehash=True)) == ["the replay"]
    assert failed_checks(client, tampered(record, other_outcome)) == ["the replay"]
    assert failed_checks(client, tampered(record, no_nonce)) == ["the record's shape"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(tampered(record, other_outcome)))
    result = app.test_cli_runner().invoke(args=["chasqui", "verify-record", str(path)])
    assert result.exit_code == 1 and "NOT verified" in result.output


def test_the_record_is_not_published_while_the_game_runs(app, client, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    assert client.get(f"/play/{secrets[0]}/record.json").status_code == 404
    play = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    assert "verify this game" not in play
    watch_url = [part for part in play.split('"') if "/watch/" in part and part.count("/") == 4][0]
    assert client.get(watch_url.replace("http://chasqui.test", "") + "/record.json").status_code == 404
    assert client.get("/play/forged-secret/record.json").status_code in (403, 404)


def test_the_verify_page_answers_what_is_not_a_record_with_400_and_changes_nothing(app, client):
    assert client.get("/verify").status_code == 200
    for body in (b"[" * 40_000, b"not json", b'{"format": "chasqui-game"}', b"\xff\xfe"):
        response = client.post("/verify", data=body, content_type="application/json")
        assert response.status_code == 400 and response.get_json()["ok"] is False
    page = client.post("/verify", data={"record": "{}"})
    assert page.status_code == 400 and "Not verified" in page.get_data(as_text=True)


# --- what a game's admin sees while the game runs --------------------------------------------

def test_a_game_admin_sees_no_hash_or_label_of_a_move_until_the_game_is_over(app, client, new_game):
    data, secrets = new_game(players=3, seed=5)
    make_admin(app, "p0@example.com", "host password 123", games=(data["id"],))
    login(client, "p0@example.com", "host password 123")
    move(client, secrets[1], "leave", 1)
    log = client.get(f"/admin/api/games/{data['id']}").get_json()["log"]
    created, moved = log
    assert created["hash"] and moved["hash"] is None and moved["words"] == "P1 made a move"
    page = client.get(f"/admin/games/{data['id']}").get_data(as_text=True)
    assert "Leave for camp" not in page and moved_hash(app, data["id"]) not in page
    play_to_the_end(client, secrets)
    log = client.get(f"/admin/api/games/{data['id']}").get_json()["log"]
    assert log[1]["hash"] == moved_hash(app, data["id"]) and log[1]["words"] == "P1: Leave for camp"


def moved_hash(app, game_id):
    return stored_events(app, game_id)[1].hash


def test_a_site_admins_export_keeps_the_sealed_data_a_game_admin_cannot_fetch(
        app, client, admin_headers, new_game):
    """Exported and imported elsewhere, a game keeps its nonces and seed (the import test in
    test_admin_audit compares the two exports); a game's admin gets no export."""
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    export = client.get(f"/admin/api/games/{data['id']}/export", headers=admin_headers).get_json()
    assert export["version"] == 2 and export["events"][0]["sealed"]["seed"] == "42"
    assert export["events"][1]["sealed"]["nonce"] == stored_events(app, data["id"])[1].nonce
    make_admin(app, "p0@example.com", "host password 123", games=(data["id"],))
    login(client, "p0@example.com", "host password 123")
    assert client.get(f"/admin/api/games/{data['id']}/export").status_code == 403
    assert client.get(f"/admin/games/{data['id']}/export").status_code == 403


def test_a_256_bit_seed_in_a_json_column_decodes_exactly_on_postgresql():
    """orjson, which decodes PostgreSQL's JSON columns, turns integers beyond 64 bits into
    floats: a snapshot's state would replay with another seed."""
    from service.store.db import json_loads

    seed = 2 ** 255 + 12345
    for text in (json.dumps({"seed": seed}), json.dumps({"seed": seed}).encode()):
        decoded = json_loads(text)["seed"]
        assert type(decoded) is int and decoded == seed


def test_a_forged_record_with_a_consistent_chain_but_nonsense_events_fails_its_replay(app, client, new_game):
    """A record anyone could forge (hashes recomputed) with a rewind to nowhere or a game that
    does not exist is refused by the replay check, not answered with a server error."""
    data, secrets = new_game(players=3, seed=9)
    play_to_the_end(client, secrets)
    record = record_of(client, secrets[0])

    def rewind_to_nowhere(r):
        version = r["events"][-2]["payload"]["schema_version"]
        r["events"].insert(-1, {**r["events"][-2], "kind": "RolledBack",
                                "payload": {"schema_version": version}})
        for seq, e in enumerate(r["events"], start=1):
            e["seq"] = seq

    def unknown_game(r):
        r["events"][0]["payload"]["game"] = "chess"

    assert failed_checks(client, tampered(record, rewind_to_nowhere, rehash=True)) == [
        "the events"]
    assert failed_checks(client, tampered(record, unknown_game, rehash=True)) == ["the replay"]


def test_a_finished_games_record_names_no_address_of_a_player_or_an_admin(app, client, new_game):
    """The record is public to the game's players and spectators: an admin is named by id
    and a newcomer's address stays sealed with SeatReplaced, so no address reaches it."""
    site_admin(app, client)
    data, secrets = new_game(players=3)
    offered = post_form(client, data["id"], "seats/1/replace", name="Zoe",
                        email="zoe@example.com", seq="1")
    assert offered.status_code == 303
    assert accept_offer(app, "zoe@example.com").status_code == 200
    assert post_form(client, data["id"], "pause", reason="tea").status_code == 303
    assert post_form(client, data["id"], "abandon", reason="we stop").status_code == 303
    record = client.get(f"/play/{secrets[0]}/record.json")
    assert record.status_code == 200
    kinds = [e["kind"] for e in record.get_json()["events"]]
    assert {"SeatReplaced", "GamePaused", "GameAbandoned", "SeedRevealed"} <= set(kinds)
    assert "@" not in record.get_data(as_text=True)
    page = client.get(f"/admin/games/{data['id']}").get_data(as_text=True)
    assert "zoe@example.com" in page  # the game's admins still read who took the seat
