"""In a real browser: an organiser signs in by mail, fills in the new-game form,
the invitees accept from their invitation mails (in the local mailbox, clicking the links of
the mails' HTML parts), and the game starts; no page breaks the Content-Security-Policy
(inline styles, the mailbox's srcdoc preview)."""
from __future__ import annotations

import re

import pytest

from tests.browser.conftest import click_in_mail, complaints, open_mail, press, shoot
from tests.browser.test_play_in_browser import NAMELESS_CONTROLS

pytestmark = pytest.mark.browser

INVITEES = [("Ana", "ana.b@example.org"), ("Ben", "ben.b@example.org")]


def test_an_organiser_starts_a_game_from_the_browser(live, page_at):
    base = live.url
    mailbox = page_at(1280)
    heard = [complaints(mailbox)]  # one list per browser context, filled as they go

    mailbox.goto(f"{base}/organise/new")  # sent to sign in first, and back afterwards
    mailbox.fill("#email", "olga.b@example.org")
    press(mailbox, mailbox.get_by_role("button", name="Mail me a sign-in link"))
    assert "Check your mail" in mailbox.inner_text("h1")
    mail = open_mail(mailbox, base, "olga.b@example.org", re.compile("sign-in link"))
    page = click_in_mail(mailbox, mail.get_by_role("link").first)
    press(page, page.get_by_role("button", name="Sign in"))
    assert page.url.endswith("/organise/new")
    assert page.evaluate(NAMELESS_CONTROLS) == []

    page.select_option("#game", "incan_gold")
    page.fill("#players", "3")
    page.fill("#organiser_name", "Olga")
    for i, (name, address) in enumerate(INVITEES):
        page.fill(f"input[name=name_{i}]", name)
        page.fill(f"input[name=email_{i}]", address)
    shoot(page, "organiser-new-game")
    press(page, page.get_by_role("button", name="Send the invitations"))
    assert "2 invitations sent" in page.inner_text("main")

    for name, address in INVITEES:
        their_mailbox = page_at(360)
        heard.append(complaints(their_mailbox))
        mail = open_mail(their_mailbox, base, address, re.compile("invites you"))
        accept = mail.locator("a", has_text="Accept")
        assert accept.count() == 1  # srcdoc preview
        invitee = click_in_mail(their_mailbox, accept)
        assert "answer=accept" in invitee.url
        assert invitee.evaluate(NAMELESS_CONTROLS) == []
        shoot(invitee, f"organiser-invitation-{name.lower()}")
        press(invitee, invitee.get_by_role("button", name="Accept"))
        assert "You accepted" in invitee.inner_text("h1")
    assert "the game has started" in invitee.inner_text("main")

    page.goto(f"{base}/organise/")
    press(page, page.get_by_role("button", name="Administer"))
    assert "/admin/games/" in page.url
    start = open_mail(page, base, "ana.b@example.org", re.compile("Incan Gold —"))
    assert "/play/" in start.get_by_role("link").first.get_attribute("href")
    assert [text for said in heard for text in said] == []
