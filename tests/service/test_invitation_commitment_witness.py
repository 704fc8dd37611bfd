"""The invitation mail names the commitment to the service's secret the game was set up
under (``chasqui-commitment:<64 hex>``), so a player holds it outside the server: a secret
rewritten in the database after some players gave their shares, which the record alone would
not show, fails against the invitation the player kept."""
from __future__ import annotations

from service.mail import witness
from service.store import randomness
from service.store.loading import load
from service.store.models import PendingGameRow
from service.view.presenter import secret_for
from tests.service.test_chance import accept, pending_of
from tests.service.test_fair_play import play_to_the_end, record_of
from tests.service.test_organisers_support import create_game, mails, sign_in, svc
from tests.service.test_witness_mails import failed, verdict_of


def invitation_to(app, address: str) -> str:
    return [m["text"] for m in mails(app, address) if "/invite/" in m["text"]][-1]


def finished_game(app, client, pending_id: str) -> dict:
    game_id = pending_of(app, pending_id).game_id
    with svc(app).db.reading() as session:
        loaded = load(session, game_id)
        secrets = [secret_for(svc(app).settings, loaded, seat) for seat in range(len(loaded.seats))]
    play_to_the_end(client, secrets)
    return record_of(client, secrets[0])


def test_the_invitation_names_the_commitment_and_witnesses_the_record(app, client):
    sign_in(client, app)
    pending_id = create_game(client)
    kept = invitation_to(app, "ana@example.org")
    token = witness.COMMITMENT_PREFIX + randomness.service_commitment(
        pending_of(app, pending_id).secret)
    assert token in kept
    for address in ("ana@example.org", "ben@example.org", "cai@example.org"):
        assert accept(app, address, None).status_code == 200
    verdict = verdict_of(client, finished_game(app, client, pending_id), [kept])
    assert verdict["ok"], verdict
    assert "the commitment your invitation names" in verdict["checks"][-1]["detail"]


def test_a_secret_rewritten_before_the_start_verifies_alone_but_fails_the_kept_invitation(
        app, client):
    sign_in(client, app)
    pending_id = create_game(client)
    kept = invitation_to(app, "ana@example.org")
    assert accept(app, "ana@example.org", "Ana's share").status_code == 200
    assert accept(app, "ben@example.org", "Ben's share").status_code == 200
    with svc(app).db.unit_of_work() as session:  # the operator, having read the shares so far
        session.get(PendingGameRow, pending_id).secret = "ee" * 32
    assert accept(app, "cai@example.org", "Cai's share").status_code == 200
    record = finished_game(app, client, pending_id)
    assert verdict_of(client, record)["ok"], "the record alone cannot tell"
    verdict = verdict_of(client, record, [kept])
    assert not verdict["ok"] and failed(verdict) == [witness.WITNESS_CHECK]
    assert "secret was changed" in verdict["checks"][-1]["detail"]
