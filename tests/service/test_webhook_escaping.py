"""Every webhook format escapes what its platform interprets: a player's name or table talk
holding Slack's ``<!channel>``, Discord's ``@everyone`` or Matrix's ``@room`` pings nobody and
shows as written (docs/webhooks.md)."""
from __future__ import annotations

import html
import re

from tests.conftest import secret_from_url
from tests.service.webhook_kit import add_hook, app, move, receiver  # noqa: F401

NAMES = ["<!channel> Ana", "@everyone Ben", "<@U024BE7LH> & @here"]
TALK = "<!here> @everyone @room <b>hi</b> <@&123> <https://evil.example|click>"


def hostile_game(client, admin_headers):
    body = {"game": "incan_gold", "seed": 42, "options": {},
            "players": [{"name": name, "email": f"p{i}@example.com"}
                        for i, name in enumerate(NAMES)]}
    response = client.post("/api/games", json=body, headers=admin_headers)
    assert response.status_code == 201, response.get_json()
    data = response.get_json()
    return data, [secret_from_url(s["play_url"]) for s in data["seats"]]


def say(client, secret: str, text: str) -> None:
    page = client.get(f"/play/{secret}").get_data(as_text=True)
    token = html.unescape(re.search(r'name="csrf_token" value="([^"]+)"', page).group(1))
    response = client.post(f"/play/{secret}/talk", data={"text": text, "csrf_token": token})
    assert response.status_code in (200, 303)


def posted(app, client, admin_headers, receiver, style: str) -> list[dict]:
    data, secrets = hostile_game(client, admin_headers)
    add_hook(app, data["id"], receiver.url(f"/{style}"), style, talk=True)
    for secret in secrets:
        move(client, secret)
    say(client, secrets[0], TALK)
    bodies = receiver.bodies(f"/{style}")
    assert len(bodies) == 2, "a turn post naming every player, and the table talk"
    return bodies


def slack_texts(body: dict) -> list[str]:
    return [body["text"], body["blocks"][0]["text"]["text"]]


def test_slack_text_and_blocks_escape_angle_brackets_and_ampersands(
        app, client, admin_headers, receiver):
    bodies = posted(app, client, admin_headers, receiver, "slack")
    for body in bodies:
        for text in slack_texts(body):
            assert "<!" not in text and "<@" not in text and "<https://evil" not in text
            assert not re.search(r"&(?!amp;|lt;|gt;)", text), "every & is Slack's escape"
    turn, talk = (body["text"] for body in bodies)
    assert "&lt;!channel&gt; Ana" in turn and "&lt;@U024BE7LH&gt; &amp; @here" in turn
    assert "&lt;!here&gt;" in talk and "&lt;https://evil.example|click&gt;" in talk


def test_discord_allows_no_mention_whatever_the_names_and_talk_say(
        app, client, admin_headers, receiver):
    bodies = posted(app, client, admin_headers, receiver, "discord")
    for body in bodies:
        assert body["allowed_mentions"] == {"parse": []}
    assert "@everyone" in bodies[1]["content"], "shown as written, pinging nobody"


def test_matrix_escapes_its_html_body_and_mentions_nobody(app, client, admin_headers, receiver):
    bodies = posted(app, client, admin_headers, receiver, "matrix")
    for body in bodies:
        assert body["m.mentions"] == {}, "no @room or name in the text pings anyone"
        assert "<b>" not in body["formatted_body"] and "<!" not in body["formatted_body"]
    assert "&lt;b&gt;hi&lt;/b&gt;" in bodies[1]["formatted_body"]
    assert "&lt;!channel&gt; Ana" in bodies[0]["formatted_body"]
