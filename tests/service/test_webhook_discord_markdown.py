"""Discord renders Markdown in a webhook's content and embed description, masked links
included: a player's name or table talk holding ``[Watch the game](https://evil.example)``
would post a link the channel takes for the game's own.  Every text we did not write is
posted with Discord's Markdown characters escaped, so it shows as written."""
from __future__ import annotations

import re

from tests.service.test_webhook_escaping import hostile_game, say
from tests.service.webhook_kit import add_hook, app, move, receiver  # noqa: F401

TALK = "[Watch the game](https://evil.example) **now** `x` ||spoiler|| ~~gone~~ _it_"


def unescaped(text: str, mark: str) -> bool:
    """Whether ``text`` holds ``mark`` without Discord's backslash before its first character."""
    return re.search(r"(?<!\\)" + re.escape(mark), text) is not None


def test_discord_shows_markdown_in_table_talk_as_written_never_as_a_link(
        app, client, admin_headers, receiver):
    data, secrets = hostile_game(client, admin_headers)
    add_hook(app, data["id"], receiver.url("/discord"), "discord", talk=True)
    for secret in secrets:
        move(client, secret)
    say(client, secrets[0], TALK)
    talk = receiver.bodies("/discord")[-1]
    for text in (talk["content"], talk["embeds"][0]["description"]):
        for mark in ("[Watch", "](https", "**now", "`x", "||spoiler", "~~gone", "_it"):
            assert not unescaped(text, mark), (mark, text)
        assert re.sub(r"\\(.)", r"\1", text).count(TALK) == 1, "shown as written"
    game_id = data["id"].replace("_", "\\_")  # an id's "_" would start an emphasis
    assert f"({game_id})" in talk["content"]
