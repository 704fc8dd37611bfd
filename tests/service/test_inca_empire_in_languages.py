"""For Inca Empire: The Card Game: a Chinese or Japanese player reads the game's buttons,
log lines and terms (cities, regions, goods, card texts) in their own language, in turn mails
and on the play page, and may answer a turn mail with a translated label; an English player
still reads English.

The engine builds every label and log line as a phrase (``engine.text``); these tests check
the whole path: phrases from real games -> the ``inca_empire`` catalogs -> mail and page."""
from __future__ import annotations

import random
import re
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from engine.games.inca_empire import GAME
from engine.games.inca_empire.data import CARDS, GOALS
from engine.text import render
from service.store.loading import load
from service.view.i18n import translate
from service.store.preferences import set_preference
from service.web.extensions import services
from tests.service.catalog_kit import forms, message_key, translated as complete
from tests.service.mail_kit import (  # noqa: F401  (app, smtp: fixtures)
    app, events, newest, send, smtp, text_of, write_reply)

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("zh_Hans", "ja")
FIELD = re.compile(r"\{\w*\}")
# Words every page or mail of the game shows in each language (coined terms, see the glossary
# in docs/games/inca_empire.md).
NATIVE = {"zh_Hans": ("时代", "最近的行动"), "ja": ("時代", "最近の手")}


def catalog(language: str) -> dict:
    path = ROOT / "translations" / language / "LC_MESSAGES" / "inca_empire.po"
    with open(path, "rb") as handle:
        return {message_key(m.id): m.string for m in read_po(handle) if m.id}


def templates_in(text, found: set) -> set:
    """Every template and term a phrase uses (nested phrases included)."""
    if type(text) is dict:
        found.add((text["t"], text["p"]) if "p" in text else text["t"])
        for value in (text.get("a") or {}).values():
            templates_in(value, found)
    elif type(text) is list:
        for value in text:
            templates_in(value, found)
    return found


def english_pieces() -> set[str]:
    """The fixed English words of the engine's action and log templates (the parts between
    the ``{fields}``), long enough not to occur by chance in another language's text."""
    pot = ROOT / "translations" / "inca_empire.pot"
    with open(pot, "rb") as handle:
        ids = [english for m in read_po(handle) if m.id for english in forms(m.id)
               if FIELD.search(english)]
    return {piece.strip() for message in ids for piece in FIELD.split(message)
            if len(piece.strip(" (),:.")) >= 6}


def random_game_texts(players: int, seed: int) -> tuple[list[dict], list]:
    """Every listed action and every log line of one random game (half the moves the bot's)."""
    state = GAME.setup([f"P{i}" for i in range(players)], seed, {})
    chooser = random.Random(seed)
    listed, log = [], []
    while GAME.outcome(state) is None:
        seat = chooser.choice(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        listed += legal
        action = GAME.bot_action(state, seat) if chooser.random() < 0.5 else chooser.choice(legal)
        GAME.apply_in_place(state, seat, action)
        log += state["log"][-1:]
    return listed, log


# ------------------------------------------------------------------ the engine's texts

def test_every_label_and_log_line_of_real_games_is_a_phrase_with_both_translations():
    catalogs = {language: catalog(language) for language in LANGUAGES}
    used: set[str] = set()
    for players, seed in ((2, 3), (4, 5), (5, 6)):
        listed, log = random_game_texts(players, seed)
        for action in listed:
            assert render(action["_say"]) == action["label"], action  # English as it always was
            templates_in(action["_say"], used)
        for line in log:
            assert type(line) is dict and line["t"] == "Era {era}: {player}: {text}"
            templates_in(line, used)
    for card in CARDS.values():  # the pages show every card's name and text
        used.add(card["name"])
        used.update(card[k]["text"] for k in ("effect", "action") if k in card)
    used.update(goal["text"] for goal in GOALS)
    assert len(used) > 100
    for language, translated in catalogs.items():
        missing = sorted(map(str, (t for t in used if not complete(forms(translated.get(t))))))
        assert not missing, f"{language}: not in the catalog: {missing}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_labels_and_log_lines_read_in_the_language_with_names_kept(language):
    listed, log = random_game_texts(3, 9)
    pieces = english_pieces()
    cities = {c["name"] for c in CARDS.values()}
    for text in [*listed, *log]:
        said = translate(language, text)
        assert not [p for p in pieces if p in said], said
        assert not [c for c in cities if re.search(rf"\b{c}\b", said)], said
        english = render(text.get("_say", text))
        for player in ("P0", "P1", "P2"):  # names are never translated
            assert (player in said) == (player in english), said


# ------------------------------------------------------------------ mail and pages

def play(client, app, data, secrets, until):
    """Bot moves through the API until ``until(state)`` holds; returns the loaded game."""
    svc = services(app)
    for _ in range(400):
        with app.app_context(), svc.db.reading() as session:
            loaded = load(session, data["id"])
        if until(loaded.state):
            return loaded
        seat = loaded.game.to_act(loaded.state)[0]
        action = loaded.game.bot_action(loaded.state, seat)
        response = client.post(f"/api/play/{secrets[seat]}",
                               json={"action": action, "seq": loaded.seq})
        assert response.status_code == 200, response.get_json()
    raise AssertionError("the game never got there")


def choose_languages(app, data, languages: dict) -> None:
    svc = services(app)
    with svc.db.unit_of_work() as session:
        for seat, language in languages.items():
            set_preference(session, data["id"], seat, svc.clock(), language=language)


def shown(html: str, undo: bool = False) -> str:
    """What a reader sees of a page or mail: no <style>/<script>, no hidden form values (the
    move's JSON goes back to the server as it is).  ``undo=False`` leaves out the "take back
    my move" button, whose label is the English one recorded with the move (see
    test_the_take_back_button_names_the_move_in_the_players_language)."""
    html = re.sub(r"(?s)<(style|script)\b.*?</\1>", "", html)
    if not undo:
        html = re.sub(r'(?s)<form [^>]*action="[^"]*/undo".*?</form>', "", html)
    return unescape(re.sub(r"(?s)<[^>]*>", " ", html))


def assert_reads_in(language: str, text: str, legal: list[dict], log: list) -> None:
    """``text`` (a mail body or a page) shows the seat's actions and the log translated,
    and no English template of the engine."""
    text = shown(text)
    for action in legal:
        assert translate(language, action) in text, translate(language, action)
    for line in log:
        assert translate(language, line) in text, translate(language, line)
    english = [p for p in english_pieces() if p in text]
    assert not english, f"{language}: English left: {english}"
    for word in NATIVE[language]:
        assert word in text, word
    for name in ("Cusco", "Extra Workforce", "Trade Agreement", "Era 1:"):
        assert name not in text, name


def test_chinese_and_japanese_players_read_mails_and_pages_in_their_language(app, client,
                                                                               new_game, smtp):
    data, secrets = new_game(game="inca_empire", players=3)
    choose_languages(app, data, {0: "zh_Hans", 1: "ja"})
    # Into the action phase, with log lines, the turn at seat 0, then at seat 1, then seat 2.
    for seat in (0, 1, 2):
        loaded = play(client, app, data, secrets,
                      lambda s, seat=seat: s["phase"] == "actions" and len(s["log"]) >= 4
                      and s["turn"] == seat and s["pending"] is None)
        legal, log = loaded.game.legal_actions(loaded.state, seat), loaded.state["log"][-3:]
        mail = newest(smtp, f"p{seat}@example.com")
        text, html = text_of(mail), mail.get_body(("html",)).get_content()
        page = client.get(f"/play/{secrets[seat]}").get_data(as_text=True)
        if seat == 2:  # the English player: the labels and log lines as they always were
            for body in (text, shown(html), shown(page)):
                for action in legal:
                    assert action["label"] in body
                for line in log:
                    assert render(line) in body
                assert "Recent moves" in body and "Cusco" in body
            continue
        language = ("zh_Hans", "ja")[seat]
        assert mail["Content-Language"] == language.replace("_", "-")
        assert_reads_in(language, text, legal, log)
        assert_reads_in(language, html, legal, log)
        assert_reads_in(language, page, legal, log)
        assert ("库斯科" if seat == 0 else "クスコ") in text


@pytest.mark.parametrize("seat, language", [(0, "zh_Hans"), (1, "ja")])
def test_a_reply_naming_a_translated_label_makes_that_move(app, client, new_game, smtp, seat,
                                                           language):
    from service.web.inbound_listener import InboundController
    from tests.integration.smtp_sink import free_port

    data, secrets = new_game(game="inca_empire", players=3)
    choose_languages(app, data, {seat: language})
    loaded = play(client, app, data, secrets,
                  lambda s: s["phase"] == "actions" and s["turn"] == seat and s["pending"] is None)
    legal = loaded.game.legal_actions(loaded.state, seat)
    wanted = next(a for a in legal if a["type"] == "terrace")
    label = translate(language, wanted)
    assert label != wanted["label"]
    turn = newest(smtp, f"p{seat}@example.com")
    assert label in text_of(turn)
    port = free_port()
    controller = InboundController(app, "127.0.0.1", port)
    controller.start()
    try:
        send(port, write_reply(turn, label))
    finally:
        controller.stop()
    made = [e.payload["action"] for e in events(app, data["id"]) if e.kind == "MoveMade"]
    assert made[-1] == {"type": "terrace", "card": wanted["card"]}


def test_the_take_back_button_names_the_move_in_the_players_language(app, client, new_game, smtp):
    data, secrets = new_game(game="inca_empire", players=3)
    loaded = play(client, app, data, secrets, lambda s: s["phase"] == "draft_pick")
    picker = loaded.state["draft"]["order"][0]   # the first player, chosen by lot
    choose_languages(app, data, {picker: "zh_Hans"})
    play(client, app, data, secrets,
         lambda s: s["phase"] == "draft_pick" and s["draft"]["index"] == 1)
    page = client.get(f"/play/{secrets[picker]}").get_data(as_text=True)
    assert "/undo" in page, "the first picker may take back its pick"
    english = [p for p in english_pieces() if p in shown(page, undo=True)]
    assert not english, english

