"""The games' own texts (terms, action phrases, log lines) are translated.

Each game's phrases (``engine.text``: ``N_``, ``phrase``, ``term``), board and templates are
extracted into its own gettext domain (``translations/<game>.cfg``); every msgid must have a Chinese and a Japanese text, the
committed ``.mo`` must match the ``.po``, and ``{field}`` placeholders must survive."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

from engine.text import phrase, render, term
from service.view.i18n import DOMAINS, translate
from tests.service.catalog_kit import forms, message_key, translated, translations

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
GAME_DOMAINS = [d for d in DOMAINS if d != "messages"]
FIELD = re.compile(r"\{(\w*)\}")


@cache
def extracted(domain: str) -> frozenset:
    """What ``translations/<domain>.cfg`` maps: the engine package, the board, the templates
    (extracted once per domain: both languages' tests compare against the same sources)."""
    from babel.messages.frontend import parse_mapping_cfg

    with open(TRANSLATIONS / f"{domain}.cfg") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    keywords = {**DEFAULT_KEYWORDS, "N_": None, "phrase": None, "term": None, "counted": (1, 2)}
    return frozenset(message_key(message) for _f, _l, message, *_ in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords) if message)


@pytest.mark.parametrize("language", ["zh_Hans", "ja"])
@pytest.mark.parametrize("domain", GAME_DOMAINS)
def test_every_game_text_is_translated_and_the_mo_is_current(domain, language):
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    written = translations(folder / f"{domain}.po")
    wanted = extracted(domain)
    assert len(wanted) > 20, f"{domain}: hardly anything extracted; are the phrases marked?"
    missing = sorted(map(str, (m for m in wanted if not translated(written.get(m, ())))))
    assert not missing, f"untranslated in {domain}/{language}: {missing}"
    compiled = translations(folder / f"{domain}.mo")
    assert {k: written[k] for k in wanted} == {k: compiled.get(k) for k in wanted}, \
        f"{domain}.mo is stale: run pybabel compile -D {domain} -d translations"
    for message_id in wanted:
        english = sorted(FIELD.findall(forms(message_id)[-1]))
        for text in written[message_id]:
            assert sorted(FIELD.findall(text)) == english, \
                f"{domain}/{language}: fields changed in {text!r}"


def test_a_phrase_translates_its_template_and_terms_but_never_a_name():
    said = phrase("{player} goes to {district}", player="Done", district=term("Cusco"))
    assert render(said) == "Done goes to Cusco"
    chinese = translate("zh_Hans", said)
    assert "Done" in chinese and "Cusco" not in chinese and "goes to" not in chinese
