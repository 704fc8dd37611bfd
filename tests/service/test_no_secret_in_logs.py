"""No seat secret in a log line: a short game played over a real HTTP server (so werkzeug
writes its access log, as ``./chasqui run`` and the web process do) leaves no seat secret,
sign-in token, invitation, feed or spectator token in any record (service.core.redaction)."""
from __future__ import annotations

import json
import logging
import secrets as random_tokens
import threading
import urllib.error
import urllib.request

import pytest
from werkzeug.serving import make_server

from service.core.redaction import redact


@pytest.fixture
def served(app):
    server = make_server("127.0.0.1", 0, app, threaded=False)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def fetch(url: str, body: dict | None = None) -> None:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()
    except urllib.error.HTTPError as error:  # a made-up token answers 4xx: still logged
        assert error.code < 500, url


def test_a_short_game_over_http_logs_no_secret_of_any_kind(new_game, served, caplog):
    caplog.set_level(logging.INFO)
    data, seats = new_game(players=3)
    tokens = [random_tokens.token_urlsafe(24) for _ in range(7)]
    for path in (f"/signin/{tokens[0]}", f"/invite/{tokens[1]}", f"/feeds/{tokens[2]}.atom",
                 f"/calendar/{tokens[3]}.ics", f"/me/{tokens[4]}", f"/watch/{tokens[5]}",
                 f"/seat-offer/{tokens[6]}"):
        fetch(served + path)
    for _round in range(2):
        for secret in seats:
            fetch(f"{served}/play/{secret}")
            seq = None
            with urllib.request.urlopen(f"{served}/api/play/{secret}", timeout=30) as answer:
                seq = json.loads(answer.read())["seq"]
            fetch(f"{served}/api/play/{secret}", {"action": {"type": "stay"}, "seq": seq})
    access = [r for r in caplog.records if r.name == "werkzeug"]
    assert len(access) >= 20, "the server wrote its access log"
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "/play/[redacted]" in logged
    for secret in [*seats, *tokens]:
        assert secret not in logged


def test_a_reply_address_token_is_redacted_but_an_ordinary_address_is_kept():
    line = "mail to play+6162-1-0123456789abcdef0123@chasqui.test from ana@example.org"
    assert redact(line) == "mail to play+[redacted]@chasqui.test from ana@example.org"


def test_gunicorns_access_line_loses_the_secret_in_its_path_and_referer(app, caplog):
    """As the Procfile's web process logs (``--access-logfile -``): a format with dict atoms."""
    caplog.set_level(logging.INFO)
    secret = random_tokens.token_urlsafe(30)
    logging.getLogger("gunicorn.access").info(
        '%(h)s "%(r)s" %(s)s "%(f)s"',
        {"h": "10.0.0.1", "r": f"POST /play/{secret}/move HTTP/1.1", "s": "303",
         "f": f"https://chasqui.example/play/{secret}"})
    assert secret not in caplog.text
    assert '"POST /play/[redacted]/move HTTP/1.1" 303 "https://chasqui.example/play/[redacted]"' \
        in caplog.text


def test_a_traceback_quoting_a_link_is_redacted_too(app, caplog):
    secret = random_tokens.token_urlsafe(30)
    try:
        raise RuntimeError(f"could not render https://chasqui.example/play/{secret}/move")
    except RuntimeError:
        logging.getLogger("werkzeug").exception("a request failed")
    assert "/play/[redacted]/move" in caplog.text and secret not in caplog.text
