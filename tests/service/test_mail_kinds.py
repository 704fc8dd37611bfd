"""Every mail says what it is where an inbox looks, while its subject stays the game's
(docs/mail.md, "What a mail is"): the text part's first line and the HTML part's hidden
preheader name the mail's kind in the recipient's language, and the local mailbox lists each
mail with its kind.  The subject, Message-ID and threading headers are what they were, since
mail clients thread by them."""
from __future__ import annotations

import html
import re
from datetime import timedelta
from email import message_from_string, policy

import pytest
from sqlalchemy import func, select

from service.mail import digest, kinds
from service.mail.compose import build_message
from service.mail.message_ids import thread_root
from service.store.loading import load
from service.store.models import AccountMailRow, LocalMailRow, OutboxRow
from service.store.preferences import set_preference
from service.view.i18n import translate
from service.web.extensions import services
from tests.service.test_admin_support import accept_offer, post_form, site_admin
from tests.service.test_organisers_lobby import join
from tests.service.test_organisers_support import PLAYERS, create_game, sign_in

LANGUAGES = ("en", "zh_Hans", "ja")
GAME_KINDS = ("start", "turn", "game_over", "timeout", "reminder-24", "vacation_auto",
              "vacation_over", "rollback", "undone", "seat", "links", "paused", "resumed",
              "abandoned", "talk", "reply_ok", "reply_error")
# The mail's subject before kinds were named: the game and its players, whatever the kind.
SUBJECT = {"en": "[Chasqui] Incan Gold — P0, P1, P2", "zh_Hans": "[Chasqui] 印加宝藏 — P0, P1, P2",
           "ja": "[Chasqui] インカの黄金 — P0, P1, P2"}
# What an inbox shows first for the kinds the issue names, as a reader sees it.
SHOWN = {"turn": {"en": "Your turn", "zh_Hans": "轮到你", "ja": "あなたの手番"},
         "talk": {"en": "Table talk", "zh_Hans": "桌边聊天", "ja": "卓のメッセージ"},
         "rollback": {"en": "Rolled back", "zh_Hans": "回退", "ja": "巻き戻し"},
         "game_over": {"en": "Game over", "zh_Hans": "游戏结束", "ja": "ゲーム終了"},
         "reminder-24": {"en": "Reminder", "ja": "リマインダー"}}
PREHEADER = re.compile(r'<body[^>]*>\s*<span class="preheader" style="([^"]*)">([^<]*)</span>')
HIDDEN = ("display:none", "max-height:0", "overflow:hidden", "mso-hide:all")
LANGUAGE_OF = {"en": "en", "zh-Hans": "zh_Hans", "ja": "ja"}


def first_line(message) -> str:
    return message.get_body(("plain",)).get_content().splitlines()[0]


def preheader(message) -> str:
    """The hidden preheader's text, after checking that it comes first and is hidden as
    every client hides it."""
    found = PREHEADER.search(message.get_body(("html",)).get_content())
    assert found, "no preheader first in the HTML part's body"
    style = found.group(1).replace(" ", "")
    assert all(rule in style for rule in HIDDEN), style
    return html.unescape(found.group(2))


def game_mail(app, game_id: str, kind: str, seat: int, language: str):
    """The mail of ``kind`` to ``seat`` at the game's seq 1, whether or not play made one."""
    svc = services(app)
    message_id = f"<{game_id}.1.{seat}.{kind}.{language}@chasqui.test>"
    with app.app_context(), svc.db.unit_of_work() as session:
        row = OutboxRow(game_id=game_id, seat=seat, kind=kind, seq=1,
                        to_addr=f"p{seat}@example.com", message_id=message_id,
                        status="pending", attempts=0, next_attempt_at=svc.clock(),
                        created_at=svc.clock())
        session.add(row)
        session.flush()
        wire = build_message(svc.settings, load(session, game_id, upto=1), row, language).as_string()
        session.rollback()  # a mail made up for the test, not owed
    return message_id, message_from_string(wire, policy=policy.default)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_game_mail_opens_with_its_kind_in_the_readers_language_under_the_same_subject(
        app, new_game, language):
    data, _ = new_game(players=3)
    domain = services(app).settings.mail_domain
    previews = set()
    for kind in GAME_KINDS:
        shown = kinds.preview(language, kind)
        assert shown and shown != kind, kind
        if language != "en":
            assert shown != kinds.preview("en", kind), f"{kind}: not translated"
        if SHOWN.get(kind, {}).get(language):
            assert shown == SHOWN[kind][language], kind
        for seat in (0, 1):
            message_id, read = game_mail(app, data["id"], kind, seat, language)
            assert first_line(read) == shown, f"{kind} to seat {seat}: first line"
            assert preheader(read) == shown, f"{kind} to seat {seat}: preheader"
            # the subject and the thread are the game's, as before: not the kind's
            assert read["Subject"] == SUBJECT[language], kind
            assert read["Message-ID"] == message_id
            root = thread_root(data["id"], seat, domain)
            assert (read["In-Reply-To"], read["References"]) == (root, root), kind
        previews.add(shown)
    assert len(previews) == len(GAME_KINDS), "two kinds read alike"


def test_the_preview_names_the_kind_only_so_every_seat_reads_the_same_line(app, new_game):
    """The preview shows no more than a recipient's view: it is the kind's name, the same
    for every seat, so it can carry no seat's secret."""
    data, _ = new_game(players=3)
    for kind in GAME_KINDS:
        lines = {(first_line(read), preheader(read))
                 for read in (game_mail(app, data["id"], kind, seat, "en")[1] for seat in range(3))}
        assert lines == {(kinds.preview("en", kind),) * 2}, kind


def stored_mails(app) -> list[tuple[int, str | None, str]]:
    """(id, kind, raw) of every mail in the local mailbox, oldest first; the kind is the
    outbox row's that sent it (None for a mail neither outbox sent)."""
    with services(app).db.reading() as session:
        return session.execute(
            select(LocalMailRow.id, func.coalesce(OutboxRow.kind, AccountMailRow.kind),
                   LocalMailRow.raw)
            .outerjoin(OutboxRow, OutboxRow.message_id == LocalMailRow.message_id)
            .outerjoin(AccountMailRow, AccountMailRow.message_id == LocalMailRow.message_id)
            .order_by(LocalMailRow.id)).all()


def mailbox_mails(app) -> list[tuple[str, object]]:
    """(kind, parsed mail) of every mail in the local mailbox, by the outbox row that sent it."""
    return [(kind, message_from_string(raw, policy=policy.default))
            for _, kind, raw in stored_mails(app)]


def test_every_mail_sent_opens_with_its_kind_and_the_mailbox_lists_it(app, client, clock,
                                                                       new_game):
    svc = services(app)
    site_admin(app, client)
    data, secrets = new_game(players=3)
    with svc.db.unit_of_work() as session:
        set_preference(session, data["id"], 0, clock(), language="zh_Hans")
        set_preference(session, data["id"], 2, clock(), mode="digest", language="ja")
    for secret in secrets:  # a new decision: turn mail, and p2's digest is owed
        client.post(f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": 1})
    seq = client.get(f"/api/play/{secrets[0]}").get_json()["seq"]
    assert post_form(client, data["id"], "seats/1/replace", name="Zoe", email="zoe@example.com",
                     seq=str(seq)).status_code == 303
    assert accept_offer(app, "zoe@example.com").status_code == 200
    clock.advance(timedelta(hours=1))
    with app.app_context():
        svc.dispatch(digest.plan(svc.db, clock(), svc.settings.mail_domain))
    organiser = app.test_client()
    sign_in(organiser, app)
    pending_id = create_game(organiser, invitees=PLAYERS[:1], count=4, open="on")
    assert join(app, pending_id, "Dee", "dee@example.org").status_code == 200

    mails = mailbox_mails(app)
    sent = {kind for kind, _ in mails}
    assert {"start", "turn", "digest", "seat_invite", "seat_offered", "seat_taken", "seat",
            "sign_in", "invitation", "join"} <= sent
    languages = set()
    for kind, read in mails:
        language = LANGUAGE_OF[read["Content-Language"] or "en"]
        languages.add(language)
        shown = kinds.preview(language, kind)
        assert shown and first_line(read) == shown, kind
        assert preheader(read) == shown, kind
    assert languages == set(LANGUAGES)
    subjects = {kind: str(read["Subject"]) for kind, read in mails}
    assert subjects["sign_in"] == "[Chasqui] Your sign-in link"
    assert subjects["invitation"] == "[Chasqui] Olga invites you to play Incan Gold"
    assert subjects["join"] == "[Chasqui] Confirm your seat in Incan Gold"

    for language in LANGUAGES:
        page = client.get(f"/mailbox/?lang={language}").get_data(as_text=True)
        listed = re.findall(r'<tr><td>\d+</td>.*?<td class="mail-kind">(.*?)</td>', page, re.S)
        assert len(listed) == len(mails)
        expected = [translate(language, kinds.label(kind)) for kind, _ in reversed(mails)]
        assert [html.unescape(re.sub(r"<[^>]+>", "", cell)) for cell in listed] == expected
    assert "<strong>your turn</strong>" in client.get("/mailbox/?lang=en").get_data(as_text=True)


def shown_kind(page: str) -> str | None:
    """The kind a mail's page in the local mailbox names, as its reader sees it."""
    found = re.search(r'<p class="mail-kind">.*?<strong>(.*?)</strong>', page, re.S)
    return html.unescape(found.group(1)) if found else None


def test_the_page_of_one_mail_names_its_kind_as_the_list_does(app, client, clock, new_game):
    data, secrets = new_game(players=3)
    for secret in secrets:  # everyone stays: a turn mail each
        client.post(f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": 1})
    with services(app).db.unit_of_work() as session:  # a mail no outbox row sent: no kind
        session.add(LocalMailRow(message_id="<stray@chasqui.test>", to_addr="x@example.com",
                                 subject="stray", raw="Subject: stray\n\nhello\n",
                                 created_at=clock()))
    stored = stored_mails(app)
    assert {kind for _, kind, _ in stored} == {"start", "turn", None}
    for language in LANGUAGES:
        for mail_id, kind, _ in stored:
            page = client.get(f"/mailbox/{mail_id}?lang={language}")
            assert page.status_code == 200
            wanted = translate(language, kinds.label(kind)) if kind else None
            assert shown_kind(page.get_data(as_text=True)) == wanted, (language, kind)
    turn = next(mail_id for mail_id, kind, _ in stored if kind == "turn")
    for language, words in (("en", "your turn"), ("zh_Hans", "轮到你"), ("ja", "あなたの手番")):
        assert shown_kind(client.get(f"/mailbox/{turn}?lang={language}").get_data(as_text=True)) \
            == words


def test_the_admins_pause_mail_names_its_kind(app, client, clock, admin_headers):
    from service.application.admin_auth import create_admin
    from service.mail.mailer import deliver, due_ids
    from tests.service.test_time import HOUR, sweep

    body = {"game": "incan_gold", "seed": 1,
            "clock": {"timeout_policy": "pause", "per_decision_hours": 24, "vacation_days": 0},
            "players": [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(3)]}
    assert client.post("/api/games", json=body, headers=admin_headers).status_code == 201
    svc = services(app)
    with svc.db.unit_of_work() as session:
        create_admin(session, "site@example.com", "a long enough password", clock(), site=True)
    clock.advance(25 * HOUR)
    sweep(app, clock)
    clock.advance(timedelta(minutes=2))
    with app.app_context():
        for mail_id in due_ids(svc.db, clock()):
            deliver(svc.db, svc.settings, mail_id, clock())
    [(kind, read)] = [(k, m) for k, m in mailbox_mails(app) if k == "admin_paused"]
    assert first_line(read) == preheader(read) == "Paused, waiting for an admin"
    assert "paused" in read["Subject"]
    assert "paused" in {k for k, _ in mailbox_mails(app)}, "the players were told as well"
