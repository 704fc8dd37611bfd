"""Chinese and Japanese sentences use their own punctuation ("，" "、" "；" "：" "。"), in the
catalogs and wherever translated parts are joined (pages, mails, log lines)."""
from __future__ import annotations

import random
import re
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from engine import get_game
from service.store.preferences import set_preference
from service.view.i18n import translate
from service.web.extensions import services
from tests.service.catalog_kit import forms
from tests.service.cjk_punctuation import NEUTRAL, misplaced_in_catalog, misplaced_in_output
from tests.service.mail_kit import app, inbox, smtp, text_of  # noqa: F401  (fixtures)
from tests.service.test_admin_support import post_form, site_admin

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("zh_Hans", "ja")
CATALOGS = sorted(path for language in LANGUAGES
                  for path in (ROOT / "translations" / language / "LC_MESSAGES").glob("*.po"))
PLAYERS = {"incan_gold": 3, "machu_picchu": 2, "inca_empire": 3}


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: f"{p.parts[-3]}-{p.stem}")
def test_no_catalog_text_puts_ascii_punctuation_next_to_chinese_or_japanese(path):
    with open(path, "rb") as handle:
        entries = [m for m in read_po(handle) if m.id]
    wrong = {str(m.id): found for m in entries for text in forms(m.string)
             if (found := misplaced_in_catalog(text or ""))}
    assert not wrong, wrong


def test_the_finder_sees_the_mixed_sentence_and_keeps_what_belongs_in_ascii():
    assert misplaced_in_output("全員が無事に戻った; 宝石 0 個が失われた.")
    assert misplaced_in_catalog("全員が無事に戻った; 宝石 %(num)s 個が失われた.")
    kept = "検査：flask --app service.wsgi chasqui verify-record FILE。保存したメール（.eml ファイル）"
    assert not misplaced_in_catalog(kept)
    assert not misplaced_in_output("记录指纹 sha256:ab12 见 https://chasqui.test/a.b 和 3.5 分")


def test_a_round_everyone_left_reads_as_japanese_sentences(client, new_game):
    """Was "全員が無事に戻った; 宝石 0 個が失われた." on the play page's earlier rounds."""
    data, secrets = new_game(players=3)
    seq = client.get(f"/api/play/{secrets[0]}").get_json()["seq"]
    for secret in secrets:
        client.post(f"/api/play/{secret}", json={"action": {"type": "leave"}, "seq": seq})
    page = visible(client.get(f"/play/{secrets[0]}?lang=ja").get_data(as_text=True))
    line = re.search(r"第\d+ラウンド：全員が無事に戻った.*", page).group(0)
    assert re.fullmatch(r"第\d+ラウンド：全員が無事に戻った；宝石 \d+ 個が失われた。", line), line


def random_game_texts(game_name: str, seed: int) -> list:
    """Every action offered and every log line of one random game played in the engine."""
    game = get_game(game_name)
    state = game.setup([f"P{i}" for i in range(PLAYERS[game_name])], seed, {})
    chooser, texts = random.Random(seed), []
    while game.outcome(state) is None:
        seat = chooser.choice(game.to_act(state))
        legal = game.legal_actions(state, seat)
        texts += legal
        action = game.bot_action(state, seat) if chooser.random() < 0.5 else chooser.choice(legal)
        game.apply_in_place(state, seat, action)
    return texts + list(state.get("log") or [])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_every_action_and_log_line_of_a_random_game_reads_with_its_own_punctuation(game,
                                                                                   language):
    wrong = {found for text in random_game_texts(game, seed=3)
             for found in misplaced_in_output(translate(language, text))}
    assert not wrong, sorted(wrong)


def visible(html: str) -> str:
    """The text a reader sees; a drawn icon stands in as a neutral character."""
    html = re.sub(r"(?s)<(style|script)\b.*?</\1>", "", html)
    html = re.sub(r"(?s)<svg\b.*?</svg>", NEUTRAL, html)
    return unescape(re.sub(r"(?s)<[^>]*>", "", html))


def play_a_while(client, secrets, moves: int, seed: int) -> None:
    """Random legal moves through the API, as players on the page would make them."""
    chooser = random.Random(seed)
    for _ in range(moves):
        seats = [(s, client.get(f"/api/play/{s}").get_json()) for s in secrets]
        acting = [(s, data) for s, data in seats if data["legal_actions"]]
        if not acting:
            return
        secret, data = chooser.choice(acting)
        action = {k: v for k, v in chooser.choice(data["legal_actions"]).items()
                  if k not in ("label", "_say")}
        client.post(f"/api/play/{secret}", json={"action": action, "seq": data["seq"]})


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_played_game_reads_with_its_own_punctuation(app, client, new_game, smtp, game,
                                                      language):
    data, secrets = new_game(game=game, players=PLAYERS[game], seed=7)
    svc = services(app)
    with svc.db.unit_of_work() as session:
        for seat in range(PLAYERS[game]):
            set_preference(session, data["id"], seat, svc.clock(), language=language)
    wrong = {}

    def read(where: str, url: str) -> None:
        html = client.get(f"{url}?lang={language}").get_data(as_text=True)
        wrong.update({f"{where}: {found}": 1 for found in misplaced_in_output(visible(html))})

    for moves in range(0, 40, 5):  # the play pages as the game goes: each state shows other parts
        play_a_while(client, secrets, 5, seed=moves)
        for seat, secret in enumerate(secrets):
            read(f"play {seat} after {moves + 5} moves", f"/play/{secret}")
    site_admin(app, client)
    if not client.get(f"/api/play/{secrets[0]}").get_json()["outcome"]:
        for seat in range(PLAYERS[game]):  # bots play it to its end
            assert post_form(client, data["id"], f"seats/{seat}/bot").status_code == 303
    assert client.get(f"/api/play/{secrets[0]}").get_json()["outcome"], "the game is over"
    for seat, secret in enumerate(secrets):
        read(f"over {seat}", f"/play/{secret}")
    last = text_of(inbox(smtp, "p0@example.com")[-1])
    for where in ("me", "watch"):
        read(where, re.search(rf"http://chasqui\.test(/{where}/[^\s?]+)", last).group(1))
    for seat in range(PLAYERS[game]):
        for mail in inbox(smtp, f"p{seat}@example.com"):
            wrong.update({f"mail {mail['Subject']}: {found}": 1
                          for found in misplaced_in_output(text_of(mail))})
    assert not wrong, sorted(wrong)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_separator_table_and_the_catalogs_join_lists_and_clauses_alike(language):
    """Engine phrases join a list with the catalog's ", " and the boards a clause with its
    "; ": a page must not join one list with "、" and the next with ", "."""
    from service.view.i18n import catalog
    from service.view.punctuation import separator

    found = catalog(language)
    assert found.gettext(", ") == separator("list", language) == "、"
    assert found.gettext("; ") == separator("clause", language) == "；"
    assert separator("list", "en") == ", " and separator("clause", "xx") == "; "


def test_joins_keep_english_marks_and_write_full_width_ones_in_chinese_and_japanese():
    from markupsafe import Markup

    from service.view.punctuation import aside, joined, labelled, sentences

    assert sentences(["Everyone left safely", "0 gems lost"], "en") == \
        "Everyone left safely. 0 gems lost."
    assert sentences(["全員が無事に戻った", "宝石 0 個が失われた"], "ja") == \
        "全員が無事に戻った。宝石 0 個が失われた。"
    assert labelled("道路", 3, "zh_Hans") == "道路：3"
    assert joined(["在场 2", "供应 9"], "comma", "zh_Hans") == "在场 2，供应 9"
    assert joined(["場 2", "ストック 9"], "comma", "ja") == "場 2、ストック 9"
    assert joined(["a", None, "", "b"], "clause", "en") == "a; b"
    assert joined([Markup("<b>x</b>"), "<y>"], "list", "ja") == "<b>x</b>、&lt;y&gt;"
    assert "Ana" + aside("winner", "en") == "Ana (winner)"
    assert "P0" + aside("赢家", "zh_Hans") == "P0（赢家）"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_around_a_game_read_with_their_own_punctuation(app, client, new_game, smtp,
                                                                 language):
    """The confirmation, the lobby and the organiser's game page, next to the play pages."""
    data, secrets = new_game(game="machu_picchu", players=2, seed=7)
    play_a_while(client, secrets, 10, seed=1)
    seq = client.get(f"/api/play/{secrets[0]}").get_json()["seq"]
    pages = {"home": "/", "lobby": "/lobby/", "confirm": f"/play/{secrets[0]}/a/{seq}/0",
             "moved on": f"/play/{secrets[0]}/a/1/0"}
    site_admin(app, client)
    pages.update({"admin": "/admin/", "admin game": f"/admin/games/{data['id']}",
                  "admin time travel": f"/admin/games/{data['id']}/at/3?seat=0"})
    wrong = {}
    for where, url in pages.items():
        html = client.get(url + ("&" if "?" in url else "?") + f"lang={language}")
        wrong.update({f"{where}: {found}": 1
                      for found in misplaced_in_output(visible(html.get_data(as_text=True)))})
    assert not wrong, sorted(wrong)


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_organisers_pages_and_invitations_read_with_their_own_punctuation(tmp_path, clock,
                                                                             language):
    from tests.service.test_organisers_support import (
        create_game, link_in, mails, make_app, sign_in)

    app = make_app(tmp_path, clock)  # mail goes to the local mailbox
    client = app.test_client()
    sign_in(client, app)
    texts = {"organiser home": visible(client.get(f"/organise/?lang={language}").get_data(
        as_text=True))}
    pending = create_game(client, language=language)
    texts["organiser game"] = visible(client.get(f"/organise/games/{pending}").get_data(
        as_text=True))
    for i, mail in enumerate(mails(app, "ana@example.org")):
        texts[f"mail {i}"] = mail["text"]
    invitation = [m for m in mails(app, "ana@example.org") if "/invite/" in m["text"]][0]
    texts["invitation"] = visible(app.test_client().get(link_in(invitation, "invite")).get_data(
        as_text=True))
    wrong = [f"{where}: {found}" for where, text in texts.items()
             for found in misplaced_in_output(text)]
    assert not wrong, wrong
