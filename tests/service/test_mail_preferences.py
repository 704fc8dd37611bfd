"""Preferences per seat (every turn / daily digest / off), "my games" by a magic
link, RFC 8058 one-click unsubscribe, and the daily digest."""
from __future__ import annotations

import re
from datetime import timedelta

from service.mail import digest
from service.store.preferences import mode_of
from tests.service.mail_kit import app, newest, smtp, text_of  # noqa: F401
from service.web.extensions import services


def csrf(page_html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page_html).group(1)


def path_of(url: str) -> str:
    return url.replace("http://chasqui.test", "")


def link(message, pattern: str) -> str:
    return re.search(pattern, text_of(message)).group(0)


def everyone_stays(client, secrets, seq=1):
    for secret in secrets:
        assert client.post(f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": seq}).status_code == 200


def test_my_games_lists_the_address_games_longest_waiting_first(app, client, clock, new_game, smtp):
    first, _ = new_game(players=3)
    clock.advance(timedelta(hours=2))
    second, _ = new_game(players=4, seed=7)
    me = link(newest(smtp, "p0@example.com"), r"http://chasqui\.test/me/\S+")
    page = client.get(path_of(me))
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    rows = re.findall(r'name="game_id" value="([^"]+)"', html)
    assert rows == [first["id"], second["id"]], "longest waiting first"
    next_link = re.search(r'<a class="button" href="([^"]+)"', html).group(1)
    assert next_link == path_of(first["seats"][0]["play_url"])
    assert client.get(path_of(me).replace("/me/", "/me/x")).status_code == 403


def test_a_forged_my_games_link_is_refused(client):
    assert client.get("/me/InNvbWVvbmVAZXhhbXBsZS5jb20i.forged").status_code == 403


def test_unsubscribe_get_changes_nothing_and_one_click_post_needs_no_login(app, client, new_game, smtp):
    data, secrets = new_game(players=3)
    start = newest(smtp, "p1@example.com")
    url = re.search(r"<(http://[^>]+)>", start["List-Unsubscribe"]).group(1)
    page = client.get(path_of(url))
    assert page.status_code == 200 and 'method="post"' in page.get_data(as_text=True)
    with services(app).db.reading() as session:
        assert mode_of(session, data["id"], 1) == "every"
    # RFC 8058: what a mail client sends, without cookie or CSRF token
    response = client.post(path_of(url), data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    with services(app).db.reading() as session:
        assert mode_of(session, data["id"], 1) == "off"
    assert client.post(path_of(url) + "x", data={"List-Unsubscribe": "One-Click"}).status_code == 403
    everyone_stays(client, secrets)
    assert len(smtp.sink.received("p1@example.com")) == 1, "no turn mail after unsubscribing"
    assert len(smtp.sink.received("p0@example.com")) == 2


def test_the_my_games_page_sets_the_mode(app, client, new_game, smtp):
    data, _ = new_game(players=3)
    me = path_of(link(newest(smtp, "p2@example.com"), r"http://chasqui\.test/me/\S+"))
    html = client.get(me).get_data(as_text=True)
    assert client.post(me + "/mode", data={"game_id": data["id"], "seat": 2, "mode": "digest"}).status_code == 400
    response = client.post(me + "/mode", data={"game_id": data["id"], "seat": 2, "mode": "digest",
                                               "csrf_token": csrf(html)})
    assert response.status_code == 303
    with services(app).db.reading() as session:
        assert mode_of(session, data["id"], 2) == "digest"
    # another address's seat cannot be changed from this page
    response = client.post(me + "/mode", data={"game_id": data["id"], "seat": 0, "mode": "off",
                                               "csrf_token": csrf(html)})
    assert response.status_code == 404


def test_one_digest_lists_many_waiting_games_once_a_day(app, client, clock, new_game, smtp):
    svc = services(app)
    games = [new_game(players=3, seed=s) for s in (1, 2, 3)]
    with svc.db.unit_of_work() as session:
        from service.store.preferences import set_preference
        for data, _ in games:
            set_preference(session, data["id"], 0, clock(), mode="digest")
    everyone_stays(client, games[0][1])  # a new decision: p0 is on digest, so no turn mail
    assert len(smtp.sink.received("p0@example.com")) == 3, "three start mails, no turn mail"
    clock.advance(timedelta(hours=1))
    with app.app_context():
        ids = digest.plan(svc.db, clock(), svc.settings.mail_domain)
        svc.dispatch(ids)
        assert digest.plan(svc.db, clock(), svc.settings.mail_domain) == [], "once a day"
    mails = smtp.sink.received("p0@example.com")
    assert len(ids) == 1 and len(mails) == 4
    sent = mails[-1]
    body = text_of(sent)
    assert body.count("[A] Stay in the temple") == 3 and body.count("Incan Gold") == 3
    assert sent["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert sent.get_body(("html",)) is not None
    assert not [m for m in smtp.sink.received("p1@example.com") if "digest" in m["Message-ID"]], \
        "seats on every turn get no digest"
    clock.advance(timedelta(days=1))
    with app.app_context():
        assert len(digest.plan(svc.db, clock(), svc.settings.mail_domain)) == 1


def test_unsubscribed_players_get_no_digest_and_no_turn_mail(app, client, clock, new_game, smtp):
    svc = services(app)
    data, secrets = new_game(players=3)
    url = re.search(r"<(http://[^>]+)>", newest(smtp, "p0@example.com")["List-Unsubscribe"]).group(1)
    client.post(path_of(url), data={"List-Unsubscribe": "One-Click"})
    everyone_stays(client, secrets)
    with app.app_context():
        assert digest.plan(svc.db, clock(), svc.settings.mail_domain) == []
    assert len(smtp.sink.received("p0@example.com")) == 1


def test_a_player_who_unsubscribed_gets_no_reminder_and_a_digest_player_does(app, client, clock, new_game, smtp):
    """Unsubscribing (RFC 8058) turns a seat's mail off: the reminders too, whatever the clock
    says; a digest player, mailed once a day, still gets them (a missed deadline is a timeout)."""
    from service.application import deadlines
    from service.store.preferences import set_preference

    svc = services(app)
    data, _ = new_game(players=3)
    url = re.search(r"<(http://[^>]+)>", newest(smtp, "p0@example.com")["List-Unsubscribe"]).group(1)
    client.post(path_of(url), data={"List-Unsubscribe": "One-Click"})
    with svc.db.unit_of_work() as session:
        set_preference(session, data["id"], 1, clock(), mode="digest")
    clock.advance(timedelta(hours=24, minutes=1))
    with app.app_context():
        owed = deadlines.sweep(svc.db, clock(), svc.settings.mail_domain)
        svc.dispatch(owed.mail, owed.posts)
    reminded = {address for address in ("p0@example.com", "p1@example.com", "p2@example.com")
                if any(".reminder-24@" in m["Message-ID"] for m in smtp.sink.received(address))}
    assert reminded == {"p1@example.com", "p2@example.com"}
