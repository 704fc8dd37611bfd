"""A language is found however it is spelled: ``?lang=zh``, ``zh-CN``, ``zh_CN``, ``zh-Hans``,
``ja-JP`` (and the same in Accept-Language, a cookie or the "my games" form) all give the page
in that language, never silent English; Traditional Chinese is not taken for Simplified.  The
pages' script and pictures speak the page's language too: the move button's "Sending…" and
the Machu Picchu day track, whose heading must not run into the day-1 circle."""
from __future__ import annotations

import re

import pytest

from service.core.language_codes import locale_for
from service.view.drawing import text_width
from tests.service.test_languages_choice import lang_of

CHINESE = ("zh", "zh-CN", "zh_CN", "zh-cn", "zh-Hans", "zh_Hans", "zh-Hans-CN", "zh-SG")
JAPANESE = ("ja", "ja-JP", "ja_JP", "JA")


@pytest.mark.parametrize("code", CHINESE)
def test_every_spelling_of_simplified_chinese_names_zh_hans(code):
    assert locale_for(code) == "zh_Hans"


@pytest.mark.parametrize("code", JAPANESE)
def test_every_spelling_of_japanese_names_ja(code):
    assert locale_for(code) == "ja"


@pytest.mark.parametrize("code", ("zh-TW", "zh-Hant", "zh_HK", "fr", "", "x" * 40, None, 3))
def test_a_code_of_no_language_we_have_names_none(code):
    assert locale_for(code) is None


@pytest.mark.parametrize("code,tag", [*((c, "zh-Hans") for c in CHINESE),
                                      *((c, "ja") for c in JAPANESE), ("en-GB", "en")])
def test_lang_in_the_address_gives_the_page_in_that_language(client, code, tag):
    page = client.get(f"/lobby/?lang={code}")
    assert lang_of(page) == tag
    assert lang_of(client.get("/")) == tag  # remembered, as the plain code would be


@pytest.mark.parametrize("header,tag", [("zh_CN", "zh-Hans"), ("zh-Hans", "zh-Hans"),
                                        ("ja-JP", "ja"), ("zh-TW, ja;q=0.4", "ja")])
def test_accept_language_variants_give_the_page_in_that_language(client, header, tag):
    assert lang_of(client.get("/", headers={"Accept-Language": header})) == tag


@pytest.mark.parametrize("code,sending", [("en", "Sending…"), ("zh", "正在发送…"),
                                          ("ja", "送信中…")])
def test_the_pages_script_gets_sending_in_the_pages_language(client, code, sending):
    page = client.get(f"/?lang={code}").get_data(as_text=True)
    assert f'<body data-sending="{sending}">' in page
    script = client.get("/static/chasqui.js").get_data(as_text=True)
    assert 'getAttribute("data-sending")' in script and "textContent = sending" in script


@pytest.mark.parametrize("code", ("en", "zh", "ja"))
def test_the_machu_picchu_day_heading_ends_before_the_first_day_circle(client, new_game, code):
    _game, secrets = new_game(game="machu_picchu", players=3, seed=7)
    page = client.get(f"/play/{secrets[0]}?lang={code}").get_data(as_text=True)
    svg = re.search(r'(?s)<svg[^>]*class="mp-board".*?</svg>', page).group(0)
    heading = re.search(r'<text x="10" y="[\d.]+" font-size="12" font-weight="700"[^>]*>'
                        r'([^<]+)</text>', svg)
    circles = [float(x) for x in re.findall(r'<circle cx="([\d.]+)" cy="[\d.]+" r="11"', svg)]
    assert len(circles) == 9
    assert 10 + text_width(heading.group(1), 12) < circles[0] - 11, heading.group(1)
    assert circles[-1] + 11 <= 440  # the last day still inside the picture
    viewbox_width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
    assert circles[-1] + 11 <= viewbox_width


def test_a_wide_heading_is_measured_wider_than_its_english():
    assert text_width("第 2 天（共 9 天）", 12) > text_width("Day 2 of 9", 12) + 20
