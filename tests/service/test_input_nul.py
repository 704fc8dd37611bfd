"""A NUL in a path, a query or a JSON body is a 400 on SQLite and on PostgreSQL (which cannot
compare a text holding one, and raised a 500 at the first lookup), before any view runs."""
from __future__ import annotations

import json
import re

import pytest

from tests.conftest import make_settings, migrated_app
from tests.service.test_input_support import ADMIN, api_body, rows
from service.web.extensions import services

POISON = "abc\x00def"


@pytest.fixture(params=["sqlite", "postgresql"])
def any_app(request, tmp_path, clock):
    env = {}
    if request.param == "postgresql":
        env["CHASQUI_DATABASE_URL"] = request.getfixturevalue("postgres_url")
    app = migrated_app(make_settings(tmp_path, **env), clock=clock)
    app.config["TESTING"] = True
    yield app
    services(app).db.dispose()


def get_paths(app) -> list[str]:
    """Every GET route, each of its text parts holding a NUL (numbers stay numbers)."""
    paths = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or not rule.arguments:
            continue
        path = re.sub(r"<[^>]+>", "abc%00def", re.sub(r"<int:[^>]+>", "1", rule.rule))
        if "%00" in path:
            paths.append(path)
    return sorted(paths)


def test_a_nul_in_any_path_is_a_400_on_both_databases(any_app):
    client = any_app.test_client()
    before = rows(any_app)
    paths = get_paths(any_app)
    assert "/lobby/abc%00def" in paths and "/play/abc%00def" in paths and len(paths) > 15
    for path in paths:
        response = client.get(path, headers=ADMIN)
        assert response.status_code == 400, (path, response.status_code)
        if path.startswith("/api/"):
            assert "NUL" in response.get_json()["error"], path
        else:
            assert "NUL character" in response.get_data(as_text=True), path
    assert rows(any_app) == before


def test_a_nul_in_a_query_is_a_400_on_both_databases(any_app):
    client = any_app.test_client()
    for path in ("/lobby/?page=%00", "/signin?next=/organise/%00", "/api/openapi.json?x=a%00b"):
        assert client.get(path).status_code == 400, path


def test_a_nul_in_a_json_body_is_a_400_on_both_databases(any_app):
    client = any_app.test_client()
    before = rows(any_app)
    body = api_body()
    body["players"][0]["name"] = POISON
    response = client.post("/api/games", data=json.dumps(body), content_type="application/json",
                           headers=ADMIN)
    assert response.status_code == 400 and "NUL" in response.get_json()["error"]
    assert rows(any_app) == before


def test_a_nul_in_any_form_field_is_refused_at_the_edge_on_both_databases(any_app):
    from tests.service.test_organisers_support import csrf

    client = any_app.test_client()
    before = rows(any_app)
    response = client.post("/signin", data={"csrf_token": csrf(client, "/signin"), "email": POISON})
    assert response.status_code == 400 and "NUL" in response.get_data(as_text=True)
    assert rows(any_app) == before
    # fields no rule of their own covers (an admin's reason, a login) are refused the same way
    response = client.post("/admin/login", data={"csrf_token": csrf(client, "/admin/login"),
                                                 "email": "a@example.com", "password": POISON})
    assert response.status_code == 400 and "NUL" in response.get_data(as_text=True)
