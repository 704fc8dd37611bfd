"""For The Princes of Machu Picchu: a Chinese and a Japanese player read the game's own
texts (buttons, the mail's move list, the log, district / good / card names) in their language,
with the terms of the rules texts; a reply naming the move in that language makes it; an
English player at the same table still reads English.

The engine gives phrases (``engine.text``); these tests play a real game through the service
(API, SMTP sink, inbound listener) and read what the players get."""
from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from engine import get_game
from engine.core import without_label
from engine.games.machu_picchu import data as mp_data
from engine.text import render
from service.store.preferences import set_preference
from tests.service.catalog_kit import forms, message_key
from tests.service.mail_kit import (app, events, listener, newest, send, smtp,  # noqa: F401
                                    text_of, write_reply)
from service.web.extensions import services

ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "translations" / "machu_picchu.pot"
FIELD = re.compile(r"\{\w*\}")
LANGUAGE_OF_SEAT = {0: "zh_Hans", 1: "ja"}         # seat 2 keeps the default, English


def catalog_ids() -> set[str]:
    with open(POT, "rb") as handle:
        return {message_key(m.id) for m in read_po(handle) if m.id}


def english_fragments() -> list[str]:
    """Every English phrase of the engine (its action and log templates, cut at their
    ``{fields}``) and every term (district, good, priest names): none may reach a Chinese or
    Japanese reader.  Short or generic pieces ("corn", "Done") are left out: they would also
    match inside player names, URLs or words of the mail around the game."""
    pieces = set()
    for message_id in catalog_ids():
        for english in forms(message_id):
            if "{" in english:
                pieces.update(p.strip(" :,.") for p in FIELD.split(english))
    pieces.update(mp_data.DISTRICT_NAMES.values())
    pieces.update(p["name"] for p in mp_data.PRIESTS.values())
    return sorted((p for p in pieces if len(p) >= 9), key=len, reverse=True)


def visible(html: str) -> str:
    """What a reader sees or hears of a page or an HTML mail (text, title and aria-label)."""
    html = re.sub(r"(?s)<(style|script)\b.*?</\1>", "", html)
    shown = " ".join(re.findall(r'(?:title|aria-label)="([^"]*)"', html))
    return unescape(re.sub(r"(?s)<[^>]*>", " ", html) + " " + shown)


def assert_no_english(text: str, where: str) -> None:
    for english in english_fragments():
        assert english not in text, f"{where}: English left: {english!r}"


@pytest.fixture
def table(app, new_game, smtp):
    """A 3-player game: seat 0 reads Chinese, seat 1 Japanese, seat 2 English."""
    game, secrets = new_game(game="machu_picchu", players=3, seed=7)
    svc = services(app)
    with svc.db.unit_of_work() as session:
        for seat, language in LANGUAGE_OF_SEAT.items():
            set_preference(session, game["id"], seat, svc.clock(), language=language)
    return game, secrets


def play(client, secret: str, **action) -> None:
    seq = client.get(f"/api/play/{secret}").get_json()["seq"]
    response = client.post(f"/api/play/{secret}", json={"action": action, "seq": seq})
    assert response.status_code == 200, response.get_json()


def made(app, game_id: str) -> list[tuple[int, dict]]:
    return [(e.payload["seat"], e.payload["action"]) for e in events(app, game_id)
            if e.kind == "MoveMade"]


def test_every_phrase_and_term_the_engine_shows_is_in_the_catalog():
    """A label or log line built from a template nobody extracted would stay English for
    everyone: play random games and look every template and term up in the .pot."""
    import random

    game, known, seen = get_game("machu_picchu"), catalog_ids(), set()

    def templates(text):
        if type(text) is dict:
            seen.add((text["t"], text["p"]) if "p" in text else text["t"])
            for value in (text.get("a") or {}).values():
                templates(value)
        elif type(text) is list:
            for value in text:
                templates(value)

    for seed in range(6):
        players, chooser = ["Ana", "Bo", "Cy", "Di"][:2 + seed % 3], random.Random(seed)
        state = game.setup(players, seed, {})
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            for action in legal:
                templates(action["_say"])
                assert render(action["_say"]) == action["label"]
            game.apply_in_place(state, seat, chooser.choice(legal))
            templates(state["log"])
    assert len(seen) > 40 and seen <= known, sorted(seen - known)


@pytest.mark.parametrize("language", ["zh_Hans", "ja"])
def test_each_move_offered_has_its_own_words_in_each_language(language):
    """A reply by mail names a move by its label: two moves offered together must never read
    the same once translated (the English labels never do)."""
    import random

    from service.view.i18n import translate

    game = get_game("machu_picchu")
    for seed in range(5):
        players, chooser = ["Ana", "Bo", "Cy", "Di"][:2 + seed % 3], random.Random(seed)
        state = game.setup(players, seed, {})
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            said = [translate(language, action).casefold() for action in legal]
            assert len(set(said)) == len(said), sorted(s for s in said if said.count(s) > 1)
            game.apply_in_place(state, seat, chooser.choice(legal))


def test_the_chinese_and_japanese_players_read_the_game_in_their_language(app, client, table, smtp,
                                                                         listener):
    game, secrets = table
    play(client, secrets[0], type="place_free", district="corn_terraces")
    # seat 1 (Japanese) is asked for its free Inca: buttons, terms and the log in Japanese
    mail = newest(smtp, "p1@example.com")
    assert mail["Content-Language"] == "ja"
    text, html = text_of(mail), visible(mail.get_body(("html",)).get_content())
    for words in ("リャマの牧草地に無料のインカ人を置く",       # a move (the mail's list)
                  "P0 がトウモロコシ段々畑に無料のインカ人を置く",  # the log
                  "インカ道", "太陽の巫女"):
        assert words in text, words
    assert "P0 がトウモロコシ段々畑に無料のインカ人を置く" in html and "日時計" in html
    assert_no_english(text, "ja text mail")
    assert_no_english(html, "ja html mail")

    # a reply naming the move in Japanese makes it
    send(listener, write_reply(mail, "リャマの牧草地に無料のインカ人を置く"))
    assert made(app, game["id"])[-1] == (1, {"type": "place_free", "district": "llama_meadow"})

    # the English player: English labels, log and names, as for any English reader
    english = text_of(newest(smtp, "p2@example.com"))
    for words in ("Place your free Inca on Weaver's Quarter",
                  "P1 places a free Inca on Llama's Meadow", "Corn Terraces"):
        assert words in english, words
    assert "リャマ" not in english and "玉米" not in english
    play(client, secrets[2], type="place_free", district="weavers_quarter")

    # seat 0 (Chinese) places its Prince: the rules text's words
    mail = newest(smtp, "p0@example.com")
    assert mail["Content-Language"] == "zh-Hans"
    text, html = text_of(mail), visible(mail.get_body(("html",)).get_content())
    for words in ("将你的王子放到中央广场", "将你的王子放到拴日石", "P1 在放牧场放置1个免费工人",
                  "P2 在织布所放置1个免费工人", "印加之路", "太阳神庙圣女", "驼羊"):
        assert words in text, words
    assert "P2 在织布所放置1个免费工人" in html and "守卫屋" in html
    assert_no_english(text, "zh text mail")
    assert_no_english(html, "zh html mail")


def test_the_play_pages_show_buttons_log_and_terms_in_the_seats_language(app, client, table):
    game, secrets = table
    for seat, district in enumerate(("corn_terraces", "llama_meadow", "weavers_quarter")):
        play(client, secrets[seat], type="place_free", district=district)
    play(client, secrets[0], type="move", to="house_of_priests")
    play(client, secrets[0], type="take", priest="condor")
    # seat 1 moves next; its page (Japanese by preference) offers the city in Japanese
    page = client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    shown = visible(page)
    assert '<html lang="ja">' in page
    for words in ("王子を置く", "神官の館", "巫女の館", "日時計",          # group title, buttons
                  "中央広場に王子を置く",                               # a button's full label
                  "P0 が神官の館へ行く", "P0 がコンドルの神官を1枚取る",      # the log
                  "P2 が織工の地区に無料のインカ人を置く"):
        assert words in shown, words
    assert_no_english(shown, "ja play page")
    # seat 0's page once seat 1 moved too: Chinese, its new Priest named as in the rules text
    play(client, secrets[1], type="move", to="corn_terraces")
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    shown = visible(page)
    assert '<html lang="zh-Hans">' in page
    for words in ("P0 前往祭司区", "P0 拿取1张兀鹰神庙祭司牌", "P1 在放牧场放置1个免费工人",
                  "P1 前往玉米田"):
        assert words in shown, words
    assert "兀鹰神庙祭司：<strong>1</strong>" in page         # its supplies
    assert_no_english(shown, "zh play page")
    # the English seat still reads English
    english = visible(client.get(f"/play/{secrets[2]}").get_data(as_text=True))
    assert "P0 goes to House of Priests" in english and "Central Plaza" in english


def test_a_chinese_reply_with_a_translated_label_makes_the_move(app, client, table, smtp, listener):
    game, secrets = table
    send(listener, write_reply(newest(smtp, "p0@example.com"), "在玉米田放置你的免费工人"))
    assert made(app, game["id"]) == [(0, {"type": "place_free", "district": "corn_terraces"})]


def test_a_players_language_does_not_change_what_is_recorded(app, client, table):
    """The event keeps the action and its English label (the audit log), whoever chose it."""
    game, secrets = table
    play(client, secrets[0], type="place_free", district="potters_quarter")
    moves = [e.payload for e in events(app, game["id"]) if e.kind == "MoveMade"]
    assert moves[0]["action"] == without_label(moves[0]["action"])
    assert moves[0]["label"] == "Place your free Inca on Potter's Quarter"
