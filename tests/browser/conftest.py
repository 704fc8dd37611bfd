"""Browser tests: the real app served on 127.0.0.1 from a thread, driven by
Playwright through Debian's Chromium (``apt-get install chromium``; never ``playwright
install``).  Under CI=true a missing Chromium or Playwright fails; elsewhere the tests skip."""
from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path

import pytest

from engine.core import without_label
from service.store.loading import load
from tests.conftest import ADMIN_TOKEN, make_settings, migrated_app
from service.web.extensions import services

CHROMIUM = os.environ.get("CHASQUI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
WIDTHS = (360, 1280)


def require(reason: str) -> None:
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{reason} (CI=true: browser tests must run, not skip)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        require("Playwright is not installed (pip install -e '.[test]')")
    path = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if not path:
        require(f"Chromium not found at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=path, headless=True,
                                                  args=CHROMIUM_ARGS)
        except Exception as error:  # noqa: BLE001
            require(f"Chromium at {path} does not start: {error}")
        yield chromium
        chromium.close()


class LiveServer:
    """The app on a free port of 127.0.0.1, in a thread; games are made through its API.

    The app's base URL is the server's own address, so the links of its mails (in the local
    mailbox) open this server when a test clicks them, as they do for ``./chasqui run``.  The
    port is known only once the server listens, so the server is made first and hands each
    request to the app made afterwards (``wsgi``)."""

    def __init__(self, tmp_path: Path):
        from werkzeug.serving import make_server

        self.server = make_server("127.0.0.1", 0, self.wsgi, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.app = migrated_app(make_settings(tmp_path, CHASQUI_BASE_URL=self.url,
                                              CHASQUI_MAIL_DOMAIN="chasqui.test"))
        # shutdown() waits for serve_forever to look at its flag, once per poll interval
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,),
                                       daemon=True)
        self.thread.start()
        self.client = self.app.test_client()

    def wsgi(self, environ, start_response):
        return self.app(environ, start_response)

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(5)
        services(self.app).db.dispose()

    def new_game(self, game: str, players: list[str], seed: int = 7) -> tuple[str, list[str]]:
        body = {"game": game, "seed": seed, "players": [
            {"name": name, "email": f"{name.lower()}@example.com"} for name in players]}
        response = self.client.post("/api/games", json=body,
                                    headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        assert response.status_code == 201, response.get_json()
        data = response.get_json()
        return data["id"], [s["play_url"].rsplit("/play/", 1)[1] for s in data["seats"]]

    def play_url(self, secret: str) -> str:
        return f"{self.url}/play/{secret}"

    def loaded(self, game_id: str):
        svc = services(self.app)
        with self.app.app_context(), svc.db.reading() as session:
            return load(session, game_id)

    def bot_choice(self, game_id: str) -> tuple[int, dict] | None:
        """Who must act next and what that game's bot would choose (None when nobody)."""
        loaded = self.loaded(game_id)
        to_act = loaded.game.to_act(loaded.state)
        if not to_act or loaded.game.outcome(loaded.state) is not None:
            return None
        seat = to_act[0]
        return seat, loaded.game.bot_action(loaded.state, seat)


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    server = LiveServer(tmp_path_factory.mktemp("browser"))
    yield server
    server.stop()


@pytest.fixture
def page_at(browser):
    """A fresh page at a viewport width; closed after the test."""
    pages = []

    def make(width: int = 360):
        context = browser.new_context(viewport={"width": width, "height": 900})
        pages.append(context)
        return context.new_page()
    yield make
    for context in pages:
        context.close()


def shoot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


BLOCKED = ("Blocked", "Content Security Policy", "frame-ancestors", "Refused")


def complaints(page) -> list[str]:
    """A list that fills with what the console says about anything the browser blocked, in
    ``page`` and in every page it opens (its browser context's console)."""
    said: list[str] = []
    page.context.on("console", lambda message: said.append(message.text)
                    if any(word in message.text for word in BLOCKED) else None)
    return said


def open_mail(page, base: str, address: str, subject):
    """Open the local mailbox at ``/mailbox/``, then ``address``'s mails, then the newest one
    whose subject matches ``subject`` (a string or a pattern), as a person does; the preview
    frame of its HTML part."""
    page.goto(f"{base}/mailbox/")
    for link in (page.get_by_role("link", name=address, exact=True),
                 page.get_by_role("link", name=subject)):
        with page.expect_navigation():  # the next link is looked for on the page it opens
            link.first.click()
    return page.frame_locator("iframe.mail-preview")


def click_in_mail(page, link):
    """Click ``link`` (a locator in the preview frame): the page it opens, top-level and of its
    own, as a mail client opens a mail's link."""
    with page.expect_popup() as opened:
        link.click()
    popup = opened.value
    popup.wait_for_load_state()
    return popup


def press(page, button) -> None:
    """Click ``button`` (a locator of a form's button) and wait until the page the form's
    answer makes has loaded, so that the next look is at that page."""
    with page.expect_navigation():
        button.click()


def advance(live, game_id: str, secrets: list[str], moves: int) -> None:
    """Up to ``moves`` bot moves through the API (fewer when the game ends first), so the pages
    show a game under way or over."""
    for _ in range(moves):
        choice = live.bot_choice(game_id)
        if choice is None:
            return
        seat, action = choice
        seq = live.loaded(game_id).seq
        response = live.client.post(f"/api/play/{secrets[seat]}", json={"action": action, "seq": seq})
        assert response.status_code == 200, response.get_json()


def click_action(page, action: dict) -> None:
    """Press the button of the form whose hidden action equals ``action`` (labels ignored)."""
    values = page.eval_on_selector_all(
        "form[action$='/move']", "forms => forms.map(f => f.querySelector('input[name=action]').value)")
    wanted = without_label(action)
    for index, value in enumerate(values):
        if without_label(json.loads(value)) == wanted:
            with page.expect_navigation():
                page.locator("form[action$='/move']").nth(index).locator("button").click()
            return
    raise AssertionError(f"no button for {action} among {values}")
