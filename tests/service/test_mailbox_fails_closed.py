"""The local mailbox (every player's hand and sign-in link) fails closed: served only for a
loopback base URL or when CHASQUI_LOCAL_MAILBOX=on says so; otherwise /mailbox/ is not there,
and mail that has nowhere to go waits in the outbox with its reason, never dropped, while
``chasqui config`` and the log warn the operator."""
from __future__ import annotations

import logging

import pytest
from sqlalchemy import select

from service.core.config import from_env, is_loopback_url
from service.store.models import LocalMailRow, OutboxRow
from service.web.extensions import services
from tests.conftest import ADMIN_TOKEN, make_settings, migrated_app

PLAYERS = [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(3)]


def app_at(tmp_path, clock, base_url: str, **settings):
    app = migrated_app(make_settings(tmp_path, CHASQUI_BASE_URL=base_url,
                                     CHASQUI_LOCAL_MAILBOX="", **settings), clock=clock)
    app.config["TESTING"] = True
    return app


def start_game(app) -> None:
    response = app.test_client().post(
        "/api/games", json={"game": "incan_gold", "seed": 7, "players": PLAYERS},
        headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert response.status_code == 201, response.get_json()


@pytest.mark.parametrize("url, loopback", [
    ("http://127.0.0.1:5000", True), ("http://127.8.9.1", True), ("http://localhost:8000", True),
    ("http://[::1]:5000", True), ("https://chasqui.example", False), ("http://10.0.0.5", False),
    ("http://127.0.0.1.nip.io", False), ("http://0.0.0.0:5000", False)])
def test_only_a_loopback_host_counts_as_this_machine(url, loopback):
    assert is_loopback_url(url) is loopback


def test_a_public_base_url_without_smtp_serves_no_mailbox_and_keeps_the_mail(
        tmp_path, clock, caplog):
    caplog.set_level(logging.WARNING)
    app = app_at(tmp_path, clock, "https://chasqui.example")
    assert "the local mailbox is closed" in caplog.text
    start_game(app)
    client = app.test_client()
    assert client.get("/mailbox/").status_code == 404
    assert client.get("/mailbox/1").status_code == 404
    assert "/mailbox/" not in client.get("/").get_data(as_text=True)
    with services(app).db.reading() as session:
        rows = list(session.scalars(select(OutboxRow)))
        stored = list(session.scalars(select(LocalMailRow)))
    assert rows and not stored, "no mail went to a mailbox nobody may read"
    assert all(row.status == "pending" for row in rows), "kept for when SMTP is set"
    assert all("no SMTP server is configured" in row.last_error for row in rows)


def test_config_warns_that_mail_has_nowhere_to_go(tmp_path, clock):
    app = app_at(tmp_path, clock, "https://chasqui.example")
    result = app.test_cli_runner().invoke(args=["chasqui", "config"])
    assert result.exit_code == 0
    assert "warning: no SMTP server is configured" in result.output
    assert "CHASQUI_LOCAL_MAILBOX = off" in result.output


@pytest.mark.parametrize("base_url, setting", [("http://127.0.0.1:5000", ""),
                                               ("http://localhost:5000", ""),
                                               ("https://chasqui.example", "on")])
def test_a_loopback_base_url_or_the_setting_serves_the_mailbox(tmp_path, clock, base_url,
                                                                setting):
    app = migrated_app(make_settings(tmp_path, CHASQUI_BASE_URL=base_url,
                                     CHASQUI_LOCAL_MAILBOX=setting), clock=clock)
    start_game(app)
    client = app.test_client()
    assert client.get("/mailbox/").status_code == 200
    with services(app).db.reading() as session:
        assert session.scalars(select(LocalMailRow)).first() is not None
    runner = app.test_cli_runner().invoke(args=["chasqui", "config"])
    assert "warning" not in runner.output


def test_smtp_configured_means_no_mailbox_whatever_the_setting():
    settings = from_env({"CHASQUI_SMTP_URL": "smtp://relay.example:25",
                         "CHASQUI_BASE_URL": "http://127.0.0.1:5000",
                         "CHASQUI_LOCAL_MAILBOX": "on", "CHASQUI_SECRET_KEY": "k"})
    assert not settings.serves_mailbox
