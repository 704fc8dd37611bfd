""""works without JavaScript, better with it" — the site's one script file."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_a_double_click_on_a_move_button_sends_one_move(live, page_at):
    game_id, secrets = live.new_game("incan_gold", ["Ana", "Ben", "Cai"])
    page = page_at(1280)
    page.goto(live.play_url(secrets[0]))
    button = page.locator("form[action$='/move'] button").first
    with page.expect_navigation():
        button.dblclick()
    moves = [e for e in live.loaded(game_id).events if e.kind == "MoveMade"]
    assert len(moves) == 1
    assert "Done:" in page.content() and "already recorded" not in page.content()


def test_without_javascript_the_move_buttons_still_work(live, browser):
    game_id, secrets = live.new_game("incan_gold", ["Ana", "Ben", "Cai"])
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 800})
    page = context.new_page()
    page.goto(live.play_url(secrets[1]))
    with page.expect_navigation():
        page.locator("form[action$='/move'] button").first.click()
    assert "Done:" in page.content()
    assert [e.payload["seat"] for e in live.loaded(game_id).events if e.kind == "MoveMade"] == [1]
    context.close()
