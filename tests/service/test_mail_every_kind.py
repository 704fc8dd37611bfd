"""Every mail of three games played to the end, and every kind of mail, in every language and
with odd player names: addressed to its one seat, threaded under the seat's start mail, in
the seat's language, a text and an HTML part, and built again byte for byte (a retried
delivery sends the very same mail; receivers dedupe on its Message-ID)."""
from __future__ import annotations

import shutil
from contextlib import contextmanager
from datetime import timedelta
from email import message_from_bytes, policy
from typing import NamedTuple

import flask
import pytest
from flask import Flask
from sqlalchemy import select

from service.mail.compose import boundary_for, build_message
from service.mail.message_ids import thread_root
from service.store import snapshots
from service.store.loading import load
from service.store.models import OutboxRow
from service.store.preferences import set_preference
from service.view.i18n import CONTENT_LANGUAGE
from service.web.app import create_app
from service.web.extensions import services
from tests.conftest import (ADMIN_TOKEN, FrozenClock, make_settings, migrated_app,
                            sharing_template_code)

ODD_NAMES = ['Zoë "Z" O\'Neil, Jr.', "张伟", "山田 太郎", "=?utf-8?q?x?= Eve", "A" * 80,
             "(Bob) <bob>", "Ana María de la Torre y Quiñones-Villanueva del Río Grande"]
LANGUAGES = ("en", "ja", "zh_Hans")
KINDS = ("start", "turn", "game_over", "timeout", "vacation_auto", "vacation_over", "talk",
         "reply_ok", "reply_error", "rollback", "undone", "seat", "paused", "resumed", "abandoned")


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


def play_corpus(app) -> list[str]:
    """Three games played to the end (or ``limit`` rounds), seats in three languages."""
    client, svc = app.test_client(), services(app)
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


class Corpus(NamedTuple):
    app: Flask
    games: list[str]


def played_once(settings) -> list[str]:
    """Play the corpus into the (new, migrated) database of ``settings``, then close it: the
    template the tests' databases are copied from.  Playing it (some 180 moves, each
    delivering its mails in-process) is what costs; every test gets its own copy."""
    snapshots.CACHE.clear()
    app = migrated_app(settings, clock=FrozenClock())
    app.config["TESTING"] = True
    try:
        return play_corpus(app)
    finally:
        services(app).db.dispose()
        snapshots.CACHE.clear()


@contextmanager
def corpus_app(settings, clock, games):
    """A test's app on its own copy of the played corpus (made by the caller at
    ``settings.database_url``), as ``app`` is made; closed afterwards."""
    app = sharing_template_code(create_app(settings, clock=clock))
    app.config["TESTING"] = True
    try:
        yield Corpus(app, games)
    finally:
        services(app).db.dispose()
        snapshots.CACHE.clear()


@pytest.fixture(scope="session")
def sqlite_corpus(tmp_path_factory):
    """The corpus played once per session on SQLite: (its closed database file, its games)."""
    folder = tmp_path_factory.mktemp("corpus")
    games = played_once(make_settings(folder))
    template = folder / "test.sqlite3"
    assert not template.with_name(template.name + "-wal").exists(), "the corpus is still open"
    return template, games


@pytest.fixture
def corpus(sqlite_corpus, tmp_path, clock):
    """An app on a fresh copy of the corpus database, and the corpus's games."""
    template, games = sqlite_corpus
    shutil.copyfile(template, tmp_path / "test.sqlite3")
    with corpus_app(make_settings(tmp_path), clock, games) as made:
        yield made


def corpus_mails(app, games):
    """(what, row, language, build) for every outbox row of the corpus in every language
    setting, then for every kind of mail, whether or not the games made one, for two seats of
    each game in every language: ``build()`` makes that mail."""
    svc = services(app)
    with app.app_context(), svc.db.reading() as session:
        rows = [r for r in session.scalars(select(OutboxRow).order_by(OutboxRow.id))
                if r.kind != "digest"]
        assert len(rows) > 30
        for row in rows:
            for language in (None, *LANGUAGES):
                yield (row.id, row.kind, language), row, language, lambda: build_message(
                    svc.settings, load(session, row.game_id, upto=row.seq), row, language)
    with app.app_context(), svc.db.unit_of_work() as session:
        for game_id in games:
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
                        yield (game_id, kind, seat, language), row, language, lambda: (
                            build_message(svc.settings, load(session, game_id, upto=2), row,
                                          language))


def test_every_mail_of_three_games_and_every_kind_reach_their_seat_in_its_thread_and_language(
        corpus):
    app, games = corpus
    domain = services(app).settings.mail_domain
    checked = 0
    for what, row, language, build in corpus_mails(app, games):
        message = build()
        wire = message.as_bytes()
        assert build().as_bytes() == wire, f"{what}: a retry would send other bytes"
        read = message_from_bytes(wire, policy=policy.default)  # as the recipient reads it
        assert [a.addr_spec for a in read["To"].addresses] == [row.to_addr], what
        assert read["Message-ID"] == row.message_id, what
        root = thread_root(row.game_id, row.seat, domain)
        threading = (read["In-Reply-To"], read["References"])
        assert threading == ((None, None) if row.message_id == root else (root, root)), what
        assert "\n" not in str(read["Subject"]), what
        if language is not None:
            assert read["Content-Language"] == CONTENT_LANGUAGE.get(language, "en"), what
        assert read.get_content_type() == "multipart/alternative", what
        assert read.get_boundary() == boundary_for(row.message_id), what
        assert [p.get_content_type() for p in read.iter_parts()] == ["text/plain", "text/html"]
        assert read.get_body(("plain",)).get_content().strip(), what
        checked += 1
    assert checked > 4 * 30 + len(games) * len(KINDS) * 2 * len(LANGUAGES)


def test_a_seats_name_reads_back_as_the_seat_wrote_it(app, client):
    svc = services(app)
    play_to_the_end(client, "incan_gold", ODD_NAMES[:3], 1, limit=1)
    with app.app_context(), svc.db.reading() as session:
        rows = list(session.scalars(select(OutboxRow).order_by(OutboxRow.id)))[:3]
        for seat, row in enumerate(rows):
            message = build_message(svc.settings, load(session, row.game_id, upto=row.seq), row,
                                    "ja")
            read = message_from_bytes(message.as_bytes(), policy=policy.default)
            [address] = read["To"].addresses
            assert (address.display_name, address.addr_spec) == (ODD_NAMES[seat], row.to_addr)
    assert "インカの黄金" in read.get_body(("plain",)).get_content()


def test_a_mail_built_inside_a_request_is_the_mail_a_worker_builds(corpus):
    """In-process delivery builds mail inside a web request, where the pages' context (the
    request, the session, the visitor's ``?lang=``) is at hand: none of it reaches a mail."""
    app = corpus.app
    svc = services(app)
    with app.app_context(), svc.db.reading() as session:
        rows = list(session.scalars(select(OutboxRow).order_by(OutboxRow.id)))[:12]
        in_worker = [build_message(svc.settings, load(session, r.game_id, upto=r.seq), r)
                     .as_bytes() for r in rows]
    with app.test_request_context("/?lang=ja"), svc.db.reading() as session:
        assert flask.request.args["lang"] == "ja"
        in_request = [build_message(svc.settings, load(session, r.game_id, upto=r.seq),
                                    session.merge(r)).as_bytes() for r in rows]
    assert in_request == in_worker
