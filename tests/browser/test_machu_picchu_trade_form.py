"""The plaza's trade form on a phone: it fits the screen, and filling it in, checking the
trade and pressing its button makes the whole exchange as one move."""
from __future__ import annotations

import pytest

from tests.browser.test_page_widths import OVERFLOWING

pytestmark = pytest.mark.browser


def at_the_plaza(live):
    """Two seats placed their free Incas; Ana's Prince starts on the Central Plaza."""
    game_id, secrets = live.new_game("machu_picchu", ["Ana", "Ben"], seed=7)
    for secret, action in ((secrets[0], {"type": "place_free", "district": "corn_terraces"}),
                           (secrets[1], {"type": "place_free", "district": "corn_terraces"}),
                           (secrets[0], {"type": "move", "to": "central_plaza"})):
        seq = live.client.get(f"/api/play/{secret}").get_json()["seq"]
        answer = live.client.post(f"/api/play/{secret}", json={"action": action, "seq": seq})
        assert answer.status_code == 200, answer.get_json()
    return game_id, secrets


@pytest.mark.parametrize("width", [320, 414])
def test_the_trade_form_fits_a_phone_and_makes_the_trade(live, page_at, width):
    game_id, secrets = at_the_plaza(live)
    assert live.loaded(game_id).state["queue"][0]["k"] == "plaza"
    page = page_at(width)
    page.goto(live.play_url(secrets[0]))
    assert page.evaluate(OVERFLOWING) == []
    page.fill('input[name="sell_cloth"]', "1")
    page.fill('input[name="buy_llama"]', "1")
    page.click("text=Check this trade")
    assert page.evaluate(OVERFLOWING) == []
    page.click("text=Make this trade")
    page.wait_for_load_state()
    assert "Done: Trade: Sell 1 cloth for 4 corn, Buy 1 llama for 5 corn" in page.content()
    last = live.loaded(game_id).events[-1]
    assert last.payload["action"] == {"type": "trade", "sell": {"cloth": 1},
                                      "buy": {"llama": 1}}
