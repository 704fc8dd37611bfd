"""The README's demo played by clicking, as a newcomer plays it: the demo of ``./chasqui run``,
then Chromium opens ``/mailbox/``, opens a mail, clicks a link in the mail's HTML part as the
mailbox shows it (its sandboxed preview frame, not the text part), and presses the button of
the page that opens.  A move, a sign-in and the acceptance of invitations, each by mail."""
from __future__ import annotations

import re

import pytest

from service.application.demo import DEMO_PLAYERS
from tests.browser.conftest import click_in_mail, complaints, open_mail, press, shoot

pytestmark = pytest.mark.browser

ACTION_LINK = re.compile(r"^\[\w+\] ")  # a turn mail's move links: "[code] label"


def run_demo(live, *options: str) -> str:
    """``flask chasqui demo`` as ``./chasqui run`` calls it; its output."""
    result = live.app.test_cli_runner().invoke(args=["chasqui", "demo", *options])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def demo_game(live) -> str:
    """The id of the demo game (its players accepted; their start mails in the mailbox)."""
    return re.search(r"demo game (\S+)", run_demo(live)).group(1)


@pytest.fixture
def person(page_at):
    """A page at phone width; ``person.complaints``: what its console says was blocked."""
    page = page_at(360)
    page.complaints = complaints(page)
    return page


def test_a_player_moves_by_clicking_the_move_link_of_their_mail(live, demo_game, person):
    ben = DEMO_PLAYERS[1][1]
    before = live.loaded(demo_game).seq
    mail = open_mail(person, live.url, ben, re.compile("Incan Gold"))
    shoot(person, "mailbox-turn-mail")
    assert person.evaluate("document.documentElement.scrollWidth") <= 360, "wider than a phone"
    move = mail.get_by_role("link", name=ACTION_LINK).first
    chosen = move.inner_text()
    page = click_in_mail(person, move)
    assert "/play/" in page.url
    button = page.locator("form[action$='/move'] button")
    assert button.count() == 1
    press(page, button)
    loaded = live.loaded(demo_game)
    assert loaded.seq == before + 1, f"pressing {chosen!r} did not move the game"
    assert loaded.events[-1].payload.get("seat") == 1
    assert person.complaints == []


def test_a_visitor_signs_in_by_clicking_the_link_of_their_sign_in_mail(live, person):
    address = "newcomer@example.org"
    person.goto(f"{live.url}/signin")
    person.fill("#email", address)
    press(person, person.get_by_role("button", name="Mail me a sign-in link"))
    mail = open_mail(person, live.url, address, re.compile("sign-in link"))
    page = click_in_mail(person, mail.get_by_role("link").first)
    assert "/signin/" in page.url
    press(page, page.get_by_role("button", name="Sign in"))
    assert "/signin" not in page.url
    page.goto(f"{live.url}/organise/")
    assert page.get_by_role("link", name="Your games").count() == 1, "signed in"
    assert person.complaints == []


def test_the_invited_accept_by_clicking_the_links_of_their_invitation_mails(live, person):
    run_demo(live, "--no-accept")  # Ana organises a second game; nobody has accepted yet
    for _, address in DEMO_PLAYERS[1:]:
        mail = open_mail(person, live.url, address, re.compile("invites you"))
        page = click_in_mail(person, mail.get_by_role("link", name=re.compile("Accept")).first)
        assert "/invite/" in page.url
        press(page, page.get_by_role("button", name="Accept"))
        assert "You accepted" in page.inner_text("h1")
    assert "the game has started" in page.inner_text("main")
    shoot(page, "mailbox-invitation-accepted")
    assert person.complaints == []


FRAME_AND_MAIL_HEIGHTS = """() => {
  const frame = document.querySelector('iframe.mail-preview');
  return [frame.getBoundingClientRect().height,
          frame.contentDocument.documentElement.getBoundingClientRect().height];
}"""


def test_the_preview_of_a_mail_is_as_tall_as_the_mail(live, demo_game, person):
    open_mail(person, live.url, DEMO_PLAYERS[2][1], re.compile("Incan Gold"))
    fits = f"() => {{ const [frame, mail] = ({FRAME_AND_MAIL_HEIGHTS})(); " \
           "return mail > 0 && Math.abs(frame - mail) <= 4; }"
    person.wait_for_function(fits)  # chasqui.js fits it once the mail has loaded
    frame_height, mail_height = person.evaluate(FRAME_AND_MAIL_HEIGHTS)
    assert mail_height > 32 * 16, "a turn mail is taller than the frame's fallback height"
    assert abs(frame_height - mail_height) <= 4
