"""The local mailbox answers a client on this machine only (unless CHASQUI_LOCAL_MAILBOX=on):
a server bound to every interface with no CHASQUI_BASE_URL (whose default is this machine's
address) and no SMTP, as a first deployment by the Procfile is, shows no stranger anyone's
mail."""
from __future__ import annotations

from tests.conftest import make_settings, migrated_app
from tests.service.test_mailbox_fails_closed import app_at, start_game

STRANGER = {"REMOTE_ADDR": "203.0.113.9"}


def test_a_loopback_base_url_shows_the_mailbox_to_this_machine_only(tmp_path, clock):
    app = app_at(tmp_path, clock, "http://127.0.0.1:5000")
    start_game(app)
    client = app.test_client()
    assert client.get("/mailbox/").status_code == 200
    assert client.get("/mailbox/1").status_code == 200
    assert client.get("/mailbox/", environ_base={"REMOTE_ADDR": "::1"}).status_code == 200
    assert client.get("/mailbox/", environ_base=STRANGER).status_code == 404
    assert client.get("/mailbox/1", environ_base=STRANGER).status_code == 404


def test_the_mailbox_turned_on_on_purpose_answers_every_client(tmp_path, clock):
    app = migrated_app(make_settings(tmp_path, CHASQUI_BASE_URL="https://chasqui.example",
                                     CHASQUI_LOCAL_MAILBOX="on"), clock=clock)
    start_game(app)
    assert app.test_client().get("/mailbox/", environ_base=STRANGER).status_code == 200
