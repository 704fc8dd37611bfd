"""Chance nobody chooses: the service commits to its secret on the invitation and lobby pages
before any player takes a seat, each player's contribution (made in their browser, typed, or
the service's for an empty field) lands in GameCreated at their seat, and the seed is the
documented derivation of them all."""
from __future__ import annotations

import hashlib
import html
import re

import pytest
from sqlalchemy import select

from engine import get_game
from service.application import invitations
from service.application.invitations import InvitationError
from service.store import events as store
from service.store import fairness, randomness
from service.store.history import seed_of
from service.store.loading import load
from service.store.models import GameRow, InvitationRow, PendingGameRow, SeatRow
from service.view.presenter import secret_for
from service.web.extensions import services
from tests.conftest import make_settings, migrated_app, secret_from_url
from tests.service.test_admin_support import events, offer_link, post_form, site_admin, token_in
from tests.service.test_fair_play import play_to_the_end, record_of
from tests.service.test_organisers_support import (PLAYERS, create_game, csrf, link_in, mails,
                                                   new_game_form, sign_in, svc)

COMMITTED = re.compile(r"committed to its share of the chance: ([0-9a-f]{64})")


def landing(app, address: str):
    """(the invitee's browser, their landing page's path, the page's text)."""
    browser = app.test_client()
    path = link_in([m for m in mails(app, address) if "/invite/" in m["text"]][-1], "invite")
    return browser, path, browser.get(path).get_data(as_text=True)


def accept(app, address: str, share: str | None):
    browser, path, _ = landing(app, address)
    data = {"csrf_token": csrf(browser, path)}
    if share is not None:
        data["contribution"] = share
    return browser.post(f"{path}/accept", data=data)


def pending_of(app, pending_id: str) -> PendingGameRow:
    with svc(app).db.reading() as session:
        return session.get(PendingGameRow, pending_id)


def first_event(app, game_id: str) -> store.Event:
    with svc(app).db.reading() as session:
        return store.load(session, game_id)[0]


def documented_seed(secret: str, texts: list[str]) -> int:
    """The derivation as ``docs/fairness.md`` writes it, with nothing but SHA-256."""
    digests = ":".join(hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts)
    return int(hashlib.sha256(f"chasqui-seed-v2:{secret}:{digests}".encode()).hexdigest(), 16)


def test_the_invitation_shows_the_commitment_before_acceptance_and_the_game_carries_it(app, client):
    sign_in(client, app)
    pending_id = create_game(client)
    _, _, page = landing(app, "ana@example.org")
    shown = COMMITTED.search(page).group(1)
    secret = pending_of(app, pending_id).secret
    assert shown == randomness.service_commitment(secret) and secret not in page
    typed = "Ana's lucky words ☀ 42"
    accepted = accept(app, "ana@example.org", f"  {typed} ")
    assert accepted.status_code == 200
    assert f"Your share of the chance: {typed}" in html.unescape(accepted.get_data(as_text=True))
    assert accept(app, "ben@example.org", "").status_code == 200  # no JavaScript, nothing typed
    assert accept(app, "cai@example.org", "0f" * 16).status_code == 200  # as the browser makes it
    game_id = pending_of(app, pending_id).game_id
    first = first_event(app, game_id)
    chance = first.payload["randomness"]
    assert chance["scheme"] == "chasqui-seed-v2" and chance["commitment"] == shown
    shares = chance["contributions"]
    assert [c["by"] for c in shares] == ["chasqui", "player", "chasqui", "player"]
    assert shares[1]["text"] == typed and shares[3]["text"] == "0f" * 16
    assert all(randomness.is_contribution(c["text"]) for c in shares)
    assert first.sealed["secret"] == secret
    assert seed_of(first) == documented_seed(secret, [c["text"] for c in shares])


def test_contributions_follow_their_players_when_seats_are_shuffled(app, client):
    sign_in(client, app)
    pending_id = create_game(client, seat_order="random")
    for name, address in PLAYERS:
        assert accept(app, address, f"share of {name}").status_code == 200
    first = first_event(app, pending_of(app, pending_id).game_id)
    by_seat = dict(zip(first.payload["players"], first.payload["randomness"]["contributions"]))
    for name, _ in PLAYERS:
        assert by_seat[name] == {"text": f"share of {name}", "by": "player"}


@pytest.mark.parametrize("share", ["\x1b[31mred", "a" * 201, "right\u202eleft", "bell\x07",
                                   "two\nlines"])
def test_a_bad_contribution_is_refused_and_changes_nothing(app, client, share):
    sign_in(client, app)
    pending_id = create_game(client)
    response = accept(app, "ana@example.org", share)
    assert response.status_code == 400 and "share of the chance" in response.get_data(as_text=True)
    with svc(app).db.reading() as session:
        ana = session.scalars(select(InvitationRow).where(
            InvitationRow.email == "ana@example.org")).one()
        assert ana.status == "pending" and ana.contribution is None
    assert pending_of(app, pending_id).status == "inviting"


def test_a_lone_surrogate_or_a_character_a_record_cannot_show_is_refused():
    for share in ("\ud800", "soft\u00adhyphen", "\u200bzero width"):
        with pytest.raises(InvitationError) as refused:
            invitations.contribution(share)
        assert refused.value.status == 400
    assert invitations.contribution(None)["by"] == "chasqui"
    assert invitations.contribution("a" * 200) == {"text": "a" * 200, "by": "player"}


def test_the_lobby_shows_the_commitment_before_anyone_joins(app, client):
    sign_in(client, app)
    response = client.post("/organise/new", data=new_game_form(
        csrf(client, "/organise/new"), invitees=PLAYERS[:1], count=4, open="on"))
    assert response.status_code == 303
    with svc(app).db.reading() as session:
        pending = session.scalars(select(PendingGameRow)).one()
    page = app.test_client().get(f"/lobby/{pending.id}").get_data(as_text=True)
    assert COMMITTED.search(page).group(1) == randomness.service_commitment(pending.secret)
    assert pending.secret not in page


def test_a_game_set_up_before_commitments_draws_its_secret_when_it_starts(app, client):
    sign_in(client, app)
    pending_id = create_game(client)
    with svc(app).db.unit_of_work() as session:
        session.get(PendingGameRow, pending_id).secret = None
    _, _, page = landing(app, "ana@example.org")
    assert not COMMITTED.search(page)
    for _, address in PLAYERS:
        assert accept(app, address, "mine").status_code == 200
    first = first_event(app, pending_of(app, pending_id).game_id)
    assert first.payload["randomness"]["scheme"] == "chasqui-seed-v2"
    assert randomness.is_secret(first.sealed["secret"])


def test_two_games_with_the_same_contributions_but_different_secrets_differ():
    shares = [fairness.contribution(text, randomness.BY_PLAYER) for text in ("a", "b", "c")]
    one, two = (fairness.commit_shares(randomness.new_secret(), shares) for _ in range(2))
    assert one[2] != two[2]
    assert one[0]["randomness"]["commitment"] != two[0]["randomness"]["commitment"]
    assert one[0]["randomness"]["contributions"] == two[0]["randomness"]["contributions"]


def test_the_reveal_publishes_the_secret_and_the_seed_it_derived():
    shares = fairness.defaults(3)
    secret = randomness.new_secret()
    public, sealed, seed = fairness.commit_shares(secret, shares)
    first = store.Event(1, "GameCreated", public, "admin", None, store.GENESIS, "", sealed)
    shown = fairness.reveal_payload(first)
    assert shown == {"secret": secret, "seed": str(seed)}
    assert fairness.revealed_seed(public, shown) == seed
    assert fairness.revealed_seed(public, {**shown, "seed": str(seed + 1)}) is None
    assert fairness.revealed_seed(public, {**shown, "seed": "0" + str(seed)}) is None
    unknown = {"randomness": {**public["randomness"], "scheme": "mine"}}
    assert fairness.revealed_seed(unknown, {"seed": "5", "salt": "ab" * 32}) is None
    other = randomness.new_secret()
    assert fairness.revealed_seed(public, {"secret": other, "seed": str(
        randomness.derive_seed(other, [c["text"] for c in shares]))}) is None


def offered_seat(app, client, new_game):
    """A game whose seat 1 is offered to zoe@example.com; (game id, the offer's path)."""
    site_admin(app, client)
    data, _ = new_game(players=3)
    assert post_form(client, data["id"], "seats/1/replace", name="Zoe", email="zoe@example.com",
                     seq="1").status_code == 303
    return data["id"], offer_link(app, "zoe@example.com")


def answer_offer(app, path: str, share: str):
    newcomer = app.test_client()
    token = token_in(newcomer.get(path).get_data(as_text=True))
    return newcomer.post(f"{path}/accept", data={"csrf_token": token, "contribution": share})


def test_a_newcomer_s_share_is_recorded_with_the_seat_they_take(app, client, admin_headers,
                                                                 new_game):
    game_id, path = offered_seat(app, client, new_game)
    assert "data-contribution" in app.test_client().get(path).get_data(as_text=True)
    assert answer_offer(app, path, " Zoe's share ").status_code == 200
    replaced = events(client, admin_headers, game_id)[-1]
    assert replaced["kind"] == "SeatReplaced"
    assert replaced["payload"]["contribution"] == {"text": "Zoe's share", "by": "player"}


def test_a_newcomer_s_bad_share_is_refused_and_the_seat_stays(app, client, admin_headers,
                                                              new_game):
    game_id, path = offered_seat(app, client, new_game)
    response = answer_offer(app, path, "\x1b]0;title\x07")
    assert response.status_code == 400 and "share of the chance" in response.get_data(as_text=True)
    assert [e["kind"] for e in events(client, admin_headers, game_id)] == ["GameCreated"]
    assert answer_offer(app, path, "").status_code == 200  # the offer is still open


def test_a_game_of_schema_version_2_plays_reveals_and_verifies_as_before(app, client):
    """A game created before the players' shares: a top-level commitment to a seed the
    service drew alone; it plays on, reveals seed and salt, and its record verifies."""
    game_id, now, names, seed = "v2game01", svc(app).clock(), ["P0", "P1", "P2"], 987654321
    salt = "ab" * 32
    created = {"game": "incan_gold", "rules_version": get_game("incan_gold").rules_version,
               "commitment": fairness.commitment(seed, salt), "players": names, "options": {},
               "clock": {}, "schema_version": 2}
    with svc(app).db.unit_of_work() as session:
        session.add(GameRow(id=game_id, game="incan_gold", status="active", created_at=now,
                            updated_at=now, head_seq=1))
        session.add_all(SeatRow(game_id=game_id, seat=i, name=n, email=f"p{i}@example.com",
                                nonce=f"n{i}") for i, n in enumerate(names))
        session.flush()
        store.append(session, game_id, 1, store.GENESIS, "GameCreated", created, "admin", now,
                     sealed={"seed": str(seed), "salt": salt})
    with svc(app).db.reading() as session:
        loaded = load(session, game_id)
        secrets = [secret_for(svc(app).settings, loaded, s) for s in range(3)]
    play_to_the_end(client, secrets)
    record = record_of(client, secrets[0])
    reveal = record["events"][-1]
    assert reveal["kind"] == "SeedRevealed"
    assert {k: reveal["payload"][k] for k in ("seed", "salt")} == {"seed": str(seed), "salt": salt}
    assert "secret" not in reveal["payload"]
    assert {e["payload"]["schema_version"] for e in record["events"][1:]} == {3}
    assert fairness.check_record(record).ok


def test_a_play_page_shows_its_own_seat_s_share_only_and_says_when_a_seed_was_given(
        app, client, admin_headers, new_game):
    players = [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(3)]
    made = client.post("/api/games", json={"game": "incan_gold", "players": players},
                       headers=admin_headers).get_json()
    with svc(app).db.reading() as session:
        shares = store.load(session, made["id"])[0].payload["randomness"]["contributions"]
    secret = secret_from_url(made["seats"][1]["play_url"])
    page = client.get(f"/play/{secret}").get_data(as_text=True)
    assert shares[1]["text"] in page and "Chasqui drew this seat" in page
    assert shares[0]["text"] not in page and shares[2]["text"] not in page
    assert "A site admin gave this game" not in page
    _, secrets = new_game(players=3, seed=7)
    given = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    assert "A site admin gave this game's seed" in given and "share of the chance" not in given


def test_shares_are_kept_and_the_seed_derived_on_postgresql(tmp_path, clock, postgres_url):
    app = migrated_app(make_settings(tmp_path, CHASQUI_DATABASE_URL=postgres_url), clock=clock)
    app.config["TESTING"] = True
    try:
        tag = randomness.default_contribution()[:6]
        players = [(n, f"{n.lower()}.{tag}@example.org") for n in ("Ana", "Ben", "Cai")]
        client = app.test_client()
        sign_in(client, app, f"olga.{tag}@example.org")
        pending_id = create_game(client, invitees=players)
        assert accept(app, players[0][1], "\x00nul").status_code == 400
        for (_, address), share in zip(players, ("日本語 ☀", "", "x" * 200)):
            assert accept(app, address, share).status_code == 200
        pending = pending_of(app, pending_id)
        first = first_event(app, pending.game_id)
        shares = first.payload["randomness"]["contributions"]
        assert [c["text"] for c in shares][1::2] == ["日本語 ☀", "x" * 200]
        assert seed_of(first) == documented_seed(pending.secret, [c["text"] for c in shares])
    finally:
        services(app).db.dispose()
