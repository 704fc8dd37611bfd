"""Every page (play, confirm, moved on, errors, index, lobby, spectate, my games,
unsubscribe, sign-in, invitations, each game's view and move forms, the organisers' own pages,
the admin pages and the local mailbox) and the flash messages in English, Chinese (zh-Hans)
and Japanese; a seat's pages follow its language preference.  How the language is chosen
(cookie, Accept-Language) is tested in test_languages_choice.py."""
from __future__ import annotations

import re
from functools import cache
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from service.store.preferences import set_preference
from tests.service.catalog_kit import forms, message_key
from tests.service.mail_kit import app, newest, smtp, text_of  # noqa: F401
from tests.service.test_mail_i18n import extracted
from service.web.extensions import services

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
LANGUAGES = ("zh_Hans", "ja")

# Key English phrases of the pages (and of each game's view); none may be left in zh/ja.
KEY_PHRASES = (
    "Your move", "Table talk", "Clocks", "Move due", "days left", "Start my vacation",
    "Take back my move", "You will get a mail", "Waiting for", "The game is over",
    "of its record", "you are ", "(you)", "Back to the game without moving", "You chose:",
    "The game moved on", "after this mail was sent", "Open the current game",
    "slow board games by mail", "Start a game with your group", "Organise a game", "players)",
    "Lobby", "open games with free seats", "Free seats", "Sign in", "Your games",
    "My games", "Spectators can watch", "A spectator sees only",
    # Incan Gold
    "The temple", "Gems on the path", "Cards left in the deck", "Artifacts to come",
    "Last reveal", "stayed", "turned up", "The path", "newest", "Explorers", "Where",
    "Carrying", "Tent", "inside", "in camp", "deciding", "has chosen", "Stay in the temple",
    "Leave for camp", "treasure ", " gems",
    # Machu Picchu
    "day 1 of", "Now:", "Moon tiles left", "Priests left", "Sacrifice cards in the deck",
    "Coloured counters", "Your supplies", "Incas in supply", "Your sacrifice cards",
    "Score estimate", "Market", "buy / sell", "Incas left", "Priest of the", "Virgin of the Sun",
    # Inca Empire
    "Era 1 of 4", "Route restrictions left", "Era decks", "Cards by region around Cusco",
    "The draft", "Your hand", "Your goals", "Show cards for the draft", "Chosen face down",
)
# Words that the engines' texts (action labels, card texts: English, see docs/mail.md) also
# use: checked as the pages' own headings and cells only.
KEY_CELLS = tuple(f'scope="col">{word}</th>' for word in (
    "Player", "Supply", "Terraces", "Hand", "Active", "Price", "Goods", "Prince", "Trail", "Cards",
    "Where", "Carrying", "Tent")) + tuple(f">{group}</h3>" for group in (
    "Place your Prince", "Place your free Inca", "Take a card from the draft", "Players", "Market"))


def catalog(language: str):
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle)


@cache
def english_texts() -> tuple[str, ...]:
    """The templates' own texts.  The runtime texts (service.view.i18n, service.view.page_texts) are left
    out: the engines' English labels and card texts use some of the same words ("Extra
    Workforce", "Place your Prince on …"); KEY_PHRASES and KEY_CELLS check those."""
    from service.view.i18n import RUNTIME_TEXTS
    from service.view.page_texts import PAGE_TEXTS

    runtime = set(RUNTIME_TEXTS) | set(PAGE_TEXTS)
    return tuple(sorted((m for m in extracted()
                         if len(m) >= 12 and "%(" not in m and m not in runtime),
                        key=len, reverse=True))


def visible(html: str) -> str:
    """The page's text and the attributes a person sees or hears (title, aria-label,
    placeholder), without <style>, <script>, URLs and hidden form values."""
    html = re.sub(r"(?s)<(style|script)\b.*?</\1>", "", html)
    shown = " ".join(re.findall(r'(?:title|aria-label|placeholder)="([^"]*)"', html))
    return re.sub(r"(?s)<[^>]*>", " ", html) + " " + shown


def assert_translated(html: str, where: str, language: str) -> None:
    assert f'<html lang="{language.replace("_", "-")}">' in html, where
    text = visible(html)
    for phrase in KEY_PHRASES:
        assert phrase not in text, f"{where} ({language}): English left: {phrase!r}"
    for cell in KEY_CELLS:
        assert cell not in html, f"{where} ({language}): English left: {cell!r}"
    for english in english_texts():
        assert english not in text, f"{where} ({language}): untranslated: {english!r}"


# ------------------------------------------------------------------ catalogs

def test_every_msgid_of_the_template_has_a_translation_in_both_catalogs():
    with open(TRANSLATIONS / "messages.pot", "rb") as handle:
        template = read_po(handle)
    wanted = {message_key(m.id) for m in template if m.id}
    assert len(wanted) > 300, "the page texts are extracted (translations/babel.cfg)"
    assert wanted == extracted(), "messages.pot is stale: run pybabel extract (docs/mail.md)"
    for language in LANGUAGES:
        po = catalog(language)
        entries = {message_key(m.id): m for m in po if m.id}
        missing = sorted(str(m) for m in wanted if m not in entries)
        assert not missing, f"{language}: missing msgids {missing}"
        fuzzy = sorted(str(m) for m in wanted if entries[m].fuzzy)
        assert not fuzzy, f"{language}: fuzzy {fuzzy}"
        empty = sorted(str(m) for m in wanted
                       if not entries[m].string or (isinstance(entries[m].string, tuple)
                                                    and not all(entries[m].string)))
        assert not empty, f"{language}: empty {empty}"
        for m in wanted:  # the HTML a text carries survives translation
            english = forms(message_key(m))[-1]
            for text in forms(entries[m].string):
                assert re.findall(r"</?\w+", english) == re.findall(r"</?\w+", text), m


# ------------------------------------------------------------------ pages

def _links(smtp):
    mail = newest(smtp, "p0@example.com")
    text = text_of(mail)
    me = re.search(r"http://chasqui\.test(/me/\S+)", text).group(1)
    watch = re.search(r"http://chasqui\.test(/watch/\S+)", text).group(1)
    unsubscribe = re.search(r"<http://chasqui\.test(/unsubscribe/[^>]+)>", mail["List-Unsubscribe"]).group(1)
    return me, watch, unsubscribe


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", ["incan_gold", "machu_picchu", "inca_empire"])
def test_every_seat_page_of_every_game_is_translated(app, client, new_game, smtp, game, language):
    data, secrets = new_game(game=game, players=3)
    seq = client.get(f"/api/play/{secrets[0]}").get_json()["seq"]
    if game == "incan_gold":  # a turn later: the last reveal, a path, choices made
        for secret in secrets:
            client.post(f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": seq})
        seq = client.get(f"/api/play/{secrets[0]}").get_json()["seq"]
        client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "leave"}, "seq": seq})
    me, watch, unsubscribe = _links(smtp)
    lang = f"lang={language}"
    pages = {f"play {seat}": f"/play/{secret}?{lang}" for seat, secret in enumerate(secrets)}
    pages.update({
        "confirm": f"/play/{secrets[0]}/a/{seq}/0?{lang}",
        "spectate": f"{watch}?{lang}", "my games": f"{me}?{lang}",
        "unsubscribe": f"{unsubscribe}?{lang}",
    })
    for where, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, where
        assert_translated(response.get_data(as_text=True), f"{game} {where}", language)
    moved_on = client.get(f"/play/{secrets[0]}/a/0/0?{lang}")
    assert moved_on.status_code == 409
    assert_translated(moved_on.get_data(as_text=True), "moved on", language)
    missing = client.get(f"/play/{secrets[0]}/a/{seq}/99?{lang}")
    assert missing.status_code == 404
    assert_translated(missing.get_data(as_text=True), "error", language)


@pytest.mark.parametrize("language,words", [
    ("ja", ["あなたの手番", "探検を続ける", "キャンプに戻る", "インカの黄金", "探検家", "神殿"]),
    ("zh_Hans", ["你的行动", "继续探险", "返回营地", "印加宝藏", "探险家", "神殿"]),
])
def test_a_player_whose_language_is_set_sees_the_play_page_in_it(app, client, new_game, language, words):
    data, secrets = new_game(players=3)
    svc = services(app)
    with svc.db.unit_of_work() as session:
        set_preference(session, data["id"], 0, svc.clock(), language=language)
    html = client.get(f"/play/{secrets[0]}").get_data(as_text=True)  # no ?lang=
    for word in words:
        assert word in html, word
    assert_translated(html, "play page by preference", language)
    # another seat (no preference) still reads English, and ?lang= wins over the preference
    other = client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    assert '<html lang="en">' in other and "Your move" in other and "Explorers" in other
    english = client.get(f"/play/{secrets[0]}?lang=en").get_data(as_text=True)
    assert "Your move" in english and "Stay in the temple" in english


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_public_pages_are_translated(app, client, language):
    for url in ("/", "/lobby/", "/signin"):
        response = client.get(f"{url}?lang={language}")
        assert response.status_code == 200, url
        assert_translated(response.get_data(as_text=True), url, language)


def test_english_stays_the_default_page_language(app, client, new_game):
    _data, secrets = new_game(players=3)
    html = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    assert '<html lang="en">' in html
    for phrase in ("Your move", "Explorers", "The temple — round ", "Table talk", "Clocks"):
        assert phrase in html, phrase


# ------------------------------------------------------------------ invitations

def test_an_invitation_in_japanese_mail_and_page(tmp_path, clock):
    from tests.service.test_organisers_support import create_game, link_in, mails, make_app, sign_in

    app = make_app(tmp_path, clock)  # mail goes to the local mailbox
    client = app.test_client()
    sign_in(client, app)
    create_game(client, language="ja")
    invitation = [m for m in mails(app, "ana@example.org") if "/invite/" in m["text"]][0]
    for word in ("こんにちは", "承諾：", "辞退：", "インカの黄金"):
        assert word in invitation["text"], word
    for english in english_texts():
        assert english not in invitation["text"], f"untranslated: {english!r}"
    html = app.test_client().get(link_in(invitation, "invite")).get_data(as_text=True)
    assert "承諾する" in html and "辞退する" in html
    assert_translated(html, "invitation page", "ja")


# ------------------------------------------------------------------ admin, organiser, errors, flash

def _admin_client(app):
    from tests.service.test_admin_support import site_admin

    return site_admin(app, app.test_client())


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_admin_pages_are_translated(app, client, new_game, language):
    from tests.service.test_admin_support import post_form

    data, secrets = new_game(players=3)
    admin = _admin_client(app)
    lang = f"lang={language}"
    game = data["id"]
    login_page = app.test_client().get(f"/admin/login?{lang}")
    assert_translated(login_page.get_data(as_text=True), "admin login", language)
    for where, url in {"dashboard": f"/admin/?{lang}", "game": f"/admin/games/{game}?{lang}",
                       "time travel": f"/admin/games/{game}/at/1?{lang}&seat=0",
                       "bad seq": f"/admin/games/{game}/at/99?{lang}"}.items():
        response = admin.get(url)
        assert response.status_code == (404 if where == "bad seq" else 200), where
        assert_translated(response.get_data(as_text=True), f"admin {where}", language)
    # a command's flash is in the language the admin reads (remembered from ?lang=)
    paused = post_form(admin, game, "pause", reason="", seq="1")
    assert paused.status_code == 303
    page = admin.get(paused.headers["Location"]).get_data(as_text=True)
    assert "Paused." not in visible(page) and {"zh_Hans": "已暂停。", "ja": "一時停止しました。"}[language] in page
    assert_translated(page, "admin game after pause", language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_organiser_pages_are_translated(tmp_path, clock, language):
    from tests.service.test_organisers_support import create_game, make_app, sign_in

    app = make_app(tmp_path, clock)
    client = app.test_client()
    sign_in(client, app)
    assert_translated(client.get(f"/organise/?lang={language}").get_data(as_text=True),
                      "organiser home (no games)", language)
    assert_translated(client.get("/organise/new").get_data(as_text=True), "new game", language)
    pending = create_game(client)  # the form is posted: its flash is made in the page's language
    page = client.get(f"/organise/games/{pending}").get_data(as_text=True)
    assert {"zh_Hans": "已发送 3 份邀请", "ja": "招待を 3 件送りました"}[language] in page
    assert_translated(page, "organiser game", language)
    assert_translated(client.get("/organise/").get_data(as_text=True), "organiser home", language)
    # the local mailbox (its list; a mail's own text is in the mail's language)
    assert_translated(client.get("/mailbox/").get_data(as_text=True), "mailbox", language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_error_pages_are_translated(app, client, new_game, language):
    _data, secrets = new_game(players=3)
    for url, status in ((f"/no/such/page?lang={language}", 404),
                        (f"/play/{secrets[0]}/move?lang={language}", 405),
                        (f"/play/not-a-secret?lang={language}", 403),
                        (f"/watch/nonsense?lang={language}", 404)):
        response = client.get(url)
        assert response.status_code == status, url
        html = response.get_data(as_text=True)
        assert_translated(html, url, language)
        for english in ("Not Found", "Not found", "Link not valid", "this link is not valid",
                        "no such game", "Method Not Allowed"):
            assert english not in visible(html), (url, english)


@pytest.mark.parametrize("language,done", [("zh_Hans", "完成：继续探险"), ("ja", "完了：探検を続ける")])
def test_a_flash_message_is_in_the_seat_language(app, client, new_game, language, done):
    from tests.service.test_admin_support import token_in

    data, secrets = new_game(players=3)
    svc = services(app)
    with svc.db.unit_of_work() as session:
        set_preference(session, data["id"], 0, svc.clock(), language=language)
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    action = re.search(r'name="action" value="([^"]+)"', page).group(1)
    response = client.post(f"/play/{secrets[0]}/move", data={
        "csrf_token": token_in(page), "seq": "1", "action": unescape(action)})
    assert response.status_code == 303
    shown = client.get(response.headers["Location"]).get_data(as_text=True)
    assert done in shown, "the flash follows the seat's language, as the page does"
    assert "Done:" not in visible(shown)
    assert_translated(shown, "play page with a flash", language)
    # the same form posted twice: the stale-move warning is translated where it is shown
    again = client.post(f"/play/{secrets[0]}/move", data={
        "csrf_token": token_in(page), "seq": "1", "action": unescape(action)})
    warned = client.get(again.headers["Location"]).get_data(as_text=True)
    assert "double submit" not in warned and "moved on" not in visible(warned)
