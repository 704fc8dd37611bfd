"""Issue 10 in a real browser: an organiser signs in by mail, fills in the new-game form,
the invitees accept from their invitation mails (in the local mailbox), and the game starts;
no page breaks the Content-Security-Policy (inline styles, the mailbox's srcdoc preview)."""
from __future__ import annotations

import re

import pytest

from tests.browser.conftest import shoot
from tests.browser.test_play_in_browser import NAMELESS_CONTROLS

pytestmark = pytest.mark.browser

INVITEES = [("Ana", "ana.b@example.org"), ("Ben", "ben.b@example.org")]


def mail_link(page, base: str, address: str, subject_part: str, kind: str) -> str:
    page.goto(f"{base}/mailbox/?to={address}")
    page.get_by_role("link", name=re.compile(re.escape(subject_part))).first.click()
    text = page.locator("pre").inner_text()
    # the mail's links use CHASQUI_BASE_URL; the live server is on another port
    return base + re.search(rf"https?://[^/\s]+(/{kind}/[^\s?]+)", text).group(1)


def test_an_organiser_starts_a_game_from_the_browser(live, page_at):
    base = live.url
    page = page_at(1280)
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)

    page.goto(f"{base}/organise/new")  # sent to sign in first, and back afterwards
    page.fill("#email", "olga.b@example.org")
    page.get_by_role("button", name="Mail me a sign-in link").click()
    assert "Check your mail" in page.inner_text("h1")
    link = mail_link(page, base, "olga.b@example.org", "sign-in link", "signin")
    page.goto(link)
    page.get_by_role("button", name="Sign in").click()
    assert page.url.endswith("/organise/new")
    assert page.evaluate(NAMELESS_CONTROLS) == []

    page.select_option("#game", "incan_gold")
    page.fill("#players", "3")
    page.fill("#organiser_name", "Olga")
    for i, (name, address) in enumerate(INVITEES):
        page.fill(f"input[name=name_{i}]", name)
        page.fill(f"input[name=email_{i}]", address)
    shoot(page, "organiser-new-game")
    page.get_by_role("button", name="Send the invitations").click()
    assert "2 invitation(s) sent" in page.inner_text("main")

    for name, address in INVITEES:
        invitee = page_at(360)
        invitee.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
        link = mail_link(invitee, base, address, "invites you", "invite")
        assert invitee.frame_locator("iframe").locator("a", has_text="Accept").count() == 1  # srcdoc preview
        invitee.goto(link + "?answer=accept")
        assert invitee.evaluate(NAMELESS_CONTROLS) == []
        shoot(invitee, f"organiser-invitation-{name.lower()}")
        invitee.get_by_role("button", name="Accept").click()
        assert "You accepted" in invitee.inner_text("h1")
    assert "the game has started" in invitee.inner_text("main")

    page.goto(f"{base}/organise/")
    page.get_by_role("button", name="Administer").click()
    assert "/admin/games/" in page.url
    start = mail_link(page, base, "ana.b@example.org", "Incan Gold —", "play")
    assert "/play/" in start
    assert violations == []
