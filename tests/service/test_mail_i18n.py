"""Every mail (and the pages of) in English, Chinese (zh-Hans) and Japanese,
chosen per player; the catalogs are complete and their committed .mo files are current."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

from service.store.loading import load
from service.mail.compose import build_message
from service.store.models import OutboxRow
from service.store.preferences import set_preference
from tests.service.catalog_kit import forms, message_key, translated, translations
from tests.service.mail_kit import app, newest, smtp, text_of  # noqa: F401
from service.web.extensions import services

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
LANGUAGES = ("zh_Hans", "ja")


@cache
def extracted() -> frozenset:
    """What the templates and service.view.i18n ask for now (the same mapping as babel.cfg).
    Extracting walks and parses every source file (about two seconds), and the sources do not
    change while the tests run, so it is done once per session; the result is frozen."""
    from babel.messages.frontend import parse_mapping_cfg

    with open(TRANSLATIONS / "babel.cfg") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    keywords = {**DEFAULT_KEYWORDS, "N_": None, "phrase": None, "term": None, "counted": (1, 2)}
    return frozenset(message_key(message) for _f, _l, message, *_ in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords) if message)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_is_translated_and_the_mo_is_current(language):
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    written = translations(folder / "messages.po")
    wanted = extracted()
    assert wanted, "nothing extracted"
    missing = sorted(map(str, (m for m in wanted if not translated(written.get(m, ())))))
    assert not missing, f"untranslated in {language}: {missing}"
    mo = translations(folder / "messages.mo")
    assert {k: v for k, v in written.items() if k in wanted} == {k: mo.get(k) for k in wanted}, \
        "messages.mo is stale: run pybabel compile -d translations"
    for message_id, texts in written.items():  # placeholders survive translation
        english = forms(message_id)[-1]  # a plural form may leave out the count; "many" has it
        for text in texts:
            for field in (r"%\(\w+\)s", r"\{\w+\}"):  # gettext's and engine.text phrases'
                assert set(re.findall(field, english)) == set(re.findall(field, text)), message_id


@cache
def english_texts() -> tuple[str, ...]:
    return tuple(sorted((m for m in extracted()
                         if type(m) is str and len(m) >= 12 and "%(" not in m),
                        key=len, reverse=True))


@pytest.mark.parametrize("language,words", [
    ("ja", ["あなたの番です。", "探検を続ける", "キャンプに戻る", "インカの黄金", "マイゲーム"]),
    ("zh_Hans", ["轮到你了。", "继续探险", "返回营地", "印加宝藏", "我的游戏"]),
])
def test_a_player_gets_every_mail_in_their_language(app, client, new_game, smtp, language, words):
    data, secrets = new_game(players=3)
    svc = services(app)
    with svc.db.unit_of_work() as session:
        set_preference(session, data["id"], 0, svc.clock(), language=language)
    for secret in secrets:
        client.post(f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": 1})
    turn = newest(smtp, "p0@example.com")
    assert turn["Content-Language"] == language.replace("_", "-")
    text, html = text_of(turn), turn.get_body(("html",)).get_content()
    for word in words:
        assert word in text and word in html, word
    for english in english_texts():
        assert english not in text and english not in html, f"untranslated: {english!r}"
    # and every other kind of mail renders in that language too
    with app.app_context(), svc.db.reading() as session:
        for number, kind in enumerate(("start", "turn", "game_over", "talk", "reply_ok", "reply_error", "rollback",
                     "undone", "paused", "resumed", "abandoned", "seat", "timeout")):
            row = OutboxRow(id=10_000 + number, game_id=data["id"], seat=0, kind=kind, seq=1,
                            to_addr="p0@example.com", message_id=f"<x.{kind}@t>", status="pending",
                            attempts=0, next_attempt_at=svc.clock(), created_at=svc.clock())
            session.add(row)
            session.flush()
            message = build_message(svc.settings, load(session, data["id"], upto=1), row)
            body = message.get_body(("plain",)).get_content()
            for english in english_texts():
                assert english not in body, f"{kind}: untranslated {english!r}"


def test_english_stays_the_default(app, new_game, smtp):
    new_game(players=3)
    start = newest(smtp, "p0@example.com")
    assert start["Content-Language"] == "en" and "A new game has started." in text_of(start)


@pytest.mark.parametrize("language,word", [("ja", "マイゲーム"), ("zh_Hans", "我的游戏")])
def test_the_my_games_page_follows_the_language(app, client, new_game, smtp, language, word):
    new_game(players=3)
    me = re.search(r"http://chasqui\.test(/me/\S+)", text_of(newest(smtp, "p0@example.com"))).group(1)
    html = client.get(me + f"?lang={language}").get_data(as_text=True)
    assert word in html


def test_a_reply_may_name_the_action_in_the_players_language(app, new_game, smtp):
    from service.web.inbound_listener import InboundController
    from tests.integration.smtp_sink import free_port
    from tests.service.mail_kit import events, send, write_reply

    data, _ = new_game(players=3)
    svc = services(app)
    with svc.db.unit_of_work() as session:
        set_preference(session, data["id"], 1, svc.clock(), language="ja")
    port = free_port()
    controller = InboundController(app, "127.0.0.1", port)
    controller.start()
    try:
        send(port, write_reply(newest(smtp, "p1@example.com"), "キャンプに戻る"))
    finally:
        controller.stop()
    made = [e.payload["action"] for e in events(app, data["id"]) if e.kind == "MoveMade"]
    assert made == [{"type": "leave"}]
    assert "メールでの手を記録しました。" in text_of(newest(smtp, "p1@example.com"))


def test_the_language_chosen_on_my_games_holds_for_pages_and_mail(app, client, new_game, smtp):
    data, secrets = new_game(players=3)
    me = re.search(r"http://chasqui\.test(/me/\S+)", text_of(newest(smtp, "p0@example.com"))).group(1)
    html = client.get(me).get_data(as_text=True)
    assert "My games" in html
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    response = client.post(me + "/language", data={"language": "zh_Hans", "csrf_token": token})
    assert response.status_code == 303
    assert "我的游戏" in client.get(me).get_data(as_text=True)
    for secret in secrets:
        client.post(f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": 1})
    assert "轮到你了。" in text_of(newest(smtp, "p0@example.com"))
    assert "It is your turn." in text_of(newest(smtp, "p1@example.com"))


def test_every_mail_intro_is_in_the_catalogs():
    """A new outbox kind's intro must be added to service.view.i18n.RUNTIME_TEXTS and translated
    (see docs/mail.md), or its mail goes out in English to every player."""
    from service.view.i18n import RUNTIME_TEXTS
    from service.mail.kinds import KINDS

    missing = [kind.intro for kind in KINDS.values() if kind.intro and kind.intro not in RUNTIME_TEXTS]
    assert not missing, f"add to service.view.i18n.RUNTIME_TEXTS and translate: {missing}"


def test_the_incan_gold_table_in_a_turn_mail_is_in_the_players_language(
        app, client, new_game, smtp):
    """The mail's own picture of the temple (path, last reveal, explorers' table) is drawn by
    the game's mail template: its words come from the game's catalog like the page's do."""
    data, secrets = new_game(players=3)
    svc = services(app)
    with svc.db.unit_of_work() as session:
        set_preference(session, data["id"], 0, svc.clock(), language="ja")
    for secret in secrets:
        client.post(f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": 1})
    html = newest(smtp, "p0@example.com").get_body(("html",)).get_content()
    for japanese in ("通路上の宝石", "プレイヤー", "神殿"):
        assert japanese in html, japanese
    for english in ("Gems on the path", ">Player<", ">Carrying<", ">Tent<", "Last reveal",
                    "cards left", "in camp", " stayed", "(you)"):
        assert english not in html, f"untranslated: {english!r}"
