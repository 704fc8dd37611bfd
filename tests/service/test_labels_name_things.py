"""Buttons, mail and the game log name things as the rulebooks do, never by an internal id:
a Moon Tile is "3 corn" or "2 trail steps" (as the status line says), not "corn3" or
"steps2".  The English label recorded with the move (the audit's and the JSON API's) is
recorded data and stays as it was written; only what a reader is shown is named.

And no internal code reaches a reader of any game: random games' every label and log line in
all three languages, and the pages and mails of games in play, hold no snake_case id and no
word run into a number."""
from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest

from engine import get_game
from engine.registry import GAMES
from service.view.i18n import translate
from tests.service.mail_kit import app, events, inbox, smtp, text_of, newest  # noqa: F401

INTERNAL_IDS = re.compile(r"\b(corn3|steps2|steps3)\b")


def play_until_a_seat_may_stay(client, secrets):
    """Moves the first legal action of whoever acts until some seat may take a Moon Tile."""
    for _ in range(40):
        for secret in secrets:
            state = client.get(f"/api/play/{secret}").get_json()
            if any(a["type"] == "stay" for a in state["legal_actions"]):
                return secret, state
            if state["legal_actions"]:
                client.post(f"/api/play/{secret}",
                            json={"action": state["legal_actions"][0], "seq": state["seq"]})
    raise AssertionError("nobody could stay")


def test_moon_tiles_are_named_by_what_they_give_in_buttons_mail_and_log(app, new_game, smtp):
    client = app.test_client()
    game, secrets = new_game(game="machu_picchu", players=3, seed=7)
    secret, state = play_until_a_seat_may_stay(client, secrets)
    page = client.get(f"/play/{secret}?lang=en").get_data(as_text=True)
    assert "Stay and take the 3 corn Moon Tile" in page
    assert "Stay and take the 2 trail steps Moon Tile" in page
    assert not INTERNAL_IDS.search(re.sub(r'value="[^"]*"', "", page))  # the form's JSON aside
    seat = next(i for i, s in enumerate(game["seats"]) if secret in s["play_url"])
    mail = text_of(newest(smtp, f"p{seat}@example.com"))
    assert "3 corn Moon Tile" in mail and not INTERNAL_IDS.search(mail)
    stay = next(a for a in state["legal_actions"] if a.get("tile") == "corn3")
    answer = client.post(f"/api/play/{secret}", json={"action": stay, "seq": state["seq"]})
    assert answer.status_code == 200, answer.get_json()
    page = client.get(f"/play/{secret}?lang=en").get_data(as_text=True)
    assert "stays and takes the 3 corn Moon Tile" in page
    recorded = [e for e in events(app, game["id"]) if e.kind == "MoveMade"][-1]
    assert recorded.payload["label"] == "Stay and take the corn3 Moon Tile"  # as it was written
    for language, named in (("zh_Hans", "3个玉米"), ("ja", "トウモロコシ3個"), ("en", "3 corn")):
        assert named in translate(language, recorded.payload["say"])


# ------------------------------------------------------------------ no internal code anywhere

# An id a player should never read: snake_case ("corn_terraces", "draft_show") or a word run
# into a number ("corn3", "steps2").  Card ids such as "E1-01" are printed on purpose.
INTERNAL_CODE = re.compile(r"(?<![A-Za-z0-9_])(?:[a-z]+(?:_[a-z]+)+|[a-z]+\d+)(?![A-Za-z0-9_])")
LANGUAGES = ("en", "zh_Hans", "ja")


def random_game_texts(name: str, seed: int, players: int) -> list:
    """Every listed action and log line of one random game of ``name`` (half the bot's moves)."""
    game = get_game(name)
    state = game.setup([f"P{i}" for i in range(players)], seed, {})
    chooser, texts = random.Random(seed), []
    for _ in range(4000):
        if game.outcome(state) is not None:
            break
        seat = chooser.choice(game.to_act(state))
        legal = game.legal_actions(state, seat)
        texts += legal
        action = game.bot_action(state, seat) if chooser.random() < 0.5 else chooser.choice(legal)
        game.apply_in_place(state, seat, action)
    return texts + list(state.get("log") or [])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_label_or_log_line_of_a_random_game_names_an_internal_code(name):
    game = get_game(name)
    codes = set()
    for seed in range(3):
        for text in random_game_texts(name, seed, max(game.min_players, 3 + seed % 2)):
            for language in LANGUAGES:
                codes.update(INTERNAL_CODE.findall(translate(language, text)))
    assert not codes


class VisibleText(HTMLParser):
    """What a reader sees of a page: its text and its tooltips, not its markup, attributes,
    scripts or styles."""

    def __init__(self):
        super().__init__()
        self.parts, self.hidden = [], 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style")
        self.parts += [value for key, value in attrs if key in ("title", "aria-label", "alt")
                       and value]

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible(page: str) -> str:
    reader = VisibleText()
    reader.feed(page)
    return " ".join(reader.parts)


def readable(mail: str) -> str:
    """A mail's or page's text without its links, addresses and the record's fingerprint
    ("sha256:…", shown on purpose): a token in a URL is no label."""
    return re.sub(r"\S+@\S+|https?://\S+|sha256:[0-9a-f]+", "", mail)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_pages_and_mails_of_a_game_in_play_name_no_internal_code(app, new_game, smtp, name):
    client = app.test_client()
    game = get_game(name)
    data, secrets = new_game(game=name, players=max(game.min_players, 3), seed=11)
    chooser, codes = random.Random(11), set()
    for step in range(36):
        if step % 6 == 0:
            for secret, language in zip(secrets, LANGUAGES):
                page = client.get(f"/play/{secret}?lang={language}").get_data(as_text=True)
                # the play page shows the seat's calendar and feed links, random tokens
                text = readable(visible(page)).replace(data["id"], "")
                codes.update(INTERNAL_CODE.findall(text))
        acting = [s for s in secrets if client.get(f"/api/play/{s}").get_json()["legal_actions"]]
        if not acting:
            break
        secret = chooser.choice(acting)
        state = client.get(f"/api/play/{secret}").get_json()
        action = chooser.choice(state["legal_actions"])
        answer = client.post(f"/api/play/{secret}", json={"action": action, "seq": state["seq"]})
        assert answer.status_code == 200, answer.get_json()
    for seat in range(len(secrets)):
        for mail in inbox(smtp, f"p{seat}@example.com"):
            # the game's id is random (URL-safe letters, digits, "-" and "_"), shown on purpose
            text = readable(text_of(mail)).replace(data["id"], "")
            html = readable(visible(mail.get_body(("html",)).get_content())).replace(data["id"], "")
            codes.update(INTERNAL_CODE.findall(text) + INTERNAL_CODE.findall(html))
    assert not codes
