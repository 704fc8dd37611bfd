"""Table talk, from the play page (POST + CSRF) and by replying with words."""
from __future__ import annotations

import re

from tests.service.mail_kit import (app, events, listener, newest, send, smtp, text_of,  # noqa: F401
                                    write_reply)


def csrf(page_html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page_html).group(1)


def test_words_in_a_reply_go_to_the_other_seats(app, new_game, smtp, listener):
    data, secrets = new_game(players=3)
    send(listener, write_reply(newest(smtp, "p0@example.com"), "Who dares to stay?\nNot me."))
    posted = [e for e in events(app, data["id"]) if e.kind == "MessagePosted"]
    assert [(e.payload["seat"], e.payload["text"]) for e in posted] == [(0, "Who dares to stay?\nNot me.")]
    for seat in (1, 2):
        talk = newest(smtp, f"p{seat}@example.com")
        assert "P0:" in text_of(talk) and "Who dares to stay?" in text_of(talk)
        assert "Sent from my phone" not in text_of(talk), "the signature was stripped"
        assert talk["In-Reply-To"].startswith(f"<{data['id']}.1.{seat}.start@")
        assert "Who dares to stay?" in talk.get_body(("html",)).get_content()
    assert len(smtp.sink.received("p0@example.com")) == 1, "the writer gets no copy"


def test_table_talk_leaves_links_fresh(app, client, new_game, smtp, listener):
    data, secrets = new_game(players=3)
    send(listener, write_reply(newest(smtp, "p0@example.com"), "hello"))
    response = client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "stay"}, "seq": 1})
    assert response.status_code == 200, response.get_json()


def test_the_play_page_posts_and_shows_table_talk(app, client, new_game, smtp):
    data, secrets = new_game(players=3)
    page = client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    assert "Table talk" in page and "No messages yet." in page
    assert client.post(f"/play/{secrets[1]}/talk", data={"text": "no token"}).status_code == 400
    response = client.post(f"/play/{secrets[1]}/talk",
                           data={"text": "<b>Stay</b>, all of you!", "csrf_token": csrf(page)})
    assert response.status_code == 303
    page = client.get(f"/play/{secrets[2]}").get_data(as_text=True)
    assert "&lt;b&gt;Stay&lt;/b&gt;, all of you!" in page and "<b>Stay</b>" not in page
    assert "<b>Stay</b>, all of you!" in text_of(newest(smtp, "p0@example.com"))
    html = newest(smtp, "p0@example.com").get_body(("html",)).get_content()
    assert "<b>Stay</b>" not in html and "&lt;b&gt;Stay&lt;/b&gt;" in html


def test_an_empty_message_is_refused(app, client, new_game):
    _, secrets = new_game(players=3)
    page = client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    client.post(f"/play/{secrets[1]}/talk", data={"text": "   ", "csrf_token": csrf(page)})
    assert "Not sent: the message is empty" in client.get(f"/play/{secrets[1]}").get_data(as_text=True)
