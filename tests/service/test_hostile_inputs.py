"""Every hostile input this file lists gets a 4xx (or the refusal its route gives every bad
form), never a 5xx, and changes nothing, on SQLite and on PostgreSQL: the list is the test.

Inbound mail the service can never use (a charset that does not exist, an X-Chasqui-Seq that
is not a plain number) is refused with a 400 and recorded nowhere; a reply address whose
token decodes to no game id (a NUL, an escape) is refused as every forged address is: recorded
and answered 200, so a forger learns nothing.  Numbers that arrive as text pass one rule
(``validation.whole_number``), JSON holding a lone surrogate is refused before any view reads
it, and an admin's reason passes the table talk's text rules."""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
import json
import uuid
from dataclasses import dataclass, field

import pytest
from aiosmtpd.smtp import Envelope
from sqlalchemy import func, select

from service.store.db import DatabaseFailure
from service.web.inbound_listener import InboundHandler

from service.mail.reply_address import reply_token
from service.store import preferences
from service.store.models import EventRow, InboundMailRow, SeatRow
from service.web.extensions import services
from tests.conftest import ADMIN_TOKEN, make_settings, migrated_app
from tests.service.test_admin_support import csrf_token, site_admin, token_in

INBOUND_TOKEN = "hostile-inbound-token"
HUGE = "99999999999999999999999"


@pytest.fixture
def pg_settings() -> dict:
    return {"CHASQUI_INBOUND_TOKEN": INBOUND_TOKEN}


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.integration)])
def app(request, tmp_path, clock):
    if request.param == "postgresql":
        yield request.getfixturevalue("pg_app")
        return
    app = migrated_app(make_settings(tmp_path, CHASQUI_INBOUND_TOKEN=INBOUND_TOKEN), clock=clock)
    app.config["TESTING"] = True
    yield app
    services(app).db.dispose()


@dataclass
class Table:
    """A running game, a site admin signed in on the client, and what the cases need."""
    app: object
    client: object
    game_id: str
    secrets: list[str]
    reply_token: str
    address_token: str
    api: dict = field(default_factory=lambda: {"Authorization": f"Bearer {ADMIN_TOKEN}"})

    def counts(self) -> tuple[int, int]:
        with services(self.app).db.reading() as session:
            return (session.scalar(select(func.count()).select_from(EventRow)),
                    session.scalar(select(func.count()).select_from(InboundMailRow)))


def play_a_round(client, secrets: list[str]) -> None:
    """Every seat stays once: the game has moves a rollback to seq 1 may undo."""
    for secret in secrets:
        seq = client.get(f"/api/play/{secret}").get_json()["seq"]
        answer = client.post(f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": seq})
        assert answer.status_code == 200, answer.get_json()


@pytest.fixture
def table(app, client, new_game):
    data, secrets = new_game(players=3)
    play_a_round(client, secrets)
    svc = services(app)
    with svc.db.reading() as session:
        nonce = session.get(SeatRow, (data["id"], 0)).nonce
    site_admin(app, client)
    return Table(app, client, data["id"], secrets,
                 reply_token(svc.settings.secret_key, data["id"], 0, nonce),
                 preferences.address_token(svc.settings.secret_key, "p0@example.com"))


# --- how each input is sent ---------------------------------------------------------------

def raw_mail(t: Table, token: str | None = None, charset: str = "utf-8",
             seq: str | None = None) -> bytes:
    """A reply from seat 0's address to its reply address (or ``token``'s), its first line
    "A", as a mail program would write it but for what the case changes."""
    lines = ["From: p0@example.com", f"To: play+{token or t.reply_token}@chasqui.test",
             "Subject: Re: your turn", f"Message-ID: <{uuid.uuid4().hex}@player.example>"]
    if seq is not None:
        lines.append(f"X-Chasqui-Seq: {seq}")
    lines += [f"Content-Type: text/plain; charset={charset}", "", "A", ""]
    return "\r\n".join(lines).encode()


def mail(t: Table, token: str | None = None, charset: str = "utf-8", seq: str | None = None,
         to: str | None = None):
    raw = raw_mail(t, token, charset, seq)
    query = "" if to is None else f"?to={to}"
    return t.client.post(f"/inbound/mail{query}", data=raw, content_type="message/rfc822",
                         headers={"X-Chasqui-Inbound-Token": INBOUND_TOKEN})


def api_json(t: Table, path: str, raw: bytes | dict):
    body = raw if isinstance(raw, bytes) else json.dumps(raw).encode()
    return t.client.post(f"/admin/api/games/{t.game_id}/{path}" if path != "import"
                         else "/admin/api/games/import", data=body,
                         content_type="application/json", headers=t.api)


def admin_form(t: Table, path: str, **fields):
    token = csrf_token(t.client, f"/admin/games/{t.game_id}")
    return t.client.post(f"/admin/games/{t.game_id}/{path}", data={"csrf_token": token, **fields})


def admin_import_form(t: Table, raw: str):
    token = csrf_token(t.client, "/admin/")
    return t.client.post("/admin/import", data={"csrf_token": token, "data": raw})


def play_form(t: Table, path: str, **fields):
    token = token_in(t.client.get(f"/play/{t.secrets[0]}").get_data(as_text=True))
    return t.client.post(f"/play/{t.secrets[0]}/{path}", data={"csrf_token": token, **fields})


def me_form(t: Table, **fields):
    token = token_in(t.client.get(f"/me/{t.address_token}").get_data(as_text=True))
    return t.client.post(f"/me/{t.address_token}/mode",
                         data={"csrf_token": token, "game_id": t.game_id, "mode": "off", **fields})


NUL_GAME_TOKEN = "00-0-" + "0" * 20
ESC_GAME_TOKEN = "1b5b316d-0-" + "0" * 20
SURROGATE_IMPORT = '{"format": "chasqui-game", "version": 1, "game": {"id": "x\\ud800"}}'
# (what is tried, how it is sent, the answer it gets: a status, or the status of a mail the
# webhook took, answered 200 -- "refused" is recorded as a forged address is)
CASES = [
    ("mail in a charset that does not exist", lambda t: mail(t, charset="x-no-such-charset"), 400),
    ("mail whose X-Chasqui-Seq is a superscript two", lambda t: mail(t, seq="²"), 400),
    ("mail whose X-Chasqui-Seq has 23 digits", lambda t: mail(t, seq=HUGE), 400),
    ("mail whose X-Chasqui-Seq is negative", lambda t: mail(t, seq="-1"), 400),
    ("mail to a reply token whose game id is a NUL",
     lambda t: mail(t, token=NUL_GAME_TOKEN), "refused"),
    ("mail to a reply token whose game id is an escape sequence",
     lambda t: mail(t, token=ESC_GAME_TOKEN), "refused"),
    ("mail to a reply token holding a raw NUL",
     lambda t: mail(t, token=t.reply_token[:6] + "\x00" + t.reply_token[6:]), "no-recipient"),
    ("mail whose ?to= holds %00", lambda t: mail(t, to="play%2B00%00@chasqui.test"), 400),
    ("API rollback reason with a lone surrogate",
     lambda t: api_json(t, "rollback", b'{"to_seq": 1, "reason": "\\ud800"}'), 400),
    ("API rollback reason with ESC",
     lambda t: api_json(t, "rollback", {"to_seq": 1, "reason": "oops \x1b[2J"}), 400),
    ("API rollback reason with BEL",
     lambda t: api_json(t, "rollback", {"to_seq": 1, "reason": "ding\x07"}), 400),
    ("API rollback reason with U+202E",
     lambda t: api_json(t, "rollback", {"to_seq": 1, "reason": "\u202etxt.exe"}), 400),
    ("API pause reason with ESC", lambda t: api_json(t, "pause", {"reason": "\x1b]0;x\x07"}), 400),
    ("API abandon reason with U+2066",
     lambda t: api_json(t, "abandon", {"reason": "\u2066isolated"}), 400),
    ("API abandon reason that is not text", lambda t: api_json(t, "abandon", {"reason": 7}), 400),
    ("page rollback reason with ESC",
     lambda t: admin_form(t, "rollback", to_seq="1", reason="\x1b[31mred"), 400),
    ("page pause reason with U+202E", lambda t: admin_form(t, "pause", reason="\u202eesrever"), 400),
    ("page abandon reason with BEL", lambda t: admin_form(t, "abandon", reason="bell\x07"), 400),
    ("page rollback to seq ²", lambda t: admin_form(t, "rollback", to_seq="²", reason="r"), 400),
    ("API seat offer to a name holding U+202E",
     lambda t: api_json(t, "seats/1/replace", {"name": "\u202eAna", "email": "ana@example.org"}),
     400),
    ("page seat offer to a name holding ESC",
     lambda t: admin_form(t, "seats/1/replace", name="Ana\x1b[8m", email="ana@example.org"), 400),
    ("API seat offer for seat 23 digits long",
     lambda t: api_json(t, f"seats/{HUGE}/replace", {"name": "Ana", "email": "ana@example.org"}),
     404),
    ("API seat=² of a past state",
     lambda t: t.client.get(f"/admin/api/games/{t.game_id}/at/1?seat=²", headers=t.api), 400),
    ("API seat of 23 digits of a past state",
     lambda t: t.client.get(f"/admin/api/games/{t.game_id}/at/1?seat={HUGE}", headers=t.api), 400),
    ("API seat=-1 of a past state",
     lambda t: t.client.get(f"/admin/api/games/{t.game_id}/at/1?seat=-1", headers=t.api), 400),
    ("page seat=² of a past state",
     lambda t: t.client.get(f"/admin/games/{t.game_id}/at/1?seat=²"), 400),
    ("API past state at a seq of 23 digits",
     lambda t: t.client.get(f"/admin/api/games/{t.game_id}/at/{HUGE}", headers=t.api), 404),
    ("API import holding a lone surrogate",
     lambda t: api_json(t, "import", SURROGATE_IMPORT.encode()), 400),
    ("page import holding a lone surrogate", lambda t: admin_import_form(t, SURROGATE_IMPORT), 400),
    ("mailbox mail of 23 digits", lambda t: t.client.get(f"/mailbox/{HUGE}"), 404),
    ("move form with seq ²", lambda t: play_form(t, "move", action='{"type": "stay"}', seq="²"), 400),
    ("move form with a seq of 23 digits",
     lambda t: play_form(t, "move", action='{"type": "stay"}', seq=HUGE), 400),
    ("undo form with seq ²", lambda t: play_form(t, "undo", seq="²"), 400),
    ("plan form with seq ²",
     lambda t: play_form(t, "plan", actions='[{"type": "stay"}]', seq="²"), 303),
    ("mail preference for a seat of 23 digits", lambda t: me_form(t, seat=HUGE), 400),
    ("mail preference for seat ²", lambda t: me_form(t, seat="²"), 400),
]


@pytest.mark.parametrize("send, status", [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_a_hostile_input_is_refused_with_a_4xx_and_changes_nothing(table, send, status):
    events, inbound = table.counts()
    response = send(table)
    if isinstance(status, str):  # a reply address that names no game: as a forged one
        assert (response.status_code, response.get_json()) == (200, {"status": status})
        inbound += status == "refused"
    else:
        assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert table.counts() == (events, inbound), "nothing changed"


@pytest.mark.parametrize("path, body", [
    ("rollback", {"to_seq": 1, "reason": "P1 pressed the wrong button"}),
    ("pause", {"reason": "Lunch\tbreak"}), ("abandon", {"reason": "We stop here.\nThanks!"})])
def test_the_same_admin_commands_with_a_plain_reason_are_done(table, path, body):
    """The refusals above are the reason's: the same command with words the talk rules take
    is done."""
    response = api_json(table, path, body)
    assert response.status_code == 200, response.get_json()


# --- the SMTP listener: a permanent refusal for what no retry can make usable ----------------

def answered(coroutine) -> str:
    """The listener's answer, awaited on a loop of its own in another thread: a test run may
    already hold a running loop in this one (the browser tests' driver leaves one)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def smtp_data(t: Table, raw: bytes) -> str:
    envelope = Envelope()
    envelope.mail_from, envelope.content, envelope.original_content = "p0@example.com", raw, raw
    envelope.rcpt_tos = [f"play+{t.reply_token}@chasqui.test"]
    return answered(InboundHandler(t.app).handle_DATA(None, None, envelope))


def smtp_rcpt(t: Table, token: str) -> str:
    envelope = Envelope()
    return answered(InboundHandler(t.app).handle_RCPT(None, None, envelope,
                                                      f"play+{token}@chasqui.test", []))


def failing(error: Exception):
    def handle(*_args, **_kwargs):
        raise error
    return handle


SMTP_CASES = [
    ("a charset that does not exist", lambda t: smtp_data(t, raw_mail(t, charset="x-nope")), "554"),
    ("X-Chasqui-Seq: ²", lambda t: smtp_data(t, raw_mail(t, seq="²")), "554"),
    ("a reply token whose game id is a NUL", lambda t: smtp_rcpt(t, NUL_GAME_TOKEN), "550"),
    ("a reply token whose game id is an escape", lambda t: smtp_rcpt(t, ESC_GAME_TOKEN), "550"),
    ("a seat's own reply token", lambda t: smtp_rcpt(t, t.reply_token), "250"),
    ("a reply that moves", lambda t: smtp_data(t, raw_mail(t)), "250"),
]


@pytest.mark.parametrize("send, code", [case[1:] for case in SMTP_CASES],
                         ids=[case[0] for case in SMTP_CASES])
def test_the_listener_refuses_for_good_what_it_can_never_use(table, send, code):
    assert send(table).startswith(code + " ")


def test_the_listener_asks_to_retry_only_when_the_database_failed(table, monkeypatch):
    from service.application import inbound

    monkeypatch.setattr(inbound, "handle", failing(DatabaseFailure("SELECT 1", {}, OSError())))
    assert smtp_data(table, raw_mail(table)).startswith("451 ")
    monkeypatch.setattr(inbound, "handle", failing(RuntimeError("a bug")))
    assert smtp_data(table, raw_mail(table)).startswith("554 "), "a retry would fail the same"


@pytest.mark.parametrize("text, value", [
    ("7", 7), (" 12 ", 12), ("0", 0), ("2147483647", 2147483647), ("²", None), ("٣", None),
    ("1_0", None), ("-1", None), ("+1", None), ("1e3", None), ("", None), (HUGE, None),
    ("2147483648", None), ("9" * 5000, None)])
def test_a_number_written_as_text_passes_one_rule(text, value):
    """``str.isdigit`` takes "²" and ``int`` takes "٣", "1_0" and " 7"; the shared rule takes
    ASCII digits alone, within a database's integer."""
    from service.core.validation import BadInput, whole_number

    if value is None:
        with pytest.raises(BadInput):
            whole_number(text, "seq")
    else:
        assert whole_number(text, "seq") == value
