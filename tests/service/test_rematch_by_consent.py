"""Rematch by consent: the player who asks organises the same game again, every other
player is invited by mail and accepts or declines, and the game starts only when all have
accepted -- or when the one who asked starts it with those who did."""
from __future__ import annotations

import html
import re

from sqlalchemy import func, select

from service.store.models import GameRow, PendingGameRow
from tests.conftest import secret_from_url
from tests.service.mail_kit import app, inbox, newest, smtp, text_of  # noqa: F401
from tests.service.test_mail_spectate_rematch import csrf, finish
from tests.service.test_organisers_support import svc


def games_count(app) -> int:
    with svc(app).db.reading() as session:
        return session.scalar(select(func.count()).select_from(GameRow))


def ask(client, secret: str, share: str = ""):
    page = client.get(f"/play/{secret}").get_data(as_text=True)
    return client.post(f"/play/{secret}/rematch",
                       data={"csrf_token": csrf(page), "contribution": share})


def invitation_path(smtp, address: str) -> str:
    text = text_of(newest(smtp, address))
    return re.search(r"https?://[^/\s]+(/invite/[^\s?]+)", text).group(1)


def answer(app, smtp, address: str, accept: bool = True, block: bool = False):
    """The player opens the invitation mail's link in a browser of their own and answers."""
    browser = app.test_client()
    path = invitation_path(smtp, address)
    data = {"csrf_token": html.unescape(csrf(browser.get(path).get_data(as_text=True)))}
    if block:
        data["block"] = "on"
    return browser.post(f"{path}/{'accept' if accept else 'decline'}", data=data)


def finished_game(client, new_game, players=3):
    data, secrets = new_game(players=players)
    finish(client, secrets)
    return data, secrets


def test_a_rematch_starts_no_game_until_every_player_has_accepted(app, client, new_game, smtp,
                                                                  admin_headers):
    data, secrets = finished_game(client, new_game)
    before = games_count(app)
    response = ask(client, secrets[1], share="my lucky words")
    assert response.status_code == 303 and response.headers["Location"].endswith("/rematch")
    assert games_count(app) == before, "asking starts nothing"
    standing = client.get(f"/play/{secrets[1]}/rematch").get_data(as_text=True)
    assert "pending" in standing and "Start with those who accepted" in standing
    assert answer(app, smtp, "p2@example.com").status_code == 200
    assert games_count(app) == before, "one player of two has accepted: still no game"
    assert answer(app, smtp, "p0@example.com").status_code == 200
    assert games_count(app) == before + 1
    # each player's rematch page now leads to their seat; seats rotated by one
    mine = client.get(f"/api/play/{secret_from_url(client.get(f'/play/{secrets[1]}/rematch').headers['Location'])}").get_json()
    assert mine["game_id"] != data["id"] and mine["seat"] == 0, "P1 sits first now"
    assert "Your seat in the rematch" in client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    status = client.get(f"/api/games/{mine['game_id']}", headers=admin_headers).get_json()
    assert [p["name"] for p in status["players"]] == ["P1", "P2", "P0"]
    record = client.get(f"/play/{secrets[1]}/rematch")
    assert secret_from_url(record.headers["Location"]) != secrets[1]


def test_the_rematch_mail_asks_each_other_player_to_accept_or_decline(app, client, new_game, smtp):
    _, secrets = finished_game(client, new_game)
    ask(client, secrets[0])
    for address in ("p1@example.com", "p2@example.com"):
        mail = newest(smtp, address)
        text = text_of(mail)
        assert "invites you to play Incan Gold" in mail["Subject"]
        assert "/invite/" in text and "answer=decline" in text
        assert "A new game has started" not in text
    assert not any("/invite/" in text_of(m) for m in inbox(smtp, "p0@example.com")), \
        "the one who asked is not asked again"


def test_a_second_player_asking_finds_the_same_rematch_and_their_invitation(app, client, new_game,
                                                                            smtp):
    _, secrets = finished_game(client, new_game)
    ask(client, secrets[0])
    play = html.unescape(client.get(f"/play/{secrets[2]}").get_data(as_text=True))
    assert "P0 asked for a rematch." in play and invitation_path(smtp, "p2@example.com") in play
    assert "Ask everyone for a rematch" not in play
    mails_before = len(inbox(smtp, "p2@example.com"))  # a second ask from a page left open:
    again = ask(client, secrets[2])
    assert again.headers["Location"].endswith(f"/play/{secrets[2]}/rematch")
    assert len(inbox(smtp, "p2@example.com")) == mails_before, "no second invitation"
    page = client.get(f"/play/{secrets[2]}/rematch").get_data(as_text=True)
    assert invitation_path(smtp, "p2@example.com") in html.unescape(page)
    assert "Start with those who accepted" not in page  # only the one who asked may
    with svc(app).db.reading() as session:
        assert session.scalar(select(func.count()).select_from(PendingGameRow)) == 1


def test_a_declined_rematch_does_not_start_and_the_asker_starts_with_those_who_accepted(
        app, client, new_game, smtp, admin_headers):
    _, secrets = finished_game(client, new_game, players=4)
    ask(client, secrets[0])
    before = games_count(app)
    answer(app, smtp, "p1@example.com")
    assert answer(app, smtp, "p2@example.com", accept=False).status_code == 200
    answer(app, smtp, "p3@example.com")
    assert games_count(app) == before, "a declined seat keeps the game from starting by itself"
    assert "declined" in client.get(f"/play/{secrets[0]}/rematch").get_data(as_text=True)
    # another player cannot start it
    page = client.get(f"/play/{secrets[1]}").get_data(as_text=True)  # no start button: a form's token
    refused = client.post(f"/play/{secrets[1]}/rematch/start", data={"csrf_token": csrf(page)})
    assert refused.status_code == 303 and games_count(app) == before
    page = client.get(f"/play/{secrets[0]}/rematch").get_data(as_text=True)
    started = client.post(f"/play/{secrets[0]}/rematch/start", data={"csrf_token": csrf(page)})
    assert started.status_code == 303 and games_count(app) == before + 1
    seat = client.get(f"/play/{secrets[0]}/rematch")
    mine = client.get(f"/api/play/{secret_from_url(seat.headers['Location'])}").get_json()
    status = client.get(f"/api/games/{mine['game_id']}", headers=admin_headers).get_json()
    assert [p["name"] for p in status["players"]] == ["P1", "P3", "P0"]
    assert client.get(f"/play/{secrets[2]}/rematch").status_code == 200  # P2 has no seat


def test_too_few_accepted_cannot_start_and_nothing_changes(app, client, new_game, smtp):
    _, secrets = finished_game(client, new_game)
    ask(client, secrets[0])
    answer(app, smtp, "p1@example.com", accept=False)
    answer(app, smtp, "p2@example.com", accept=False)
    before = games_count(app)
    page = client.get(f"/play/{secrets[0]}/rematch").get_data(as_text=True)
    refused = client.post(f"/play/{secrets[0]}/rematch/start", data={"csrf_token": csrf(page)},
                          follow_redirects=True)
    assert "needs at least 3 players; 1 has accepted so far" in refused.get_data(as_text=True)
    assert games_count(app) == before


def test_each_player_keeps_their_mail_settings_in_the_rematch(app, client, new_game, smtp):
    from service.store import preferences

    data, secrets = finished_game(client, new_game)
    with svc(app).db.unit_of_work() as session:
        preferences.set_preference(session, data["id"], 2, svc(app).clock(), mode="digest",
                                   language="ja")
    ask(client, secrets[0])
    answer(app, smtp, "p1@example.com")
    answer(app, smtp, "p2@example.com")
    seat = client.get(f"/play/{secrets[2]}/rematch")
    mine = client.get(f"/api/play/{secret_from_url(seat.headers['Location'])}").get_json()
    with svc(app).db.reading() as session:
        kept = preferences.preference(session, mine["game_id"], mine["seat"])
        other = preferences.preference(session, mine["game_id"], (mine["seat"] + 1) % 3)
    assert mine["seat"] == 1 and (kept.mode, kept.language) == ("digest", "ja")
    assert other is None or other.language is None


def test_the_asker_calls_the_rematch_off_and_anyone_may_ask_again(app, client, new_game, smtp):
    _, secrets = finished_game(client, new_game)
    ask(client, secrets[0])
    answer(app, smtp, "p1@example.com", accept=False)
    old_invitation = invitation_path(smtp, "p2@example.com")
    page = client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    refused = client.post(f"/play/{secrets[1]}/rematch/cancel", data={"csrf_token": csrf(page)},
                          follow_redirects=True)
    assert "who asked for the rematch, can start it or call it off" in refused.get_data(as_text=True)
    page = client.get(f"/play/{secrets[0]}/rematch").get_data(as_text=True)
    off = client.post(f"/play/{secrets[0]}/rematch/cancel", data={"csrf_token": csrf(page)})
    assert off.status_code == 303
    assert "Ask everyone for a rematch" in client.get(f"/play/{secrets[2]}").get_data(as_text=True)
    assert app.test_client().get(old_invitation).status_code == 200  # it says: called off
    again = ask(client, secrets[2])
    assert again.status_code == 303
    assert invitation_path(smtp, "p0@example.com") != old_invitation  # asked anew, by P2
    assert "P2 asked for a rematch." in client.get(f"/play/{secrets[0]}").get_data(as_text=True)
