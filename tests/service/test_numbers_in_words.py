"""Every number on a game's board, page and mail says what it counts: no bare "7 / 61" (which
is active, which is supply?), "5 / 4" (buy or sell, in what?) or "+3 each" (of what?)."""
from __future__ import annotations

from html import unescape
import re

import pytest
from flask import render_template

from tests.service.test_boards import played

BARE_PAIR = re.compile(r"\d+\s*/\s*\d+")
BARE_PLUS = re.compile(r"\+\d+ each")
STAGES = {"incan_gold": (4, (0, 12, 5000)), "machu_picchu": (3, (0, 40, 5000)),
          "inca_empire": (3, (0, 50, 5000))}
CASES = [(name, players, moves) for name, (players, stages) in STAGES.items()
         for moves in stages]


def shown_text(markup: str) -> str:
    """What a reader reads: no tags, no style block, no links."""
    text = re.sub(r"<style.*?</style>", " ", markup, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    return re.sub(r"https?://\S+", " ", unescape(text))


def rendered(app, name: str, view: dict) -> dict[str, str]:
    with app.test_request_context():
        return {kind: shown_text(render_template(f"games/{name}/{kind}", view=view))
                for kind in ("view.html", "mail.html", "view.txt")}


@pytest.mark.parametrize("name, players, moves", CASES)
def test_no_number_on_a_board_page_or_mail_stands_bare_beside_another(app, name, players,
                                                                        moves):
    game, state = played(name, players, moves)
    for seat in (0, None):
        for kind, text in rendered(app, name, game.view(state, seat)).items():
            assert not BARE_PAIR.search(text), (kind, BARE_PAIR.findall(text))
            assert not BARE_PLUS.search(text), (kind, BARE_PLUS.findall(text))


def test_machu_picchu_market_prices_say_buy_and_sell_in_corn(app):
    game, state = played("machu_picchu", 3, 10)
    for kind, text in rendered(app, "machu_picchu", game.view(state, 0)).items():
        assert re.search(r"buy for \d+, sell for \d+", text), kind
        assert "corn" in text and "buy / sell" not in text
        assert re.search(r"Priest of the Condor: \d+ cards", text), kind


def test_inca_empire_tokens_say_active_pool_and_supply(app):
    game, state = played("inca_empire", 3, 10)
    texts = rendered(app, "inca_empire", game.view(state, 0))
    assert re.search(r"\d+ in the Active Pool, \d+ in the Supply", texts["mail.html"])
    assert re.search(r"\d+ tokens in the Active Pool, \d+ in the Supply", texts["view.txt"])
    assert "Tokens in the Active Pool" in texts["view.html"]


def test_incan_gold_text_says_gems_carried_and_in_the_tent(app):
    game, state = played("incan_gold", 3, 5000)
    text = rendered(app, "incan_gold", game.view(state, 0))["view.txt"]
    assert re.search(r"carrying \d+ gems?", text)
    assert re.search(r"\d+ gems? in the tent", text)
