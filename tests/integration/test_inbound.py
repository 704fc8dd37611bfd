"""On the real parts: PostgreSQL, Redis, a Celery worker, an SMTP server, and the
inbound listener as the Procfile runs it (``python -m service.web.inbound_listener``).  Players
answer their mails by replying with a code, sent with smtplib to the listener's port."""
from __future__ import annotations

import os
import smtplib
import subprocess
import sys
import time
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from sqlalchemy import select

from service.mail import digest
from service.store.models import InboundMailRow
from service.store.preferences import set_preference
from tests.integration.conftest import ADMIN, ROOT
from tests.integration.smtp_sink import free_port
from service.web.extensions import services

pytestmark = pytest.mark.integration


@pytest.fixture
def inbound(env, tmp_path):
    port = free_port()
    log = tmp_path / "inbound.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "service.web.inbound_listener", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT, env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
        stdout=log.open("ab"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while "listening" not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError("listener did not start:\n" + log.read_text(errors="replace")[-3000:])
        time.sleep(0.1)
    yield port
    process.terminate()
    process.wait(20)


def reply(original, body: str, from_addr: str | None = None) -> EmailMessage:
    message = EmailMessage()
    message["From"] = from_addr or original["To"]
    message["To"] = original["Reply-To"]
    message["Subject"] = "Re: " + original["Subject"]
    message["Message-ID"] = make_msgid(domain="player.example")
    message["In-Reply-To"] = original["Message-ID"]
    message["References"] = " ".join(filter(None, [original["References"], original["Message-ID"]]))
    quoted = "\n".join("> " + line for line in original.get_body(("plain",)).get_content().splitlines())
    message.set_content(f"{body}\n\nOn Sun, 29 Nov 2026, Chasqui wrote:\n{quoted}\n")
    return message


def send(port: int, message: EmailMessage) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as client:
        client.send_message(message)


def test_replies_through_the_listener_move_the_game(app, worker, smtp, inbound):
    client = app.test_client()
    admin = {"Authorization": f"Bearer {ADMIN}"}
    players = [{"name": n, "email": f"{n.lower()}@example.org"} for n in ("Ana", "Ben", "Cai", "Dee")]
    created = client.post("/api/games", json={"game": "incan_gold", "seed": 7, "players": players},
                          headers=admin)
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    sink = smtp.sink
    starts = sink.wait_for(lambda: [sink.received(p["email"]) for p in players]
                           if all(sink.received(p["email"]) for p in players) else None,
                           what="start mails")
    forged = reply(starts[0][0], "B", from_addr="mallory@evil.example")
    send(inbound, forged)
    for mails in starts:
        send(inbound, reply(mails[0], "A\n\nstaying, of course"))
    status = client.get(f"/api/games/{game_id}", headers=admin).get_json()
    made = [e for e in status["events"] if e["kind"] == "MoveMade"]
    assert [(e["payload"]["seat"], e["payload"]["action"]) for e in made] == [
        (s, {"type": "stay"}) for s in range(4)], "the forged B made no move"
    for p in players:  # a confirmation and the next decision's turn mail, by the worker
        got = sink.wait_for(lambda: len(sink.received(p["email"])) >= 3 and sink.received(p["email"]),
                            what=f"confirmation and turn mail to {p['email']}")
        kinds = sorted(m["Message-ID"].split("@")[0].split(".")[3] for m in got)
        assert kinds == ["reply_ok", "start", "turn"], kinds
    assert not sink.received("mallory@evil.example")
    with services(app).db.reading() as session:
        statuses = sorted(session.scalars(select(InboundMailRow.status)))
    assert statuses == ["moved"] * 4 + ["refused"]


def test_the_daily_digest_is_delivered_by_the_worker(app, worker, smtp):
    client = app.test_client()
    admin = {"Authorization": f"Bearer {ADMIN}"}
    ids = []
    for seed in (1, 2):
        players = [{"name": n, "email": f"{n.lower()}@example.org"} for n in ("Ana", "Ben", "Cai")]
        created = client.post("/api/games", json={"game": "incan_gold", "seed": seed, "players": players},
                              headers=admin)
        ids.append(created.get_json()["id"])
    svc = services(app)
    with svc.db.unit_of_work() as session:
        for game_id in ids:
            set_preference(session, game_id, 0, svc.clock(), mode="digest")
    outbox = digest.plan(svc.db, svc.clock(), svc.settings.mail_domain)
    assert len(outbox) == 1 and digest.plan(svc.db, svc.clock(), svc.settings.mail_domain) == []
    svc.dispatch(outbox)
    sent = smtp.sink.wait_for(lambda: [m for m in smtp.sink.received("ana@example.org")
                                       if m["Message-ID"].startswith("<digest.")], what="digest")
    assert len(sent) == 1
    body = sent[0].get_body(("plain",)).get_content()
    assert body.count("[A] Stay in the temple") == 2


def test_the_beat_schedule_sends_digests(env):
    out = subprocess.run(
        [sys.executable, "-c", "from workers.celery_app import app; import workers.tasks; "
         "print(app.conf.beat_schedule['send-digests']['task'], 'chasqui.send_digests' in app.tasks)"],
        cwd=ROOT, env={**os.environ, **env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "chasqui.send_digests True", out.stderr[-2000:]


def test_the_listener_refuses_for_good_a_mail_it_can_never_use(app, smtp, inbound):
    """Over a real SMTP session on PostgreSQL: a charset that does not exist is a 554 at DATA,
    a reply address whose token names no game (a NUL) a 550 at RCPT; neither is recorded, so
    no sending server retries them."""
    unreadable = EmailMessage()
    unreadable["From"], unreadable["To"] = "ana@example.org", "play+616263-0-" + "0" * 20 + "@chasqui.it"
    unreadable["Subject"], unreadable["Message-ID"] = "Re: turn", make_msgid(domain="player.example")
    unreadable.set_content("A")
    raw = unreadable.as_bytes().replace(b'charset="utf-8"', b'charset="x-no-such-charset"')
    with smtplib.SMTP("127.0.0.1", inbound, timeout=60) as client:
        with pytest.raises(smtplib.SMTPDataError) as refused:
            client.sendmail("ana@example.org", [unreadable["To"]], raw)
        assert refused.value.smtp_code == 554
        with pytest.raises(smtplib.SMTPRecipientsRefused) as no_mailbox:
            client.sendmail("ana@example.org", ["play+00-0-" + "0" * 20 + "@chasqui.it"], b"A")
        assert [code for code, _ in no_mailbox.value.recipients.values()] == [550]
    with services(app).db.reading() as session:
        assert session.scalars(select(InboundMailRow)).first() is None
