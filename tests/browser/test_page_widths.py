"""Every kind of page at every width from a small phone's to a wide desktop's: nothing wider
than the screen, no table header broken inside a word, and the Inca Empire board's words
readable on a phone.

One server, one browser page and one shared setup (games of all three games at their start, a
few moves in and over; an organiser signed in by mail with a game of their own; a site admin
logged in); then each page is opened once and measured at each width in turn, by resizing the
viewport: the document does not scroll sideways and no element reaches past the viewport's
right edge (inside a box made to scroll sideways, only the box itself counts).
The widest page seen at each width is written to ``artifacts/page_widths.json``."""
from __future__ import annotations

import json
import re
from email import message_from_string
from email.policy import default

import pytest
from sqlalchemy import select

from service.core.tokens import spectate_token
from service.store import preferences
from service.store.models import LocalMailRow
from service.web.extensions import services
from service.web.languages import LANGUAGE_COOKIE
from tests.browser.conftest import SCREENSHOTS, advance, click_in_mail, open_mail, press, shoot
from tests.service.test_admin_support import SITE_EMAIL, SITE_PASSWORD, make_admin

pytestmark = pytest.mark.browser

WIDTHS = (320, 360, 414, 640, 641, 768, 1024, 1280, 1450, 1600)
PHONE = 360
# Each game: how many players, and how many bot moves make "a few moves in".
GAMES = (("incan_gold", 3, 6), ("machu_picchu", 3, 9), ("inca_empire", 3, 24))
TO_THE_END = 5000
ORGANISER = "olga.phone@example.org"
INVITEE = "ivan.phone@example.org"
# Elements past the viewport's right edge, but for those inside a box that scrolls sideways.
OVERFLOWING = """() => {
  const edge = document.documentElement.clientWidth + 1;
  const scrolled = el => {
    for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) return true;
    }
    return false;
  };
  return [...document.body.querySelectorAll('*')]
    .filter(el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.right > edge; })
    .filter(el => !scrolled(el))
    .map(el => el.tagName + '.' + (el.getAttribute('class') || '') + ' ' + Math.round(el.getBoundingClientRect().right));
}"""
# A header's word laid out on more than one line: a Range over each word of each header's text
# has boxes at more than one height.  A word ends at a space or after a hyphen ("List-" of
# "List-Unsubscribe") and an opening bracket starts one ("（UTC）" of "时间（UTC）"): lines may
# break there.
BROKEN_HEADERS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll('th')) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/[（(]?[^\\s\\-（(]+-?/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                             .map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(word[0]);
      }
    }
  }
  return broken;
}"""
# Each text of the Inca Empire's pictures (the board and the cards of a hand): its size on
# screen, the font size times the picture's scale.
BOARD_TEXT_PX = """() => [...document.querySelectorAll('svg.ie-board text, svg.ie-face text')]
  .filter(t => t.getBoundingClientRect().width > 0)
  .map(t => ({text: t.textContent,
              px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a}))"""
SMALLEST_BOARD_TEXT_PX = 11


def link_in_mail(live, address: str, pattern: str) -> str:
    """The first URL matching ``pattern`` in the newest mail to ``address``."""
    svc = services(live.app)
    with svc.db.reading() as session:
        for row in session.scalars(select(LocalMailRow).where(LocalMailRow.to_addr == address)
                                   .order_by(LocalMailRow.id.desc())):
            text = message_from_string(row.raw, policy=default).get_body(("plain",)).get_content()
            found = re.search(pattern, text)
            if found:
                return found.group(0)
    raise AssertionError(f"no mail to {address} with {pattern}")


def newest_mail_id(live, address: str) -> int:
    svc = services(live.app)
    with svc.db.reading() as session:
        return session.scalars(select(LocalMailRow.id).where(LocalMailRow.to_addr == address)
                               .order_by(LocalMailRow.id.desc())).first()


def game_pages(live, urls: dict) -> dict:
    """Each game's play pages at its start, a few moves in (the seat to act and one waiting)
    and over; the games a few moves in, by name."""
    played = {}
    for game, players, moves in GAMES:
        names = ["Ana", "Ben", "Cleo"][:players]
        game_id, secrets = live.new_game(game, names, seed=5)
        urls[f"play {game}, start"] = live.play_url(secrets[0])
        advance(live, game_id, secrets, moves)
        played[game] = (game_id, secrets)
        seat, _ = live.bot_choice(game_id)
        urls[f"play {game}"] = live.play_url(secrets[seat])
        urls[f"play {game}, waiting"] = live.play_url(secrets[(seat + 1) % players])
        over_id, over_secrets = live.new_game(game, names, seed=6)
        advance(live, over_id, over_secrets, TO_THE_END)
        assert live.bot_choice(over_id) is None, f"{game} did not end"
        urls[f"play {game}, over"] = live.play_url(over_secrets[0])
        urls[f"record {game}"] = f"{live.play_url(over_secrets[0])}/record.json"
    # Chinese and Japanese words have no spaces to wrap at: their headers too stay whole.
    urls["play machu_picchu, in Japanese"] = f"{urls['play machu_picchu']}?lang=ja"
    urls["play inca_empire, in Chinese"] = f"{urls['play inca_empire']}?lang=zh_Hans"
    return played


def player_pages(live, urls: dict, played: dict) -> None:
    game_id, secrets = played["machu_picchu"]
    seat, _ = live.bot_choice(game_id)
    seq = live.loaded(game_id).seq
    urls["plan"] = f"{live.play_url(secrets[seat])}/plan"
    urls["confirm"] = f"{live.play_url(secrets[seat])}/a/{seq}/0"
    urls["stale link"] = f"{live.play_url(secrets[seat])}/a/1/0"
    urls["not found"] = f"{live.play_url(secrets[seat])}/a/{seq}/999"
    key = services(live.app).settings.secret_key
    urls["spectate"] = f"{live.url}/watch/{spectate_token(key, game_id)}"
    urls["my games"] = f"{live.url}/me/{preferences.address_token(key, 'ana@example.com')}"
    token = preferences.unsubscribe_token(key, game_id, 0, "ana@example.com")
    urls["unsubscribe"] = f"{live.url}/unsubscribe/{token}"
    urls["mailbox"] = f"{live.url}/mailbox/"
    urls["mail"] = f"{live.url}/mailbox/{newest_mail_id(live, 'ana@example.com')}"
    urls["sign-in"] = f"{live.url}/signin"
    urls["lobby"] = f"{live.url}/lobby/"
    urls["home"] = f"{live.url}/"
    urls["verify"] = f"{live.url}/verify"


def organiser_pages(live, page, urls: dict) -> None:
    """An organiser signs in by mail and makes an open game with one invitee."""
    page.goto(f"{live.url}/organise/new")
    page.fill("#email", ORGANISER)
    press(page, page.get_by_role("button", name="Mail me a sign-in link"))
    mail = open_mail(page, live.url, ORGANISER, re.compile("sign-in link"))
    signed_in = click_in_mail(page, mail.get_by_role("link").first)
    press(signed_in, signed_in.get_by_role("button", name="Sign in"))
    signed_in.select_option("#game", "inca_empire")
    signed_in.fill("#players", "3")
    signed_in.fill("#organiser_name", "Olga")
    signed_in.fill("input[name=name_0]", "Ivan")
    signed_in.fill("input[name=email_0]", INVITEE)
    signed_in.check("input[name=open]")
    press(signed_in, signed_in.get_by_role("button", name="Send the invitations"))
    urls["organiser game"] = signed_in.url
    pending = signed_in.url.rstrip("/").rsplit("/", 1)[1]
    urls["organiser home"] = f"{live.url}/organise/"
    urls["new game form"] = f"{live.url}/organise/new"
    urls["lobby game"] = f"{live.url}/lobby/{pending}"
    urls["invitation"] = link_in_mail(live, INVITEE, r"https?://\S+/invite/[^\s\"<>]+")
    signed_in.close()


def admin_pages(live, page, urls: dict, played: dict) -> None:
    """A site admin logs in with a password."""
    make_admin(live.app)
    page.goto(f"{live.url}/admin/login")
    page.fill("#email", SITE_EMAIL)
    page.fill("#password", SITE_PASSWORD)
    press(page, page.locator("form button[type=submit]").first)
    urls["admin dashboard"] = f"{live.url}/admin/"
    game_id, _secrets = played["inca_empire"]
    urls["audit log"] = f"{live.url}/admin/games/{game_id}"
    urls["time travel"] = f"{live.url}/admin/games/{game_id}/at/3"
    urls["admin login"] = f"{live.url}/admin/login"


@pytest.fixture(scope="module")
def pages(live, browser):
    """A browser page (its context signed in as an organiser and logged in as a site admin)
    and the URLs of every page type, by name."""
    context = browser.new_context(viewport={"width": PHONE, "height": 800})
    page = context.new_page()
    urls: dict[str, str] = {}
    played = game_pages(live, urls)
    player_pages(live, urls, played)
    organiser_pages(live, page, urls)
    admin_pages(live, page, urls, played)
    yield page, urls
    context.close()


@pytest.fixture(scope="module")
def widest():
    """The widest page seen at each width, written out once every page was measured."""
    seen: dict[int, dict] = {}
    yield seen
    SCREENSHOTS.parent.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS.parent / "page_widths.json").write_text(json.dumps(
        {str(width): seen[width] for width in sorted(seen)}, indent=1) + "\n")


def open_page(page, urls: dict, kind: str) -> None:
    """Open the page of ``kind`` as a person reaches it (the verify result by posting a
    finished game's record through the form)."""
    if kind == "verify result":
        record = page.request.get(urls["record incan_gold"]).text()
        page.goto(urls["verify"])  # a long record: set at once, as a paste does
        page.eval_on_selector("textarea[name=record]", "(box, text) => box.value = text", record)
        press(page, page.get_by_role("button", name="Verify"))
        return
    response = page.goto(urls[kind])
    expected = ANSWERED.get(kind, 200)
    assert response.status == expected, f"{kind}: {urls[kind]} answered {response.status}"


def problems_at(page, kind: str, width: int, widest: dict) -> list[str]:
    """What is wrong with the open page at ``width``: sideways scrolling, elements past the
    right edge, headers broken inside a word."""
    page.set_viewport_size({"width": width, "height": 900})
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    if scroll_width > widest.get(width, {}).get("px", 0):
        widest[width] = {"px": scroll_width, "page": kind}
    found = []
    if scroll_width > width:
        found.append(f"{width}: the page is {scroll_width} px wide")
    past = page.evaluate(OVERFLOWING)
    if past:
        found.append(f"{width}: past the right edge: {past[:5]}")
    broken = page.evaluate(BROKEN_HEADERS)
    if broken:
        found.append(f"{width}: headers broken inside a word: {broken}")
    return found


# The pages that answer with an error's status (a page nonetheless, and measured).
ANSWERED = {"stale link": 409, "not found": 404}
PAGE_TYPES = ("home", "play incan_gold, start", "play incan_gold", "play incan_gold, waiting",
              "play incan_gold, over", "play machu_picchu, start", "play machu_picchu",
              "play machu_picchu, waiting", "play machu_picchu, over", "play inca_empire, start",
              "play inca_empire", "play inca_empire, waiting", "play inca_empire, over",
              "play machu_picchu, in Japanese", "play inca_empire, in Chinese", "plan",
              "confirm", "stale link", "not found", "spectate", "my games", "unsubscribe",
              "mailbox", "mail", "sign-in", "lobby", "lobby game", "organiser home",
              "new game form", "organiser game", "invitation", "verify", "verify result",
              "admin dashboard", "audit log", "time travel")


@pytest.mark.parametrize("kind", PAGE_TYPES)
def test_no_page_is_wider_than_its_screen_nor_breaks_a_header_inside_a_word(pages, widest, kind):
    page, urls = pages
    page.context.clear_cookies(name=LANGUAGE_COOKIE)  # English unless the URL asks otherwise
    open_page(page, urls, kind)
    if kind == "mail":  # the preview frame is sized by script once the mail has loaded
        page.wait_for_function("() => document.querySelector('iframe.mail-preview').style.height"
                               " !== '32rem'")
    found = [problem for width in WIDTHS for problem in problems_at(page, kind, width, widest)]
    page.set_viewport_size({"width": PHONE, "height": 900})
    shoot(page, f"phone-{kind.replace(' ', '-').replace(',', '')}")
    assert found == [], f"{kind}: {found}"


@pytest.mark.parametrize("kind", ("play inca_empire, start", "play inca_empire",
                                  "play inca_empire, over", "play inca_empire, in Chinese"))
def test_the_inca_empire_board_is_readable_on_a_phone(pages, kind):
    page, urls = pages
    page.set_viewport_size({"width": PHONE, "height": 900})
    page.context.clear_cookies(name=LANGUAGE_COOKIE)
    open_page(page, urls, kind)
    texts = page.evaluate(BOARD_TEXT_PX)
    assert texts, f"{kind}: no board"
    smallest = min(texts, key=lambda t: t["px"])
    print(f"{kind}: smallest board text {smallest['px']:.1f} px ({smallest['text']!r})")
    assert smallest["px"] >= SMALLEST_BOARD_TEXT_PX, f"{kind}: {smallest}"
