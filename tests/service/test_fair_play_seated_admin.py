"""A game's admin who sits in the game, attacking it: everything they can fetch (the admin
pages and their JSON, time travel, their own play page and /api/play, their mail) gives no
hash that confirms a guess of the seed or of another seat's pending secret choice.

The attack on the code before fair play: GameCreated's hash, shown in the audit, was
recomputed for each candidate seed until it matched (then ``setup`` gives every hand and
future draw), and a pending Incan Gold choice was named by hashing stay and leave against
its logged hash.  Here the same searches run against everything the admin saw, with every
fact they could know given to them (times, actors, previous hashes); a control proves each
search would find its target if the hash covered no nonce."""
from __future__ import annotations

import hashlib
import re

from engine import canonical_json
from engine.core import without_label
from service.store import events as store
from service.store.loading import load
from service.store.history import seed_of
from tests.service.test_admin_support import login, make_admin, mails, move, svc

HEX64 = re.compile(r"[0-9a-f]{64}")
WINDOW = 2 ** 20
ADMIN_EMAIL, ADMIN_PASSWORD = "p0@example.com", "organiser password 1"


def everything_the_admin_fetches(app, client, game_id, secret) -> str:
    """Every page, JSON answer and mail the seated game admin can get, as one text."""
    with svc(app).db.reading() as session:
        head = load(session, game_id).seq
    urls = ["/admin/", f"/admin/games/{game_id}", "/admin/api/games",
            f"/admin/api/games/{game_id}", f"/admin/games/{game_id}/export",
            f"/admin/api/games/{game_id}/export", f"/play/{secret}", f"/api/play/{secret}",
            f"/play/{secret}/record.json"]
    for seq in range(1, head + 1):
        for seat in ("", "0", "1", "2"):
            query = f"?seat={seat}" if seat else ""
            urls += [f"/admin/games/{game_id}/at/{seq}{query}",
                     f"/admin/api/games/{game_id}/at/{seq}{query}"]
    texts = []
    for url in urls:
        response = client.get(url)
        assert response.status_code in (200, 403, 404), (url, response.status_code)
        texts.append(response.get_data(as_text=True))
    play = texts[urls.index(f"/play/{secret}")]
    watch = re.search(r"http://chasqui\.test(/watch/[^\"<\s/]+)", play).group(1)
    texts += [client.get(watch).get_data(as_text=True),
              client.get(watch + "/record.json").get_data(as_text=True)]
    texts += [message.as_string() for message in mails(app, to=ADMIN_EMAIL)]
    return "\n".join(texts)


def hashes_in(text: str) -> set[str]:
    return set(HEX64.findall(text))


def seed_candidates(game_id: str, first: store.Event, payload: dict, centre: int) -> set[str]:
    """GameCreated's hash without a nonce for every seed in the window around ``centre``,
    with ``payload`` (whose "seed" the search varies).  The canonical JSON is cut at the
    seed, so each candidate costs one SHA-256 of the rest (checked against ``event_hash``)."""
    marker = 7_777_777_777_777_777_777
    body = canonical_json({"game": game_id, "seq": 1, "kind": first.kind,
                           "payload": {**payload, "seed": marker}, "actor": first.actor,
                           "recorded_at": first.recorded_at.isoformat(timespec="microseconds")})
    before, after = body.split(str(marker))
    start = hashlib.sha256((store.GENESIS + before).encode())
    tail = after.encode()
    found = set()
    for seed in range(max(centre - WINDOW // 2, 0), centre + WINDOW // 2):
        digest = start.copy()
        digest.update(str(seed).encode() + tail)
        found.add(digest.hexdigest())
    one = centre + 1
    assert store.event_hash(game_id, 1, first.kind, {**payload, "seed": one}, first.actor,
                            first.recorded_at, store.GENESIS) in found
    return found


def move_payloads(game, state, event: store.Event):
    """Every payload the pending move could have: each legal action of its seat (with its
    label and phrase, as ``record_move`` writes them) × each seq it could have seen × every
    schema version."""
    seat = event.payload["seat"]
    for chosen in game.legal_actions(state, seat):
        for seq_seen in range(1, event.seq):
            for version in (1, 2, 3):
                payload = {"seat": seat, "action": without_label(chosen),
                           "label": chosen.get("label", ""), "seq_seen": seq_seen,
                           "schema_version": version}
                if "_say" in chosen:
                    payload["say"] = chosen["_say"]
                yield payload


def test_a_seated_game_admin_can_confirm_no_guess_of_the_seed_or_a_pending_choice(
        app, client, admin_headers):
    players = [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(3)]
    created = client.post("/api/games", json={"game": "incan_gold", "players": players},
                          headers=admin_headers).get_json()
    game_id = created["id"]
    secrets = [url["play_url"].rsplit("/", 1)[1] for url in created["seats"]]
    for seat in range(3):  # a first decision: everyone stays, the card is revealed
        assert move(client, secrets[seat], "stay", 1 + seat).status_code == 200
    assert move(client, secrets[1], "leave", 4).status_code == 200  # pending, secret
    assert move(client, secrets[2], "stay", 4).status_code == 200   # pending, secret
    make_admin(app, ADMIN_EMAIL, ADMIN_PASSWORD, games=(game_id,))
    login(client, ADMIN_EMAIL, ADMIN_PASSWORD)

    seen_text = everything_the_admin_fetches(app, client, game_id, secrets[0])
    seen = hashes_in(seen_text)
    with svc(app).db.reading() as session:
        loaded = load(session, game_id)
        events = loaded.events.all()
        before_pending = load(session, game_id, upto=4)
    first, pending = events[0], events[4:6]
    assert [e.payload["seat"] for e in pending] == [1, 2] and loaded.game.to_act(loaded.state) == [0]
    assert first.hash in seen, "the admin does see hashes (of events that are no moves)"

    # The seed: 2**20 candidates around the true one, GameCreated built the old way (the seed
    # in a schema-1 payload) and the new way (the published payload, the seed beside it).
    true_seed = seed_of(first)
    assert str(true_seed) not in seen_text and first.sealed["secret"] not in seen_text
    old_way = {k: v for k, v in first.payload.items() if k != "randomness"}
    old_way["schema_version"] = 1
    guesses = (seed_candidates(game_id, first, old_way, true_seed)
               | seed_candidates(game_id, first, dict(first.payload), true_seed))
    assert len(guesses) >= 2 * WINDOW - 2
    assert not guesses & seen
    assert store.event_hash(game_id, 1, first.kind, first.payload, first.actor,
                            first.recorded_at, store.GENESIS, first.nonce) == first.hash, \
        "control: with its nonce, GameCreated's content is exactly what was tried"

    # The pending secret choices: every action × seq seen × schema version, hashed as the
    # code before fair play did.
    state = before_pending.state
    for event in pending:
        tried = set()
        candidates = list(move_payloads(loaded.game, state, event))
        for payload in candidates:
            tried.add(store.event_hash(game_id, event.seq, event.kind, payload, event.actor,
                                       event.recorded_at, event.prev_hash))
        assert event.payload in candidates, "control: the true choice is among the candidates"
        assert store.event_hash(game_id, event.seq, event.kind, event.payload, event.actor,
                                event.recorded_at, event.prev_hash, event.nonce) == event.hash
        assert len(tried) >= 2 * 2 and not tried & seen, event.seq
        assert event.hash not in seen
        loaded.game.apply_in_place(state, event.payload["seat"], event.payload["action"])

    log = client.get(f"/admin/api/games/{game_id}").get_json()["log"]
    assert [entry["words"] for entry in log[4:6]] == ["P1 made a move", "P2 made a move"]
    assert all(entry["hash"] is None for entry in log[1:6])
