"""An imported game is marked imported in its own chain (``GameImported`` by the importing
admin, naming the source's last hash) and on its play page; a game whose seed is known (a
reveal, or a seed in GameCreated) is never imported as running."""
from __future__ import annotations

import copy
import json
from datetime import datetime

import pytest

from engine import get_game
from service.store import events as store
from service.store.loading import load
from service.store.models import GameRow
from service.view.presenter import secret_for
from service.web.extensions import services
from tests.conftest import make_settings, migrated_app
from tests.service.test_admin_audit import export_of, play_until_tents_fill
from tests.service.test_admin_support import csrf_token, move, site_admin, svc
from tests.service.test_fair_play import play_to_the_end


@pytest.fixture
def elsewhere(tmp_path, clock):
    """A second installation, where the export is imported."""
    (tmp_path / "elsewhere").mkdir()
    other = migrated_app(make_settings(tmp_path / "elsewhere"), clock=clock)
    other.config["TESTING"] = True
    yield other
    services(other).db.dispose()


def rehashed(exported: dict, keep: int) -> dict:
    """The forger's export: the first ``keep`` events, every hash recomputed with the
    exported nonces, so the chain verifies."""
    forged = copy.deepcopy(exported)
    forged["events"] = forged["events"][:keep]
    prev = store.GENESIS
    for item in forged["events"]:
        nonce = (item.get("sealed") or {}).get("nonce")
        item["prev_hash"] = prev
        item["hash"] = prev = store.event_hash(
            forged["game"]["id"], item["seq"], item["kind"], item["payload"], item["actor"],
            datetime.fromisoformat(item["recorded_at"]), item["prev_hash"], nonce)
    return forged


def imported(other, admin_headers, data):
    return other.test_client().post("/admin/api/games/import", json=data, headers=admin_headers)


def test_an_imported_running_game_is_marked_in_its_chain_and_on_its_play_page(
        app, client, admin_headers, new_game, elsewhere):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    exported = export_of(client, admin_headers, data["id"])
    there = elsewhere.test_client()
    site_admin(elsewhere, there)
    upload = {"csrf_token": csrf_token(there, "/admin/"), "data": json.dumps(exported)}
    assert there.post("/admin/import", data=upload).status_code == 303
    with svc(elsewhere).db.reading() as session:
        loaded = load(session, data["id"])
        secret = secret_for(svc(elsewhere).settings, loaded, 0)
    mark = loaded.events[-1]
    assert loaded.row.status == "active" and mark.kind == "GameImported"
    assert mark.actor.startswith("admin:") and mark.actor != "admin:"
    assert mark.payload["source_last_hash"] == exported["events"][-1]["hash"]
    assert store.verify_chain(data["id"], list(loaded.events)).ok
    page = there.get(f"/play/{secret}").get_data(as_text=True)
    assert "imported from another Chasqui" in page
    admin_page = there.get(f"/admin/games/{data['id']}").get_data(as_text=True)
    assert f"imported the game; its export ended at hash {mark.payload['source_last_hash']}" \
        in admin_page
    here = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    assert "imported from another Chasqui" not in here


def test_a_finished_game_stripped_of_its_reveal_is_refused_as_running(
        app, client, admin_headers, new_game, elsewhere):
    """The forgery: export a finished game, cut the reveal and the last moves, re-hash, and
    import it as a new, running game whose seed is public.  With the reveal kept the import
    is refused; without it (the export's sealed seed is all that held it) the game is marked
    imported, so its record and pages say whoever exported it held the seed."""
    data, secrets = new_game(players=3)
    play_to_the_end(client, secrets)
    exported = export_of(client, admin_headers, data["id"])
    kinds = [e["kind"] for e in exported["events"]]
    assert kinds[-1] == "SeedRevealed"
    with_reveal = rehashed(exported, len(kinds) - 3)
    with_reveal["events"].append(copy.deepcopy(exported["events"][-1]))
    with_reveal["events"][-1]["seq"] = len(with_reveal["events"])
    with_reveal = rehashed(with_reveal, len(with_reveal["events"]))
    refused = imported(elsewhere, admin_headers, with_reveal)
    assert refused.status_code == 400 and "seed is known" in refused.get_json()["error"]
    with svc(elsewhere).db.reading() as session:
        assert session.get(GameRow, data["id"]) is None
    stripped = rehashed(exported, len(kinds) - 3)
    assert imported(elsewhere, admin_headers, stripped).status_code == 201
    with svc(elsewhere).db.reading() as session:
        loaded = load(session, data["id"])
    assert loaded.row.status == "active" and loaded.events[-1].kind == "GameImported"


def test_a_finished_game_imports_as_finished_with_its_reveal_and_the_mark(
        app, client, admin_headers, new_game, elsewhere):
    data, secrets = new_game(players=3)
    play_to_the_end(client, secrets)
    exported = export_of(client, admin_headers, data["id"])
    assert imported(elsewhere, admin_headers, exported).status_code == 201
    with svc(elsewhere).db.reading() as session:
        loaded = load(session, data["id"])
    assert loaded.row.status == "finished"
    assert [e.kind for e in loaded.events][-2:] == ["SeedRevealed", "GameImported"]


def old_way_export(game_id: str, moves: list[dict], now: datetime) -> dict:
    """An export of a game recorded before fair play: its seed in GameCreated's payload."""
    names = ["P0", "P1", "P2"]
    game = get_game("incan_gold")
    payloads = [("GameCreated", {"game": "incan_gold", "rules_version": game.rules_version,
                                 "seed": 1234, "players": names, "options": {}, "clock": {},
                                 "schema_version": 1}, "admin")]
    payloads += [("MoveMade", {"seat": i, "action": action, "label": "", "seq_seen": i + 1,
                               "schema_version": 1}, f"seat:{i}")
                 for i, action in enumerate(moves)]
    events, prev = [], store.GENESIS
    for seq, (kind, payload, actor) in enumerate(payloads, start=1):
        digest = store.event_hash(game_id, seq, kind, payload, actor, now, prev)
        events.append({"seq": seq, "kind": kind, "payload": payload, "actor": actor,
                       "recorded_at": now.isoformat(), "prev_hash": prev, "hash": digest,
                       "sealed": None})
        prev = digest
    return {"format": "chasqui-game", "version": 1,
            "game": {"id": game_id, "game": "incan_gold", "status": "active"},
            "seats": [{"seat": i, "name": n, "email": f"p{i}@example.com", "bot": False}
                      for i, n in enumerate(names)], "events": events}


def test_a_running_game_recorded_before_commitments_is_refused(admin_headers, elsewhere):
    now = svc(elsewhere).clock()
    exported = old_way_export("oldgame1", [{"type": "stay"}], now)
    response = imported(elsewhere, admin_headers, exported)
    assert response.status_code == 400 and "seed is known" in response.get_json()["error"]
    with svc(elsewhere).db.reading() as session:
        assert session.get(GameRow, "oldgame1") is None


def test_a_finished_game_recorded_before_commitments_imports_as_finished(
        admin_headers, elsewhere):
    now = svc(elsewhere).clock()
    exported = old_way_export("oldgame2", [], now)
    exported["events"].append(dict(exported["events"][-1]))  # then abandoned, the old way
    last = exported["events"][-2]
    payload = {"reason": "we stop", "schema_version": 1}
    exported["events"][-1] = {"seq": 2, "kind": "GameAbandoned", "payload": payload,
                              "actor": "admin", "recorded_at": now.isoformat(),
                              "prev_hash": last["hash"], "sealed": None,
                              "hash": store.event_hash("oldgame2", 2, "GameAbandoned", payload,
                                                       "admin", now, last["hash"])}
    assert imported(elsewhere, admin_headers, exported).status_code == 201
    with svc(elsewhere).db.reading() as session:
        loaded = load(session, "oldgame2")
    assert loaded.row.status == "abandoned" and loaded.events[-1].kind == "GameImported"


def test_an_export_whose_sealed_seed_was_swapped_is_refused(
        app, client, admin_headers, new_game, elsewhere):
    """What is sealed is not hashed: a forger could put a seed of their choosing beside the
    commitment.  The import checks the sealed seed against the commitment."""
    players = [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(3)]
    made = client.post("/api/games", json={"game": "incan_gold", "players": players},
                       headers=admin_headers).get_json()
    exported = export_of(client, admin_headers, made["id"])
    forged = copy.deepcopy(exported)
    forged["events"][0]["sealed"]["seed"] = "5"
    response = imported(elsewhere, admin_headers, forged)
    assert response.status_code == 400 and "does not match" in response.get_json()["error"]
    with svc(elsewhere).db.reading() as session:
        assert session.get(GameRow, made["id"]) is None
    assert imported(elsewhere, admin_headers, exported).status_code == 201
