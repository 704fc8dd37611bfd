"""Every kind of page at a 360 px phone's width: nothing wider than the screen.

One server, one browser context and one shared setup (games of all three games a few moves
in, an organiser signed in by mail with a game of their own, a site admin logged in); then each
page is opened once and measured: the document does not scroll sideways and no element reaches
past the viewport's right edge (inside a box made to scroll sideways, ``*-scroll``, only the box
itself counts)."""
from __future__ import annotations

import re
from email import message_from_string
from email.policy import default

import pytest
from sqlalchemy import select

from service.core.tokens import spectate_token
from service.store import preferences
from service.store.models import LocalMailRow
from service.web.extensions import services
from tests.browser.conftest import click_in_mail, open_mail, press, shoot
from tests.service.test_admin_support import SITE_EMAIL, SITE_PASSWORD, make_admin

pytestmark = pytest.mark.browser

PHONE = 360
GAMES = (("incan_gold", 3, 6), ("machu_picchu", 3, 9), ("inca_empire", 3, 24))
ORGANISER = "olga.phone@example.org"
INVITEE = "ivan.phone@example.org"
SCROLLERS = ".ig-scroll, .mp-scroll, .ie-scroll"
OVERFLOWING = """(scrollers) => {
  const edge = document.documentElement.clientWidth + 1;
  return [...document.body.querySelectorAll('*')]
    .filter(el => !el.parentElement.closest(scrollers))
    .filter(el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.right > edge; })
    .map(el => el.tagName + '.' + (el.getAttribute('class') || '') + ' ' + Math.round(el.getBoundingClientRect().right));
}"""


def advance(live, game_id: str, secrets: list[str], moves: int) -> None:
    """A few bot moves through the API, so the pages show a game under way."""
    for _ in range(moves):
        choice = live.bot_choice(game_id)
        if choice is None:
            return
        seat, action = choice
        seq = live.loaded(game_id).seq
        response = live.client.post(f"/api/play/{secrets[seat]}", json={"action": action, "seq": seq})
        assert response.status_code == 200, response.get_json()


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


@pytest.fixture(scope="module")
def pages(live, browser):
    """A phone's browser page (its context signed in as an organiser and logged in as a site
    admin) and the URLs of every page type, by name."""
    context = browser.new_context(viewport={"width": PHONE, "height": 800})
    page = context.new_page()
    urls: dict[str, str] = {}
    played = {}
    for game, players, moves in GAMES:
        game_id, secrets = live.new_game(game, ["Ana", "Ben", "Cleo"][:players], seed=5)
        advance(live, game_id, secrets, moves)
        played[game] = (game_id, secrets)
        seat, _ = live.bot_choice(game_id)
        urls[f"play {game}"] = live.play_url(secrets[seat])
        urls[f"play {game}, waiting"] = live.play_url(secrets[(seat + 1) % players])
    game_id, secrets = played["machu_picchu"]
    seat, _ = live.bot_choice(game_id)
    seq = live.loaded(game_id).seq
    urls["plan"] = f"{live.play_url(secrets[seat])}/plan"
    urls["confirm"] = f"{live.play_url(secrets[seat])}/a/{seq}/0"
    key = services(live.app).settings.secret_key
    urls["spectate"] = f"{live.url}/watch/{spectate_token(key, game_id)}"
    urls["my games"] = f"{live.url}/me/{preferences.address_token(key, 'ana@example.com')}"
    urls["mailbox"] = f"{live.url}/mailbox/"
    urls["mail"] = f"{live.url}/mailbox/{newest_mail_id(live, 'ana@example.com')}"
    urls["sign-in"] = f"{live.url}/signin"
    urls["lobby"] = f"{live.url}/lobby/"
    urls["home"] = f"{live.url}/"

    # An organiser signs in by mail and makes an open game with one invitee.
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

    # A site admin logs in with a password.
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
    yield page, urls
    context.close()


PAGE_TYPES = ("home", "play incan_gold", "play incan_gold, waiting", "play machu_picchu",
              "play machu_picchu, waiting", "play inca_empire", "play inca_empire, waiting",
              "plan", "confirm", "spectate", "my games", "mailbox", "mail", "sign-in", "lobby",
              "lobby game", "organiser home", "new game form", "organiser game", "invitation",
              "admin dashboard", "audit log", "time travel")


@pytest.mark.parametrize("kind", PAGE_TYPES)
def test_no_page_is_wider_than_a_phone(pages, kind):
    page, urls = pages
    response = page.goto(urls[kind])
    assert response.status == 200, f"{kind}: {urls[kind]} answered {response.status}"
    if kind == "mail":  # the preview frame is sized by script once the mail has loaded
        page.wait_for_function("() => document.querySelector('iframe.mail-preview').style.height"
                               " !== '32rem'")
    shoot(page, f"phone-{kind.replace(' ', '-').replace(',', '')}")
    assert page.evaluate(OVERFLOWING, SCROLLERS) == [], f"{kind}: elements past the right edge"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE, f"{kind} is {width} px wide"
