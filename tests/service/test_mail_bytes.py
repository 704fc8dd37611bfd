"""service/mail/mime.py makes a mail's MIME tree directly; the bytes must be those of the email
package's own way (``mime.reference_alternative``, what ``build_message`` did before), for
every kind of mail, every game, every language, odd player names and long headers."""
from __future__ import annotations

import io
import random
from datetime import datetime, timedelta, timezone
from email import contentmanager, policy as email_policy
from email.generator import BytesGenerator
from email.message import EmailMessage
from email.utils import format_datetime

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import select

from service.mail import mime
from service.store.loading import load
from service.mail.compose import MAIL_POLICY, build_message
from service.store.models import OutboxRow
from service.store.preferences import set_preference
from tests.conftest import ADMIN_TOKEN
from service.web.extensions import services

ODD_NAMES = ['Zoë "Z" O\'Neil, Jr.', "张伟", "山田 太郎", "=?utf-8?q?x?= Eve", "A" * 80,
             "(Bob) <bob>", "Ana María de la Torre y Quiñones-Villanueva del Río Grande"]
LANGUAGES = ("en", "ja", "zh_Hans")
KINDS = ("start", "turn", "game_over", "timeout", "vacation_auto", "vacation_over", "talk",
         "reply_ok", "reply_error", "rollback", "undone", "seat", "paused", "resumed", "abandoned")


def written(message) -> tuple:
    """Every way the mail is written: by smtplib (CRLF, and SMTPUTF8's utf8 policy), the
    local mailbox (as_string), as_bytes."""
    def smtp(policy) -> bytes:
        out = io.BytesIO()
        BytesGenerator(out, policy=policy).flatten(message, linesep="\r\n")
        return out.getvalue()
    return (smtp(None), smtp(message.policy.clone(utf8=True)), message.as_string(),
            message.as_bytes())


def both_ways(monkeypatch, build):
    """(direct, reference) writings of the mail ``build()`` makes."""
    direct = build()
    with monkeypatch.context() as patch:
        patch.setattr(mime, "alternative", mime.reference_alternative)
        reference = build()
    return written(direct), written(reference)


def play_to_the_end(client, game: str, names: list[str], seed: int, limit: int = 600) -> str:
    body = {"game": game, "seed": seed, "options": {},
            "players": [{"name": n, "email": f"p{i}@example.com"} for i, n in enumerate(names)]}
    response = client.post("/api/games", json=body,
                           headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert response.status_code == 201, response.get_json()
    data = response.get_json()
    secrets = [s["play_url"].rsplit("/play/", 1)[1] for s in data["seats"]]
    for _ in range(limit):
        moved = False
        for secret in secrets:
            state = client.get(f"/api/play/{secret}").get_json()
            if state["outcome"] is not None:
                return data["id"]
            if state["legal_actions"]:
                client.post(f"/api/play/{secret}",
                            json={"action": state["legal_actions"][-1], "seq": state["seq"]})
                moved = True
        assert moved, "nobody could move"
    return data["id"]


@pytest.fixture
def corpus(app, client):
    """Three games played to the end (or ``limit`` rounds), seats in three languages."""
    svc = services(app)
    games = []
    for game, names, seed in (("incan_gold", ODD_NAMES[:4], 3),
                              ("inca_empire", ODD_NAMES[3:6], 5),
                              ("machu_picchu", ODD_NAMES[5:7] + ["P"], 7)):
        game_id = play_to_the_end(client, game, names, seed,
                                  limit=60 if game == "machu_picchu" else 600)
        with svc.db.unit_of_work() as session:
            for seat in range(len(names)):
                set_preference(session, game_id, seat, svc.clock(),
                               language=LANGUAGES[seat % 3])
        games.append(game_id)
    return games


def corpus_mails(app, corpus):
    """(what, build) for every outbox row of the corpus in every language setting, then for
    every kind of mail, whether or not the games made one, for two seats of each game in
    every language: ``build()`` makes that mail (call it before taking the next)."""
    svc = services(app)
    with app.app_context(), svc.db.reading() as session:
        rows = [r for r in session.scalars(select(OutboxRow).order_by(OutboxRow.id))
                if r.kind != "digest"]
        assert len(rows) > 30
        for row in rows:
            for language in (None, *LANGUAGES):
                yield (row.id, row.kind, language), lambda: build_message(
                    svc.settings, load(session, row.game_id, upto=row.seq), row, language)
    with app.app_context(), svc.db.unit_of_work() as session:
        for game_id in corpus:
            for number, kind in enumerate(KINDS):
                for seat in range(2):
                    row = OutboxRow(game_id=game_id, seat=seat, kind=kind, seq=2,
                                    to_addr=f"p{seat}@example.com",
                                    message_id=f"<{game_id}.2.{seat}.{kind}.made@chasqui.test>",
                                    status="pending", attempts=0, next_attempt_at=svc.clock(),
                                    created_at=svc.clock() + timedelta(seconds=number))
                    session.add(row)
                    session.flush()
                    for language in LANGUAGES:
                        yield (game_id, kind, seat, language), lambda: build_message(
                            svc.settings, load(session, game_id, upto=2), row, language)


def test_every_mail_of_three_games_and_every_kind_are_written_as_the_email_package_writes_them(
        app, corpus, monkeypatch):
    compared = []
    for what, build in corpus_mails(app, corpus):
        direct, reference = both_ways(monkeypatch, build)
        assert direct == reference, what
        compared.append(what)
    rows = {what[0] for what in compared if len(what) == 3}  # (row id, kind, language)
    assert len(compared) == 4 * len(rows) + len(corpus) * len(KINDS) * 2 * len(LANGUAGES)


def test_a_mail_made_directly_reads_like_the_reference(app, client, monkeypatch):
    """What the callers and the tests ask of the message object: headers, parts, content."""
    svc = services(app)
    play_to_the_end(client, "incan_gold", ODD_NAMES[:3], 1, limit=1)

    def answers(message) -> tuple:
        parts = list(message.iter_parts())
        return (message["To"].addresses, str(message["Subject"]), message["Message-ID"],
                message["Date"].datetime, message["Content-Language"], message.get_boundary(),
                message.get_content_type(), [p.get_content_type() for p in parts],
                [p.get_content() for p in parts], [p["Content-Transfer-Encoding"].cte
                                                   for p in parts])
    with app.app_context(), svc.db.reading() as session:
        row = session.scalars(select(OutboxRow).order_by(OutboxRow.id)).first()
        loaded = load(session, row.game_id, upto=row.seq)
        direct = build_message(svc.settings, loaded, row, "ja")
        monkeypatch.setattr(mime, "alternative", mime.reference_alternative)
        reference = build_message(svc.settings, loaded, row, "ja")
    assert answers(direct) == answers(reference)
    assert direct["To"].addresses[-1].addr_spec == "p0@example.com"
    assert "インカの黄金" in direct.get_body(("plain",)).get_content()


# --- the shortcuts one by one, on made-up input ------------------------------------------------

VISIBLE = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=80)
ANY_TEXT = st.lists(st.sampled_from(
    list("abc xyz=\t.-_<>\"'(),;:@\\") + ["—", "·", "中", "日本", "é", "\x0b", "\x85", "\u2028",
                                          "\r", "\n", "=?utf-8?q?", "  ", " \n", "x" * 70]),
    max_size=80).map("".join)
WORD = st.text(st.sampled_from(list("AbZ09_-+.")), min_size=1, max_size=12)


def carries_a_boundary(boundary: str) -> bool:
    """Whether a Content-Type given ``boundary`` still has one when parsed.  One that parses
    empty (``"``, ``""``, ``"a"``, white space) is no boundary a mail can have: the email
    package's generator then writes a random boundary of its own, so neither way writes such
    a mail twice alike.  Chasqui's own boundaries are ``=_chasqui_`` and hex digits."""
    message = EmailMessage(policy=MAIL_POLICY)
    message["Content-Type"] = "multipart/alternative"
    try:
        message.set_boundary(boundary)
    except ValueError:  # no header can hold it: both ways must refuse it alike, so keep it
        return True
    return bool(message.get_boundary())


def reference_fold(name: str, value: str) -> str:
    return email_policy.default.header_factory(name, value).fold(policy=MAIL_POLICY)


@settings(max_examples=400, deadline=None)
@given(name=st.sampled_from(["Subject", "To", "From", "Reply-To", "Message-ID", "In-Reply-To",
                             "References", "X-Chasqui-Game", "List-Id", "Content-Language"]),
       value=st.one_of(
           VISIBLE, ANY_TEXT,
           st.builds(lambda n, a, d: f"{n} <{a}@{d}>", st.one_of(WORD, VISIBLE), WORD, WORD),
           st.builds(lambda a, d: f"<{a}@{d}>", WORD, WORD),
           st.builds(lambda a, d: f"{a}@{d}", WORD, WORD)))
def test_a_header_stored_as_its_source_is_written_as_its_parse_would_be(name, value):
    if mime.plain_header(MAIL_POLICY, name, value):
        assert reference_fold(name, value) == f"{name}: {value}\n"
        assert MAIL_POLICY.header_fetch_parse(name, value) == \
            email_policy.default.header_factory(name, value)


@settings(max_examples=200, deadline=None)
@given(moment=st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1),
                           timezones=st.sampled_from([timezone.utc, timezone(timedelta(hours=9)),
                                                      timezone(timedelta(hours=-5, minutes=-30))])))
def test_a_date_stored_as_its_source_is_written_as_its_parse_would_be(moment):
    value = format_datetime(moment)
    assert mime.plain_header(MAIL_POLICY, "Date", value)
    assert reference_fold("Date", value) == f"Date: {value}\n"
    wrong_day = ("Mon" if value[:3] != "Mon" else "Tue") + value[3:]
    assert not mime.plain_header(MAIL_POLICY, "Date", wrong_day)


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(ANY_TEXT, st.lists(ANY_TEXT, max_size=30).map("".join),
                      st.text(max_size=300)))
def test_text_is_encoded_as_the_content_manager_encodes_it(text):
    for policy in (MAIL_POLICY, email_policy.default):
        assert mime.encode_text(text, policy) == contentmanager._encode_text(
            text, "utf-8", None, policy)


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=400).map(lambda b: b.replace(b"\r", b"")),
       maxlen=st.integers(min_value=4, max_value=100))
def test_quoted_printable_is_body_encode(data, maxlen):
    from email import quoprimime
    assert mime.qp_body(data, maxlen) == quoprimime.body_encode(data.decode("latin-1"), maxlen)


@pytest.mark.parametrize("boundary", ['"', '""', '"a"', " ", "\t"])
def test_a_boundary_no_mail_can_carry_is_written_as_the_reference_writes_it(boundary):
    """What the made-up mails below leave out: both ways store the same Content-Type with no
    usable boundary, and given the same random draws the generator writes the same bytes."""
    def headers() -> mime.HeaderList:
        out = mime.HeaderList()
        out["Subject"] = "Your turn"
        out["To"] = "Ana <p0@example.com>"
        return out
    direct = mime.alternative(MAIL_POLICY, headers(), "text", "<p>html</p>", boundary, "en")
    reference = mime.reference_alternative(MAIL_POLICY, headers(), "text", "<p>html</p>",
                                           boundary, "en")
    assert not carries_a_boundary(boundary)
    assert direct["Content-Type"] == reference["Content-Type"]
    assert direct.get_boundary() == reference.get_boundary() == ""
    draws = random.getstate()
    direct_bytes = written(direct)
    random.setstate(draws)
    assert direct_bytes == written(reference)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.one_of(st.sampled_from(ODD_NAMES), VISIBLE, ANY_TEXT.filter(str.strip)),
       subject=st.one_of(VISIBLE, ANY_TEXT), text=ANY_TEXT, html=ANY_TEXT,
       boundary=st.one_of(st.text("0123456789abcdef", min_size=32, max_size=32).map(
           lambda h: "=_chasqui_" + h), st.text("abcXYZ019=_.-", min_size=1, max_size=70),
           st.text(min_size=1, max_size=20)).filter(carries_a_boundary),
       language=st.sampled_from(["en", "ja", "zh-Hans"]))
def test_a_made_up_mail_is_written_as_the_reference_writes_it(name, subject, text, html,
                                                              boundary, language):
    def headers() -> mime.HeaderList:
        out = mime.HeaderList()
        out["Subject"] = subject
        out["From"] = "Chasqui <chasqui@chasqui.test>"
        out["To"] = f"{name} <p0@example.com>"
        out["Message-ID"] = "<g-1.2.0.turn@chasqui.test>"
        out["Date"] = "Sun, 29 Nov 2026 12:00:00 +0000"
        out.set_raw("List-Unsubscribe", "<http://x/u>,\n <mailto:a@b?subject=unsubscribe>")
        return out

    def made(way):
        try:
            return written(way(MAIL_POLICY, headers(), text, html, boundary, language))
        except Exception as error:  # noqa: BLE001 - both ways must refuse the same input
            return type(error)
    assert made(mime.alternative) == made(mime.reference_alternative)
