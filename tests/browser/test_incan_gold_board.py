"""The Incan Gold board on a phone: the picture of the expedition fits the screen at 320 and
360 px, every word of it stays inside the picture, and its smallest text stays readable."""
from __future__ import annotations

import pytest

from tests.browser.conftest import advance, shoot

pytestmark = pytest.mark.browser

# Each text of the board: its size on screen (font size times the picture's scale), and whether
# its box lies inside the picture's.
BOARD_TEXTS = """() => {
  const board = document.querySelector('svg.ig-board');
  const outer = board.getBoundingClientRect();
  return [...board.querySelectorAll('text')].map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent,
            px: parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a,
            inside: r.left >= outer.left - 0.5 && r.right <= outer.right + 0.5};
  });
}"""
SMALLEST_TEXT_PX = 10


@pytest.fixture(scope="module")
def play_url(live):
    """A seat's play page of a five-player game some turns in: explorers inside and a path."""
    game_id, secrets = live.new_game("incan_gold", ["Ana", "Bea", "Cleo", "Dee", "Eve"], seed=5)
    advance(live, game_id, secrets, 14)
    seat, _ = live.bot_choice(game_id)
    return live.play_url(secrets[seat])


@pytest.mark.parametrize("width", [320, 360])
def test_the_incan_gold_board_fits_a_phone_and_its_words_stay_readable(page_at, play_url, width):
    page = page_at(width)
    assert page.goto(play_url).status == 200
    board = page.locator("svg.ig-board")
    box = board.bounding_box()
    assert box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    texts = page.evaluate(BOARD_TEXTS)
    assert texts and all(t["inside"] for t in texts), [t for t in texts if not t["inside"]]
    smallest = min(t["px"] for t in texts)
    shoot(page, f"incan-gold-board-{width}")
    assert smallest >= SMALLEST_TEXT_PX, f"smallest board text {smallest:.1f} px at {width} px"
