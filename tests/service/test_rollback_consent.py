"""A rollback whose span made something known waits for every seated player's consent: the
admin's rollback records a proposal and changes nothing, each seated person is mailed a link to
a consent page, the last consent rolls the game back (with its reshuffle), a decline or any
move after the proposal closes it, and both verifiers check the consents in the record."""
from __future__ import annotations

import random
import re

import pytest

from engine import clone
from service.store import events as event_store, fairness
from service.store.loading import load
from tests import independent_verifier
from tests.service.test_admin_support import (csrf_token, mails, post_form, site_admin, svc,
                                              text_of)

GAMES = ["incan_gold", "machu_picchu", "inca_empire"]


@pytest.fixture(autouse=True)
def version_3(monkeypatch):
    monkeypatch.setattr(event_store, "SCHEMA_VERSION", 3)


def loaded(app, game_id):
    with svc(app).db.reading() as session:
        return load(session, game_id)


def play(client, secrets, action_seat, seq: int, chooser=None) -> int:
    """One move of the first seat to act: an action that makes something known if there is
    one, else one ``chooser`` picks (the first legal one without)."""
    game, state = action_seat
    seat = game.to_act(state)[0]
    actions = game.legal_actions(state, seat)
    action = chooser.choice(actions) if chooser else actions[0]
    for candidate in actions:
        trial = clone(state)
        game.apply_in_place(trial, seat, candidate)
        if trial.get("epoch") != state.get("epoch"):
            action = candidate
            break
    response = client.post(f"/api/play/{secrets[seat]}", json={"action": action, "seq": seq})
    assert response.status_code == 200, response.get_json()
    return seq + 1


def until_something_is_known(app, client, game_id, secrets) -> int:
    """Moves until the engine's epoch rises (a draw, a reveal, a card shown); the head seq."""
    start = loaded(app, game_id).state.get("epoch")
    head, chooser = loaded(app, game_id), random.Random(1)
    while head.state.get("epoch") == start:
        play(client, secrets, (head.game, head.state), head.seq, chooser)
        head = loaded(app, game_id)
    return head.seq


def started(app, client, new_game, name):
    site_admin(app, client)
    data, secrets = new_game(game=name, players=3, seed=42)
    seq = until_something_is_known(app, client, data["id"], secrets)
    return data["id"], secrets, seq


def propose(client, game_id, seq, to_seq=1):
    response = post_form(client, game_id, "rollback", to_seq=str(to_seq), reason="a slip",
                         seq=str(seq))
    assert response.status_code == 303, response.get_data(as_text=True)
    return seq + 1


def consent_link(app, to: str) -> str:
    texts = [text_of(m) for m in mails(app, to)]
    return [re.search(r"http://chasqui\.test(/play/\S+/rollback/\d+)", t).group(1)
            for t in texts if "/rollback/" in t][-1]


def answer(client, link: str, agree: bool):
    return client.post(link, data={"csrf_token": csrf_token(client, link),
                                   "agree": "1" if agree else "0"})


def kinds(app, game_id) -> list[str]:
    return [e.kind for e in loaded(app, game_id).events]


@pytest.mark.parametrize("name", GAMES)
def test_a_rollback_past_something_shown_is_only_proposed_and_every_player_is_asked(
        app, client, new_game, name):
    game_id, _secrets, seq = started(app, client, new_game, name)
    before = loaded(app, game_id).state
    proposal = propose(client, game_id, seq)
    after = loaded(app, game_id)
    assert after.events[-1].kind == "RollbackProposed" and "RolledBack" not in kinds(app, game_id)
    payload = after.events[-1].payload
    assert (payload["to_seq"], payload["reason"], payload["proposal"]) == (1, "a slip", proposal)
    assert after.state == before
    for seat in range(3):
        link = consent_link(app, f"p{seat}@example.com")
        assert link.endswith(f"/rollback/{proposal}")
        mail = [text_of(m) for m in mails(app, f"p{seat}@example.com")][-1]
        assert "proposes taking the game back to its start" in mail and "a slip" in mail
        assert "seq" not in mail.lower().replace("sequence", "")


@pytest.mark.parametrize("name", GAMES)
def test_when_every_player_agrees_the_game_is_rolled_back_and_both_verifiers_accept_it(
        app, client, new_game, name):
    game_id, secrets, seq = started(app, client, new_game, name)
    with svc(app).db.reading() as session:
        start = load(session, game_id, upto=1)
    proposal = propose(client, game_id, seq)
    links = [consent_link(app, f"p{seat}@example.com") for seat in range(3)]
    for link in links[:2]:
        assert answer(client, link, True).status_code == 303
        assert "RolledBack" not in kinds(app, game_id)
    assert answer(client, links[2], True).status_code == 303
    rewound = loaded(app, game_id)
    last = rewound.events[-1]
    assert last.kind == "RolledBack" and last.payload["proposal"] == proposal
    assert last.actor == rewound.events[proposal - 1].actor
    for seat in (None, 0, 1, 2):  # back at the start, as every seat saw it then
        assert rewound.game.view(rewound.state, seat) == start.game.view(start.state, seat)
    assert any("rolled back" in text_of(m).lower() for m in mails(app, "p0@example.com"))
    assert post_form(client, game_id, "abandon", reason="done testing").status_code == 303
    record = client.get(f"/play/{secrets[0]}/record.json").get_json()
    verdict = fairness.check_record(record)
    assert [c for c in verdict.checks if not c.ok] == [] and verdict.ok
    assert independent_verifier.verify(record)[0]


@pytest.mark.parametrize("name", GAMES)
def test_one_decline_ends_the_proposal_and_nothing_is_rolled_back(app, client, new_game, name):
    game_id, _secrets, seq = started(app, client, new_game, name)
    before = loaded(app, game_id).state
    propose(client, game_id, seq)
    links = [consent_link(app, f"p{seat}@example.com") for seat in range(3)]
    assert answer(client, links[0], True).status_code == 303
    assert answer(client, links[1], False).status_code == 303
    assert kinds(app, game_id)[-1] == "RollbackDeclined"
    assert answer(client, links[2], True).status_code == 409
    assert "RolledBack" not in kinds(app, game_id) and loaded(app, game_id).state == before
    assert "declined the rollback" in text_of(mails(app, "p2@example.com")[-1])


@pytest.mark.parametrize("name", GAMES)
def test_a_move_after_the_proposal_closes_it(app, client, new_game, name):
    game_id, secrets, seq = started(app, client, new_game, name)
    propose(client, game_id, seq)
    head = loaded(app, game_id)
    play(client, secrets, (head.game, head.state), head.seq)  # the game goes on meanwhile
    link = consent_link(app, "p0@example.com")
    count = len(kinds(app, game_id))
    refused = answer(client, link, True)
    assert refused.status_code == 409 and len(kinds(app, game_id)) == count
    assert client.get(link).status_code == 409


def test_the_consent_page_shows_the_proposal_and_changes_nothing(app, client, new_game):
    game_id, _secrets, seq = started(app, client, new_game, "incan_gold")
    propose(client, game_id, seq)
    link = consent_link(app, "p1@example.com")
    count = len(kinds(app, game_id))
    page = client.get(link)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "a slip" in text and "every player agrees" in text
    assert len(kinds(app, game_id)) == count


def test_forged_or_wrong_consent_links_are_refused_and_change_nothing(app, client, new_game):
    game_id, secrets, seq = started(app, client, new_game, "incan_gold")
    proposal = propose(client, game_id, seq)
    count = len(kinds(app, game_id))
    forged = f"/play/{secrets[0][:-3]}xyz/rollback/{proposal}"
    assert client.get(forged).status_code == 403
    assert client.get(f"/play/{secrets[0]}/rollback/{proposal - 1}").status_code == 400
    assert client.get(f"/play/{secrets[0]}/rollback/{proposal + 5}").status_code == 400
    assert len(kinds(app, game_id)) == count


def test_a_rollback_that_crosses_nothing_shown_takes_effect_at_once(app, client, new_game):
    site_admin(app, client)
    data, secrets = new_game(game="incan_gold", players=3, seed=42)
    assert client.post(f"/api/play/{secrets[0]}",
                       json={"action": {"type": "stay"}, "seq": 1}).status_code == 200
    propose(client, data["id"], 2)
    assert kinds(app, data["id"])[-1] == "RolledBack"


def test_a_seat_a_bot_plays_is_not_asked_and_the_people_decide(app, client, new_game):
    game_id, secrets, _seq = started(app, client, new_game, "incan_gold")
    assert post_form(client, game_id, "seats/2/bot").status_code == 303
    proposal = propose(client, game_id, loaded(app, game_id).seq)
    assert client.post(f"/play/{secrets[2]}/rollback/{proposal}", data={
        "csrf_token": csrf_token(client, f"/play/{secrets[0]}/rollback/{proposal}"),
        "agree": "1"}).status_code == 400
    for seat in (0, 1):
        assert answer(client, consent_link(app, f"p{seat}@example.com"), True).status_code == 303
    assert "RolledBack" in kinds(app, game_id)[proposal:]  # then the bot plays on


def test_the_admin_api_says_a_rollback_was_only_proposed(app, client, new_game, admin_headers):
    game_id, _secrets, seq = started(app, client, new_game, "inca_empire")
    response = client.post(f"/admin/api/games/{game_id}/rollback", headers=admin_headers,
                           json={"to_seq": 1, "reason": "a slip", "seq": seq})
    assert response.status_code == 200 and response.get_json()["proposed"] is True
    assert kinds(app, game_id)[-1] == "RollbackProposed"
