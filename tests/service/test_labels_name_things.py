"""Buttons, mail and the game log name things as the rulebooks do, never by an internal id:
a Moon Tile is "3 corn" or "2 trail steps" (as the status line says), not "corn3" or
"steps2".  The English label recorded with the move (the audit's and the JSON API's) is
recorded data and stays as it was written; only what a reader is shown is named."""
from __future__ import annotations

import re

from service.view.i18n import translate
from tests.service.mail_kit import app, events, smtp, text_of, newest  # noqa: F401

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
