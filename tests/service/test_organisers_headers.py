"""Security headers on every page (walks every GET route of the app)."""
from __future__ import annotations

import re

from tests.service.test_organisers_support import make_app


def get_urls(app):
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods:
            continue
        url = re.sub(r"<int:[^>]+>", "1", rule.rule)
        yield rule.rule, re.sub(r"<[^>]+>", "x", url)


def check(response, https: bool):
    headers = response.headers
    csp = headers.get("Content-Security-Policy", "")
    assert "frame-ancestors 'none'" in csp
    assert "default-src 'self'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert "style-src 'self' 'unsafe-inline'" in csp  # the templates' inline styles, the mail preview
    assert headers.get("X-Content-Type-Options") == "nosniff"
    assert headers.get("Referrer-Policy") == "same-origin"
    assert headers.get("X-Frame-Options") == "DENY"
    assert ("Strict-Transport-Security" in headers) is https


def test_every_get_route_has_the_security_headers(tmp_path, clock):
    app = make_app(tmp_path, clock, testing=False)  # a 500 is a response here, and still checked
    client = app.test_client()
    seen = 0
    for rule, url in get_urls(app):
        response = client.get(url)
        check(response, https=False)
        if rule.startswith(("/signin", "/organise", "/invite", "/lobby")):
            assert response.status_code < 500, (url, response.status_code)
        seen += 1
    assert seen >= 20


def test_hsts_only_over_https(tmp_path, clock):
    app = make_app(tmp_path, clock, CHASQUI_BASE_URL="https://chasqui.test")
    client = app.test_client()
    check(client.get("/", base_url="https://chasqui.test"), https=True)
    check(client.get("/", headers={"X-Forwarded-Proto": "https"}), https=True)  # behind the proxy
    check(client.get("/"), https=False)
    assert client.get("/signin", base_url="https://chasqui.test").status_code == 200  # no redirect


def test_the_session_cookie_is_secure_only_over_https(tmp_path, clock):
    app = make_app(tmp_path, clock, CHASQUI_BASE_URL="https://chasqui.test")
    cookie = app.test_client().get("/signin", base_url="https://chasqui.test").headers.get("Set-Cookie", "")
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    (tmp_path / "plain").mkdir()
    plain = make_app(tmp_path / "plain", clock)
    cookie = plain.test_client().get("/signin").headers.get("Set-Cookie", "")
    assert "HttpOnly" in cookie and "Secure" not in cookie


def test_a_security_header_a_view_set_itself_is_replaced_not_doubled(tmp_path, clock):
    """A fast path appends the headers; a response that already holds one of them
    (any case) still ends with the policy's one value, as ``Headers.update`` left it."""
    from flask import Response

    from service.web.limits import SECURITY_HEADERS, security_headers

    app = make_app(tmp_path, clock)
    with app.test_request_context("/"):
        plain = security_headers(Response("x"))
        own = security_headers(Response("x", headers={"x-frame-options": "SAMEORIGIN"}))
    assert [name for name, _ in plain.headers.items()][-len(SECURITY_HEADERS):] == list(SECURITY_HEADERS)
    assert own.headers.getlist("X-Frame-Options") == ["DENY"]
    assert all(own.headers.getlist(name) == [value] for name, value in SECURITY_HEADERS.items())
