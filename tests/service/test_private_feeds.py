"""Calendars and feeds: a player's deadlines as iCalendar (parsed with ``icalendar``), a game's
and a player's news as Atom (parsed with ``feedparser``); revocable links; nothing secret."""
from __future__ import annotations

import re
from datetime import timedelta

import feedparser
import icalendar
from sqlalchemy import select

from service.application.services import utc_now
from service.core.tokens import spectate_token
from service.store import preferences
from service.store.events import utc
from service.store.models import DeadlineRow
from service.store.timekeeping import timeout_of
from service.web.extensions import services
from tests.service.test_gets_write_nothing import writes_counted
from tests.service.test_mail import mails

HOUR = timedelta(hours=1)
BASE = "http://chasqui.test"


def page_of(client, secret) -> str:
    return client.get(f"/play/{secret}").get_data(as_text=True)


def private_links(client, secret) -> tuple[str, str]:
    """The play page's calendar and games-feed links (paths)."""
    page = page_of(client, secret)
    calendar = re.search(re.escape(BASE) + r"(/calendar/[^\"<\s]+\.ics)", page).group(1)
    feed = re.search(re.escape(BASE) + r"(/feeds/[^\"<\s]+\.atom)", page).group(1)
    return calendar, feed


def events_of(client, path) -> list:
    response = client.get(path)
    assert response.status_code == 200
    assert response.content_type.startswith("text/calendar")
    return icalendar.Calendar.from_ical(response.get_data()).walk("VEVENT")


def game_feed_path(app, game_id) -> str:
    return f"/watch/{spectate_token(services(app).settings.secret_key, game_id)}/feed.atom"


def parsed(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response.content_type.startswith("application/atom+xml")
    feed = feedparser.parse(response.get_data())
    assert not feed.bozo, feed.bozo_exception
    return feed


def pending_timeout(app, game_id, seat):
    """The timeout of the seat's open decision, from its deadline row."""
    with services(app).db.reading() as session:
        row = session.scalars(select(DeadlineRow).where(
            DeadlineRow.game_id == game_id, DeadlineRow.seat == seat,
            DeadlineRow.status == "pending", DeadlineRow.kind != "vacation_end")).one()
        return utc(timeout_of(row.kind, row.due_at))


def move(client, secret, kind="stay"):
    seq = client.get(f"/api/play/{secret}").get_json()["seq"]
    response = client.post(f"/api/play/{secret}", json={"action": {"type": kind}, "seq": seq})
    assert response.status_code == 200, response.get_json()


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def test_the_calendar_has_an_event_per_open_decision_at_its_deadline_with_the_reminder_alarms(
        app, client, new_game, clock):
    first, secrets = new_game(players=3)
    clock.advance(HOUR)
    second, _ = new_game(players=3, clock={"per_decision_hours": 10, "bank_max_hours": 20,
                                           "reminder_hours": [24, 3]})
    calendar, _ = private_links(client, secrets[0])
    events = events_of(client, calendar)
    assert len(events) == 2, "p0's open decision in each of the two games"
    first_event, second_event = events  # soonest first: the second game's is due in 10 h
    assert second_event["DTSTART"].dt == pending_timeout(app, first["id"], 0)
    assert first_event["DTSTART"].dt == pending_timeout(app, second["id"], 0)
    assert first_event["DTSTART"].dt == clock() + 10 * HOUR
    assert second_event["DTSTART"].dt.utcoffset() == timedelta(0), "in UTC"
    assert "DTEND" not in second_event, "a deadline ends when it starts (RFC 5545 3.6.1)"
    assert str(second_event["SUMMARY"]) == "Incan Gold: your turn"
    assert [a["TRIGGER"].dt for a in second_event.walk("VALARM")] == [-24 * HOUR, -2 * HOUR]
    # the 24 h mark falls before a 10 h decision opened: no mail for it, and no alarm
    assert [a["TRIGGER"].dt for a in first_event.walk("VALARM")] == [-3 * HOUR]
    assert len({str(e["UID"]) for e in events}) == 2
    assert "/watch/" in str(second_event["URL"])


def test_a_move_takes_its_decision_off_the_calendar_and_the_next_one_puts_a_new_event_on(
        app, client, new_game, clock):
    data, secrets = new_game(players=3)
    calendar, _ = private_links(client, secrets[0])
    (before,) = events_of(client, calendar)
    clock.advance(HOUR)
    move(client, secrets[0])
    assert events_of(client, calendar) == [], "p0 answered: nothing is due from p0"
    move(client, secrets[1])
    move(client, secrets[2])  # everyone chose: the next decision opens for whoever is inside
    (after,) = events_of(client, calendar)
    assert str(after["UID"]) != str(before["UID"])
    assert after["DTSTART"].dt == pending_timeout(app, data["id"], 0)


def test_a_new_calendar_link_revokes_the_old_one_and_leaves_the_feed_link_alone(
        app, client, new_game):
    _, secrets = new_game(players=3)
    _, elsewhere = new_game(players=3)  # p0 plays here too: that game's links are p0's as well
    calendar, feed = private_links(client, secrets[0])
    other_calendar, _ = private_links(client, elsewhere[0])
    assert client.get(other_calendar).status_code == 200
    response = client.post(f"/play/{secrets[0]}/calendar/new",
                           data={"csrf_token": csrf(page_of(client, secrets[0]))})
    assert response.status_code == 303
    assert client.get(calendar).status_code == 404
    assert client.get(other_calendar).status_code == 404, "one player, one calendar link"
    new_calendar, same_feed = private_links(client, secrets[0])
    assert new_calendar != calendar and same_feed == feed
    assert len(events_of(client, new_calendar)) == 2
    assert client.get(feed).status_code == 200


def test_a_new_link_needs_the_csrf_token_and_a_valid_seat_secret(app, client, new_game):
    _, secrets = new_game(players=3)
    calendar, _ = private_links(client, secrets[0])
    assert client.post(f"/play/{secrets[0]}/calendar/new").status_code == 400
    token = csrf(page_of(client, secrets[0]))
    assert client.post("/play/forged/calendar/new", data={"csrf_token": token}).status_code == 403
    assert client.get(calendar).status_code == 200


def test_a_forged_link_and_another_kinds_link_are_refused(app, client, new_game):
    _, secrets = new_game(players=3)
    calendar, feed = private_links(client, secrets[0])
    assert client.get("/calendar/forged.ics").status_code == 404
    assert client.get("/feeds/forged.atom").status_code == 404
    calendar_token = calendar.removeprefix("/calendar/").removesuffix(".ics")
    assert client.get(f"/feeds/{calendar_token}.atom").status_code == 404
    assert client.get(f"/calendar/{secrets[0]}.ics").status_code == 404, "a seat secret is not one"
    assert client.get("/watch/forged/feed.atom").status_code == 404


def test_the_game_feed_parses_with_an_entry_per_public_event(app, client, new_game, clock):
    data, secrets = new_game(players=3)
    clock.advance(HOUR)
    move(client, secrets[1])
    feed = parsed(client, game_feed_path(app, data["id"]))
    assert feed.feed.title == "Incan Gold — P0, P1, P2"
    assert [e.title for e in feed.entries] == ["P1 has chosen.", "The game began: P0, P1, P2."]
    newest, began = feed.entries
    assert newest.id == f"tag:chasqui.test,2026-11-29:game/{data['id']}/event/2"
    assert newest.summary == "Waiting for P0, P2."
    assert newest.updated == "2026-11-29T13:00:00Z" and began.updated == "2026-11-29T12:00:00Z"
    assert newest.link.startswith(f"{BASE}/watch/")
    assert client.get(newest.link.removeprefix(BASE)).status_code == 200


def test_the_players_feed_lists_each_of_their_games_and_says_when_it_is_their_turn(
        app, client, new_game, clock):
    first, secrets = new_game(players=3)
    clock.advance(HOUR)
    second, other = new_game(players=3)
    clock.advance(HOUR)
    move(client, other[0])
    _, feed_path = private_links(client, secrets[0])
    feed = parsed(client, feed_path)
    titles = [e.title for e in feed.entries]
    assert titles == ["Incan Gold: P0 has chosen.", "Incan Gold: The game began: P0, P1, P2.",
                      "Incan Gold: The game began: P0, P1, P2."]
    assert [e.summary for e in feed.entries] == [
        "Waiting for P1, P2.", "Waiting for P0, P1, P2. It is your turn.",
        "Waiting for P0, P1, P2. It is your turn."]
    assert len({e.id for e in feed.entries}) == 3
    assert feed.entries[0].id == f"tag:chasqui.test,2026-11-29:game/{second['id']}/seat/0/event/2"
    assert all(e.link.startswith(f"{BASE}/watch/") for e in feed.entries)


def test_no_feed_or_calendar_shows_a_pending_secret_choice_or_a_play_link(app, client, new_game):
    """Incan Gold: each explorer's choice is secret until everyone has chosen (the rules'
    simultaneous reveal), so while P2 is deciding nobody else's stay or leave is known."""
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay")
    move(client, secrets[1], "leave")
    texts = {"game feed": client.get(game_feed_path(app, data["id"])).get_data(as_text=True)}
    for seat in (1, 2):
        calendar, feed = private_links(client, secrets[seat])
        texts[f"P{seat}'s feed"] = client.get(feed).get_data(as_text=True)
        texts[f"P{seat}'s calendar"] = client.get(calendar).get_data(as_text=True)
    for name, text in texts.items():
        lowered = text.lower()
        for secret_word in ("stay", "leave", "temple", "camp"):
            assert secret_word not in lowered, (name, secret_word)
        assert "/play/" not in text and not any(secret in text for secret in secrets), name
    assert "P0 has chosen." in texts["game feed"] and "P1 has chosen." in texts["game feed"]


def test_feeds_and_calendars_write_nothing(app, client, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[0])
    calendar, feed = private_links(client, secrets[1])
    with writes_counted(app) as seen:
        for path in (calendar, feed, game_feed_path(app, data["id"]), f"/play/{secrets[1]}"):
            assert client.get(path).status_code == 200, path
    assert seen == []


def test_the_calendar_and_the_players_feed_speak_the_players_language(app, client, new_game):
    _, secrets = new_game(players=3)
    with services(app).db.unit_of_work() as session:
        preferences.set_address_language(session, "p0@example.com", "ja", utc_now())
    calendar, feed = private_links(client, secrets[0])
    (event,) = events_of(client, calendar)
    assert str(event["SUMMARY"]) == "インカの黄金：あなたの番です"
    assert parsed(client, feed).entries[0].summary.endswith("あなたの番です。")


def test_the_turn_mail_the_play_page_and_the_spectator_page_link_the_feeds(app, client, new_game):
    data, secrets = new_game(players=3)
    text = mails(app, "p0@example.com")[0].get_body(("plain",)).get_content()
    assert f"Your deadlines in your calendar: {BASE}/play/{secrets[0]}#private-feeds" in text
    token = spectate_token(services(app).settings.secret_key, data["id"])
    assert f"/watch/{token}/feed.atom" in client.get(f"/watch/{token}").get_data(as_text=True)
    page = page_of(client, secrets[0])
    assert 'id="private-feeds"' in page and f"/watch/{token}/feed.atom" in page
