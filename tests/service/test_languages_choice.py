"""Which language a page is in.  ``?lang=`` is remembered in a cookie; without a
choice the browser's Accept-Language decides (en, zh-Hans, ja), then English; a seat's own
pages keep following the language stored for the seat.  Choosing a language is a GET and
changes no game."""
from __future__ import annotations

import html
import re

import pytest
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from service.web.languages import LANGUAGE_COOKIE, accepted_language
from service.store.preferences import preference, set_preference
from service.web.extensions import services


def lang_of(response) -> str:
    return re.search(r'<html lang="([^"]+)">', response.get_data(as_text=True)).group(1)


@pytest.mark.parametrize("header,expected", [
    ("ja-JP,ja;q=0.9,en;q=0.8", "ja"),
    ("zh-CN,zh;q=0.9", "zh_Hans"),
    ("zh", "zh_Hans"),
    ("zh-Hans-CN", "zh_Hans"),
    ("zh-SG", "zh_Hans"),
    ("zh-TW,zh-Hant;q=0.9,en;q=0.5", "en"),  # Traditional Chinese is not offered: next choice
    ("zh-TW,ja;q=0.5", "ja"),
    ("fr-FR,fr;q=0.9,ja;q=0.3", "ja"),
    ("de-DE,de;q=0.9", "en"),
    ("en-GB,ja;q=0.9", "en"),
    ("ja;q=0,zh;q=0.5", "zh_Hans"),  # q=0 means "not this one"
    ("*", "en"),
    ("", "en"),
])
def test_the_best_accept_language_match_is_chosen(header, expected):
    assert accepted_language(parse_accept_header(header, LanguageAccept)) == expected


def test_the_browser_language_is_used_when_nothing_was_chosen(client):
    assert lang_of(client.get("/")) == "en"
    assert lang_of(client.get("/", headers={"Accept-Language": "ja,en;q=0.5"})) == "ja"
    page = client.get("/lobby/", headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"})
    assert lang_of(page) == "zh-Hans" and "大厅" in page.get_data(as_text=True)
    assert lang_of(client.get("/", headers={"Accept-Language": "es"})) == "en"
    assert client.get_cookie(LANGUAGE_COOKIE) is None, "a guess is not remembered"


def test_a_chosen_language_is_remembered_in_a_cookie(client):
    first = client.get("/lobby/?lang=ja")
    assert lang_of(first) == "ja"
    cookie = client.get_cookie(LANGUAGE_COOKIE)
    assert cookie is not None and cookie.value == "ja"
    assert cookie.http_only and cookie.same_site == "Lax"
    # later pages, without ?lang=, stay in Japanese, even when the browser asks for Chinese
    assert lang_of(client.get("/")) == "ja"
    assert lang_of(client.get("/signin", headers={"Accept-Language": "zh-CN"})) == "ja"
    # ?lang= still wins for one page, and changes the remembered choice
    assert lang_of(client.get("/?lang=zh_Hans")) == "zh-Hans"
    assert client.get_cookie(LANGUAGE_COOKIE).value == "zh_Hans"
    assert lang_of(client.get("/lobby/")) == "zh-Hans"
    assert lang_of(client.get("/?lang=en")) == "en"
    assert lang_of(client.get("/", headers={"Accept-Language": "ja"})) == "en", "English chosen"
    # a value that is not one of our languages is ignored and not remembered
    client.get("/?lang=xx")
    assert client.get_cookie(LANGUAGE_COOKIE).value == "en"
    client.set_cookie(LANGUAGE_COOKIE, "klingon")
    assert lang_of(client.get("/", headers={"Accept-Language": "ja"})) == "ja"


def test_the_language_switcher_links_to_the_same_page(client):
    page = client.get("/lobby/?lang=ja").get_data(as_text=True)
    footer = page[page.index("<footer"):]
    links = dict((lang, html.unescape(href)) for href, lang in
                 re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', footer))
    assert links == {"en": "/lobby/?lang=en", "zh-Hans": "/lobby/?lang=zh_Hans"}
    assert 'aria-current="true">日本語<' in footer, "the current language is marked, not linked"
    # other query arguments are kept
    page = client.get("/mailbox/?to=ana%40example.org").get_data(as_text=True)
    assert 'href="/mailbox/?to=ana%40example.org&amp;lang=en"' in page


def test_a_seat_keeps_its_stored_language_over_the_cookie_and_the_browser(app, client, new_game):
    data, secrets = new_game(players=3)
    svc = services(app)
    with svc.db.unit_of_work() as session:
        set_preference(session, data["id"], 0, svc.clock(), language="zh_Hans")
    client.get("/?lang=ja")  # this browser chose Japanese
    assert lang_of(client.get(f"/play/{secrets[0]}")) == "zh-Hans", "the seat's stored choice"
    assert lang_of(client.get(f"/play/{secrets[0]}", headers={"Accept-Language": "en"})) == "zh-Hans"
    assert lang_of(client.get(f"/play/{secrets[0]}?lang=en")) == "en", "?lang= still wins"
    # a seat with no stored language follows the browser's choice (cookie, then Accept-Language)
    fresh = app.test_client()
    assert lang_of(fresh.get(f"/play/{secrets[1]}")) == "en"
    assert lang_of(fresh.get(f"/play/{secrets[1]}", headers={"Accept-Language": "ja"})) == "ja"
    fresh.get("/?lang=zh_Hans")
    assert lang_of(fresh.get(f"/play/{secrets[1]}", headers={"Accept-Language": "ja"})) == "zh-Hans"


def test_choosing_a_language_changes_no_game(app, client, new_game, admin_headers):
    data, secrets = new_game(players=3)
    svc = services(app)
    before = client.get(f"/api/games/{data['id']}", headers=admin_headers).get_json()
    for language in ("ja", "zh_Hans", "en"):
        assert client.get(f"/play/{secrets[0]}?lang={language}").status_code == 200
    after = client.get(f"/api/games/{data['id']}", headers=admin_headers).get_json()
    assert after["events"] == before["events"]
    with svc.db.reading() as session:
        assert preference(session, data["id"], 0) is None, "a cookie, not a stored preference"
