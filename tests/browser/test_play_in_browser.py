"""In a real browser: play several turns of each game by pressing the POST buttons on
the play pages, at phone and desktop widths, with screenshots in artifacts/screenshots/, and an
accessibility check of the main pages (names, titles, contrast, keyboard)."""
from __future__ import annotations

import pytest
from flask import render_template

from service.view.presenter import seat_context
from tests.browser.conftest import WIDTHS, click_action, shoot
from service.web.extensions import services

pytestmark = pytest.mark.browser

GAMES = [
    ("incan_gold", ["Ana", "Ben", "Cleo"], 12),
    ("machu_picchu", ["Ana", "Ben", "Cleo"], 24),
    ("inca_empire", ["Ana", "Ben", "Cleo"], 24),
]
VIEW_SECTION = "section.game-view"

NAMELESS_CONTROLS = """() => {
  const nameOf = el => {
    if (el.getAttribute('aria-label')) return el.getAttribute('aria-label');
    const ids = el.getAttribute('aria-labelledby');
    if (ids) return ids.split(/\\s+/).map(id => (document.getElementById(id) || {}).textContent || '').join(' ');
    if (el.labels && el.labels.length) return [...el.labels].map(l => l.textContent).join(' ');
    if (el.tagName === 'BUTTON') return el.textContent.trim() || el.title;
    if (['submit', 'button', 'reset'].includes(el.type)) return el.value;
    return el.title || el.placeholder || '';
  };
  const bad = [];
  for (const el of document.querySelectorAll('button, input:not([type=hidden]), select, textarea'))
    if (!nameOf(el).trim()) bad.push('control: ' + el.outerHTML.slice(0, 120));
  for (const el of document.querySelectorAll('img'))
    if (!el.hasAttribute('alt')) bad.push('img: ' + el.outerHTML.slice(0, 120));
  for (const el of document.querySelectorAll('svg')) {
    if (el.getAttribute('aria-hidden') === 'true' || el.parentElement.closest('svg')) continue;
    if (!(el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.querySelector(':scope > title')))
      bad.push('svg: ' + el.outerHTML.slice(0, 120));
  }
  return bad;
}"""

LOW_CONTRAST = """() => {
  const parse = c => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const lum = ({r, g, b}) => {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = el => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0.5) return c;
    }
    return {r: 255, g: 255, b: 255, a: 1};
  };
  const bad = [], seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode, el = text.parentElement;
    if (!text.textContent.trim() || seen.has(el) || el.closest('svg, script, style')) continue;
    seen.add(el);
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || !el.getClientRects().length) continue;
    const fg = parse(style.color), bg = background(el);
    if (!fg) continue;
    const a = lum(fg), b = lum(bg);
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) bad.push(`${el.tagName} "${text.textContent.trim().slice(0, 40)}" ${ratio.toFixed(2)}`);
  }
  return bad;
}"""

OVERFLOW = """(selector) => [...document.querySelectorAll(selector + ', ' + selector + ' *')]
  .filter(el => !el.closest('.ig-scroll, .mp-scroll, .ie-scroll') || el.matches('.ig-scroll, .mp-scroll, .ie-scroll'))
  .filter(el => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .map(el => el.tagName + '.' + (el.getAttribute('class') || '') + ' ' + Math.round(el.getBoundingClientRect().right))"""


def flash(page) -> str:
    return " ".join(page.locator(".flash").all_inner_texts())


def screenshot_both_widths(page_at, url: str, name: str) -> None:
    for width in WIDTHS:
        page = page_at(width)
        page.goto(url)
        shoot(page, f"{name}-{width}")
        if width == 360:
            for selector in ("section.actions", VIEW_SECTION):
                assert page.evaluate(OVERFLOW, selector) == [], f"{name}: {selector} is wider than a phone"
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width, \
                f"{name}: the page scrolls sideways on a phone"


def shoot_mail(live, page_at, game_id: str, seat: int, name: str) -> None:
    """The HTML part of this seat's turn mail, rendered and photographed like a mail client."""
    loaded = live.loaded(game_id)
    with live.app.test_request_context():
        context = seat_context(services(live.app).settings, loaded, seat)
        context.update(intro="It is your turn.", kind="turn")
        html = render_template("mail/turn.html", **context)
    assert "<svg" not in html
    for width in WIDTHS:
        page = page_at(width)
        page.set_content(html)
        shoot(page, f"{name}-mail-{width}")


@pytest.mark.parametrize("game, players, turns", GAMES, ids=[g[0] for g in GAMES])
def test_play_several_turns_by_pressing_the_buttons(live, page_at, game, players, turns):
    game_id, secrets = live.new_game(game, players)
    page = page_at(360)
    first = live.bot_choice(game_id)
    screenshot_both_widths(page_at, live.play_url(secrets[first[0]]), f"{game}-start")
    moves = 0
    for _ in range(turns):
        choice = live.bot_choice(game_id)
        if choice is None:
            break
        seat, action = choice
        page.goto(live.play_url(secrets[seat]))
        assert page.locator(VIEW_SECTION).count() == 1
        click_action(page, action)
        assert "Done:" in flash(page), flash(page)
        moves += 1
    assert moves >= min(turns, 6)
    made = [e for e in live.loaded(game_id).events if e.kind == "MoveMade"]
    assert len(made) >= moves
    after = live.bot_choice(game_id)
    seat = after[0] if after else 0
    screenshot_both_widths(page_at, live.play_url(secrets[seat]), f"{game}-later")
    shoot_mail(live, page_at, game_id, seat, game)


@pytest.mark.parametrize("game, players, turns", GAMES, ids=[g[0] for g in GAMES])
def test_main_pages_are_accessible(live, page_at, game, players, turns):
    game_id, secrets = live.new_game(game, players, seed=3)
    for _ in range(turns // 3):                       # a little way into the game, via the API
        seat, action = live.bot_choice(game_id)
        seq = live.loaded(game_id).seq
        response = live.client.post(f"/api/play/{secrets[seat]}", json={"action": action, "seq": seq})
        assert response.status_code == 200
    seat, _ = live.bot_choice(game_id)
    seq = live.loaded(game_id).seq
    page = page_at(360)
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    for url in (live.url + "/", live.play_url(secrets[seat]), f"{live.play_url(secrets[seat])}/a/{seq}/0",
                live.play_url(secrets[(seat + 1) % len(players)])):
        page.goto(url)
        assert page.evaluate(NAMELESS_CONTROLS) == [], url
        assert page.evaluate(LOW_CONTRAST) == [], url
    assert errors == []                               # nothing blocked by the CSP, no script errors
    # Keyboard only: Tab reaches an action button, Enter submits it.
    page.goto(live.play_url(secrets[seat]))
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => !!document.activeElement.closest('section.actions') "
                         "&& document.activeElement.tagName === 'BUTTON'"):
            break
    else:
        pytest.fail("Tab never reached an action button")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "Done:" in flash(page), flash(page)
