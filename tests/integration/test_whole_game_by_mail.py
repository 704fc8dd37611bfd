"""End to end on the real parts: PostgreSQL (schema by Alembic from empty), Redis,
a Celery worker process, an SMTP server; four players play a whole Incan Gold game by
following the links in the mails they receive, and going on on the page a link opened while
it offers them a move (their mail about it waits for them to leave the page)."""
from __future__ import annotations

import html
import random
import re

import pytest
from sqlalchemy import inspect, text

from tests.integration.conftest import ADMIN
from service.web.extensions import services

pytestmark = pytest.mark.integration

LINK = re.compile(r"\[([A-Z]+)\] (.+)\n\s+(http://chasqui\.it(/play/\S+/a/(\d+)/\d+))")


def test_alembic_builds_the_schema_from_empty_with_the_immutability_trigger(app):
    engine = services(app).db.engine
    tables = set(inspect(engine).get_table_names())
    assert {"games", "seats", "events", "outbox", "local_mail", "alembic_version"} <= tables
    with engine.connect() as conn:
        triggers = conn.execute(text(
            "SELECT tgname FROM pg_trigger WHERE tgrelid = 'events'::regclass")).scalars().all()
    assert "events_immutable" in triggers


def newest_links(sink, address):
    """Action links of the newest mail this address received (label -> path)."""
    mails = sink.received(address)
    if not mails:
        return None, {}
    newest = mails[-1]
    body = newest.get_body(("plain",)).get_content()
    return newest, {label: path for _code, label, _url, path, _seq in LINK.findall(body)}


def click(client, path):
    """What a player does: open the link (a GET), then press the one button (a POST)."""
    page = client.get(path)
    assert page.status_code == 200, page.get_data(as_text=True)[:500]
    fields = dict(re.findall(r'name="(csrf_token|seq|action)" value="([^"]*)"', page.get_data(as_text=True)))
    response = client.post(path.rsplit("/a/", 1)[0] + "/move",
                           data={k: html.unescape(v) for k, v in fields.items()})
    assert response.status_code == 303
    flashed = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Done:" in flashed, flashed[:2000]
    return flashed


def go_on_on_the_page(client, page: str, choose) -> int:
    """A player who stays on the play page after their move and makes each move it offers
    them next (``choose``: label -> the form to press); returns how many they made."""
    moves = 0
    while True:
        forms = {html.unescape(label): dict(FIELD.findall(form)) for form, label in
                 MOVE_FORM.findall(page)}
        if not forms:
            return moves
        fields = {k: html.unescape(v) for k, v in choose(forms).items()}
        response = client.post(MOVE_PATH.search(page).group(0), data=fields)
        assert response.status_code == 303
        page = client.get(response.headers["Location"]).get_data(as_text=True)
        moves += 1


MOVE_PATH = re.compile(r"/play/[^\"/]+/move")
MOVE_FORM = re.compile(r'<form method="post" action="/play/[^"/]+/move"[^>]*>(.*?)'
                       r'<button type="submit"[^>]*>([^<]*)</button>', re.S)
FIELD = re.compile(r'name="(csrf_token|seq|action)" value="([^"]*)"')


def test_four_players_finish_a_game_by_following_mail_links(app, worker, smtp):
    client = app.test_client()
    players = [{"name": n, "email": f"{n.lower()}@example.org"} for n in ("Ana", "Ben", "Cai", "Dee")]
    created = client.post("/api/games", json={"game": "incan_gold", "seed": 2026, "players": players},
                          headers={"Authorization": f"Bearer {ADMIN}"})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    status_url = f"/api/games/{game_id}"
    admin = {"Authorization": f"Bearer {ADMIN}"}
    chooser = random.Random(7)
    handled: set[str] = set()
    moves = 0
    while True:
        status = client.get(status_url, headers=admin).get_json()
        if status["status"] == "finished":
            break
        assert moves < 400, "the game should have ended"
        for seat in status["to_act"]:
            address = players[seat]["email"]

            def fresh_mail():
                mail, links = newest_links(smtp.sink, address)
                return (mail, links) if mail is not None and mail["Message-ID"] not in handled and links else None

            mail, links = smtp.sink.wait_for(fresh_mail, what=f"a turn mail for {address}")
            handled.add(mail["Message-ID"])
            def label() -> str:
                return "Leave for camp" if chooser.random() < 0.35 else "Stay in the temple"
            page = click(client, links.get(label()) or next(iter(links.values())))
            moves += 1 + go_on_on_the_page(
                client, page, lambda forms: forms.get(label()) or next(iter(forms.values())))
            break  # re-read the status: the set of seats to act may have changed
    final = smtp.sink.wait_for(
        lambda: [m for m in smtp.sink.received() if m["Message-ID"].endswith(".game_over@chasqui.it>")]
        if len([m for m in smtp.sink.received() if ".game_over@" in m["Message-ID"]]) == 4 else None,
        what="four game-over mails")
    assert len(final) == 4
    assert status["outcome"]["winners"]
    # every mail of the game threads to that seat's start mail, and was sent exactly once
    for player in players:
        mails = smtp.sink.received(player["email"])
        root = mails[0]["Message-ID"]
        assert all(m["In-Reply-To"] == root for m in mails[1:])
        assert all(m["Subject"] == mails[0]["Subject"] for m in mails)
    assert all(len(raws) == 1 for raws in smtp.sink.raw_by_id.values())
    verify = app.test_cli_runner().invoke(args=["chasqui", "verify", game_id])
    assert verify.exit_code == 0 and "ok" in verify.output
