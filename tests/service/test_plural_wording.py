"""Counts read right in every language: "1 gem", "2 gems" -- never "1 gems" or "card(s)".

A text about a number of things goes through gettext's plural forms (``ngettext`` in Python
and templates, ``engine.text.counted`` for engine phrases): the catalog of the reader's language
chooses the form for the count.  English has two forms (one, many); Chinese and Japanese one
(``Plural-Forms: nplurals=1; plural=0;``).  And a button names what it does, so a confirmation
"Done: …" reads once, and a game whose turn is one choice offers no multi-step plan."""
from __future__ import annotations

import random
import re
import tokenize
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask_babel import force_locale

from engine import get_game
from engine.games.machu_picchu import view as mp_view
from engine.text import counted, render
from service.view.i18n import translate
from service.view.presentations import presentation
from tests.service.catalog_kit import forms

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"

GEMS = '{{ ngettext("%(num)s gem", "%(num)s gems", n) }}'
ONE_AND_TWO_GEMS = {"en": ("1 gem", "2 gems"), "zh_Hans": ("1 颗宝石", "2 颗宝石"),
                    "ja": ("宝石 1 個", "宝石 2 個")}


@pytest.mark.parametrize("language", sorted(ONE_AND_TWO_GEMS))
def test_one_gem_reads_singular_and_two_gems_plural_in_each_language(app, language):
    with app.test_request_context(), force_locale(language):
        template = app.jinja_env.from_string(GEMS)
        shown = template.render(n=1), template.render(n=2)
    assert shown == ONE_AND_TWO_GEMS[language]


def stones(n):
    return counted("{player} takes {n} temple stone", "{player} takes {n} temple stones", n,
                   player="Ana")


def llamas_and_corn(n):
    """A Machu Picchu cost: the rulebook counts llamas ("2 llamas") but not corn ("3 corn")."""
    return mp_view._cost({"llama": n, "corn": 3})


@pytest.mark.parametrize("said,language,one,two", [
    (stones, "en", "Ana takes 1 temple stone", "Ana takes 2 temple stones"),
    (stones, "zh_Hans", "Ana 取得1个神庙基石", "Ana 取得2个神庙基石"),
    (stones, "ja", "Ana が礎石を1個取る", "Ana が礎石を2個取る"),
    (llamas_and_corn, "en", "1 llama, 3 corn", "2 llamas, 3 corn"),
    (llamas_and_corn, "zh_Hans", "1个驼羊、3个玉米", "2个驼羊、3个玉米"),
    (llamas_and_corn, "ja", "リャマ×1、トウモロコシ×3", "リャマ×2、トウモロコシ×3"),
])
def test_an_engine_phrase_with_a_count_takes_the_form_of_its_count(said, language, one, two):
    assert (translate(language, said(1)), translate(language, said(2))) == (one, two)
    assert render(stones(1)) == "Ana takes 1 temple stone"  # the English label recorded


@pytest.mark.parametrize("language", ["zh_Hans", "ja"])
@pytest.mark.parametrize("domain", ["messages", "machu_picchu", "inca_empire"])
def test_chinese_and_japanese_catalogs_have_one_plural_form_and_fill_it(domain, language):
    with open(TRANSLATIONS / language / "LC_MESSAGES" / f"{domain}.po", "rb") as handle:
        catalog = read_po(handle)
    assert catalog.plural_expr == "0" and catalog.num_plurals == 1
    plural = [m for m in catalog if m.id and not isinstance(m.id, str)]
    assert plural, f"{domain}: no plural entry; are the counts marked?"
    for message in plural:
        assert len(forms(message.string)) == 1 and message.string[0], message.id


def string_literals(path: Path) -> list[str]:
    with open(path, "rb") as handle:
        return [t.string for t in tokenize.tokenize(handle.readline) if t.type == tokenize.STRING]


PLURAL_SHORTCUT = re.compile(r"[A-Za-z]{2,}\(s\)(?![\w`(])")


def test_no_text_shortens_a_plural_to_s_in_brackets():
    """"card(s)" reads wrong for one card and for many: the plural forms say it right."""
    found = []
    for path in [*ROOT.glob("service/**/*.py"), *ROOT.glob("engine/**/*.py")]:
        found += [(path.name, s) for s in string_literals(path) if PLURAL_SHORTCUT.search(s)]
    for path in [*ROOT.glob("templates/**/*.html"), *ROOT.glob("templates/**/*.txt")]:
        text = re.sub(r"\{#.*?#\}", "", path.read_text(), flags=re.S)
        found += [(path.name, m) for m in PLURAL_SHORTCUT.findall(text)]
    assert not found


def test_ending_a_machu_picchu_visit_says_what_ends_so_the_confirmation_reads_once():
    """The flash is "Done: <the move>"; a move called "Done" read "Done: Done"."""
    game, seen = get_game("machu_picchu"), set()
    for seed in range(4):
        chooser = random.Random(seed)
        state = game.setup(["Ana", "Bo", "Cy"], seed, {})
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            for action in legal:
                if action["type"] == "done":
                    # (the plaza's whole trade is ended by leaving the market untraded)
                    assert action["label"] in (*mp_view.DONE_TEXT.values(),
                                               "Leave the market without trading")
                    seen.add(action["label"])
                assert not action["label"].lower().startswith("done")
            game.apply_in_place(state, seat, chooser.choice(legal))
    assert len(seen) >= 3


def test_a_game_whose_turn_is_one_choice_offers_no_plan(client, new_game):
    assert not presentation("incan_gold").plans_turns
    assert presentation("machu_picchu").plans_turns and presentation("inca_empire").plans_turns
    _data, secrets = new_game(game="incan_gold", players=3)
    page = client.get(f"/play/{secrets[0]}?lang=en").get_data(as_text=True)
    assert "Stay in the temple" in page and "Plan several steps" not in page
    assert f"/play/{secrets[0]}/plan" not in page


def test_a_plan_of_one_step_is_confirmed_as_one_step(client, new_game):
    _data, secrets = new_game(game="machu_picchu", players=3)
    page = client.get(f"/play/{secrets[0]}?lang=en").get_data(as_text=True)
    assert "Plan several steps" in page
    plan = client.get(f"/play/{secrets[0]}/plan?steps=0&lang=en").get_data(as_text=True)
    assert "Confirm this 1 step" in plan and "these 1 steps" not in plan


def test_a_fraction_of_an_hour_reads_plural_and_a_whole_hour_singular():
    from service.mail.mailer import hours_text

    assert [render(hours_text(h)) for h in (1, 1.5, 2, 24, 48)] == \
        ["1 hour", "1.5 hours", "2 hours", "1 day", "2 days"]
    assert translate("ja", hours_text(1.5)) == "1.5 時間"


@pytest.mark.parametrize("language,shown", [("en", "Bo takes 1 temple stone"),
                                             ("ja", "Bo が礎石を1個取る")])
def test_a_counted_phrase_in_a_page_takes_its_form_through_the_tr_filter(app, language, shown):
    stones = counted("{player} takes {n} temple stone", "{player} takes {n} temple stones", 1,
                     player="Bo")
    with app.test_request_context(), force_locale(language):
        assert app.jinja_env.from_string("{{ said | tr }}").render(said=stones) == shown


def test_the_machu_picchu_board_counts_llamas_too(app):
    from service.view.games.machu_picchu.board import goods_text

    with app.test_request_context(), force_locale("en"):
        assert goods_text({"llama": 2, "cloth": 1}) == "2 llamas, 1 cloth"
        assert goods_text({"llama": 1}) == "1 llama"
