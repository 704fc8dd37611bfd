"""Who may enter /admin: login, sessions, CSRF, rate limit, game admins, the CLI.

Choice: a visitor who is not logged in is redirected to the login page from every admin page
and form; the admin JSON API answers 403; a logged-in admin of other games gets 403."""
from __future__ import annotations


from tests.conftest import make_settings, migrated_app
from tests.service.test_admin_support import (GAME_EMAIL, GAME_PASSWORD, SITE_EMAIL, actor_of,
                                              SITE_PASSWORD, csrf_token, events, login,
                                              make_admin, move, post_form, site_admin, svc)
from service.web.extensions import services


def admin_urls(app, game_id):
    """Every admin route with its parameters filled in, with the methods it answers."""
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/admin"):
            continue
        url = (rule.rule.replace("<game_id>", game_id).replace("<int:seq>", "1")
               .replace("<int:seat>", "0"))
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield rule.rule, url, method


def test_a_visitor_is_sent_to_login_from_every_page_and_gets_403_from_the_api(app, client, admin_headers, new_game):
    data, _ = new_game(players=3)
    seen = 0
    for rule, url, method in admin_urls(app, data["id"]):
        if rule in ("/admin/login", "/admin/logout"):
            continue
        response = client.open(url, method=method, json={} if "/api/" in rule else None)
        if rule.startswith("/admin/api"):
            assert response.status_code == 403, (method, url)
            assert "error" in response.get_json()
        elif method == "GET":
            assert response.status_code == 302, (method, url)
            assert "/admin/login?next=" in response.headers["Location"]
        else:  # a POST without a CSRF token is refused before anything else
            assert response.status_code in (302, 400), (method, url)
        seen += 1
    assert seen >= 20
    assert len(events(client, admin_headers, data["id"])) == 1


def test_a_visitor_with_a_csrf_token_is_still_sent_to_login_for_every_form(app, client, new_game):
    data, _ = new_game(players=3)
    token = csrf_token(client)
    for rule, url, method in admin_urls(app, data["id"]):
        if method == "POST" and not rule.startswith("/admin/api") and rule not in ("/admin/login", "/admin/logout"):
            response = client.post(url, data={"csrf_token": token, "to_seq": "1", "reason": "x"})
            assert response.status_code == 302 and "/admin/login" in response.headers["Location"], url


def test_api_refuses_a_wrong_bearer_token(client, new_game):
    data, _ = new_game(players=3)
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "test-admin-token"}):
        assert client.get(f"/admin/api/games/{data['id']}", headers=headers).status_code == 403
        assert client.get("/admin/api/games", headers=headers).status_code == 403


def test_login_with_a_wrong_password_is_refused(app, client):
    make_admin(app)
    response = client.post("/admin/login", data={"csrf_token": csrf_token(client),
                                                  "email": SITE_EMAIL, "password": "wrong"})
    assert response.status_code == 401 and "Wrong email or password" in response.get_data(as_text=True)
    assert client.get("/admin/").status_code == 302
    unknown = client.post("/admin/login", data={"csrf_token": csrf_token(client),
                                                "email": "nobody@x.org", "password": "wrong"})
    assert unknown.status_code == 401


def test_passwords_are_stored_as_scrypt_hashes(app):
    from sqlalchemy import select

    from service.store.models import AdminRow
    make_admin(app)
    with svc(app).db.reading() as session:
        row = session.scalars(select(AdminRow)).one()
    assert row.password_hash.startswith("scrypt:") and SITE_PASSWORD not in row.password_hash


def test_login_then_logout(app, client):
    make_admin(app)
    response = login(client)
    assert response.headers["Location"].endswith("/admin/")
    assert client.get("/admin/").status_code == 200
    client.post("/admin/logout", data={"csrf_token": csrf_token(client, "/admin/")})
    assert client.get("/admin/").status_code == 302


def test_login_returns_to_the_page_asked_for_but_never_to_another_site(app, client):
    make_admin(app)
    token = csrf_token(client)
    ok = client.post("/admin/login", data={"csrf_token": token, "email": SITE_EMAIL,
                                           "password": SITE_PASSWORD, "next": "/admin/?status=active"})
    assert ok.headers["Location"].endswith("/admin/?status=active")
    for evil in ("https://evil.example/", "//evil.example/x"):
        client.post("/admin/logout", data={"csrf_token": csrf_token(client, "/admin/")})
        response = client.post("/admin/login", data={"csrf_token": csrf_token(client), "email": SITE_EMAIL,
                                                      "password": SITE_PASSWORD, "next": evil})
        assert "evil" not in response.headers["Location"]


def test_session_cookie_is_httponly_samesite_lax_and_secure_on_https(tmp_path, clock):
    for base, secure in (("http://chasqui.test", False), ("https://chasqui.test", True)):
        folder = tmp_path / base.split(":")[0]
        folder.mkdir()
        app = migrated_app(make_settings(folder, CHASQUI_BASE_URL=base), clock=clock)
        make_admin(app)
        client = app.test_client()
        response = login(client)
        cookie = response.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
        assert ("Secure" in cookie) is secure
        services(app).db.dispose()


def test_forms_without_a_csrf_token_are_400_and_change_nothing(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    for path, fields in (("rollback", {"to_seq": "1", "reason": "x"}), ("pause", {}),
                         ("abandon", {"reason": "x"}), ("seats/0/bot", {}),
                         ("seats/0/replace", {"name": "Z", "email": "z@x.org"})):
        response = client.post(f"/admin/games/{data['id']}/{path}", data=fields)
        assert response.status_code == 400, path
        bad = client.post(f"/admin/games/{data['id']}/{path}", data={"csrf_token": "forged", **fields})
        assert bad.status_code == 400, path
    assert len(events(client, admin_headers, data["id"])) == 2
    assert client.post("/admin/login", data={"email": SITE_EMAIL, "password": SITE_PASSWORD}).status_code == 400
    assert client.post("/admin/import", data={"data": "{}"}).status_code == 400


def test_the_api_with_a_login_cookie_needs_the_csrf_header_for_changes(app, client, admin_headers, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    assert client.get(f"/admin/api/games/{data['id']}").status_code == 200
    body = {"to_seq": 1, "reason": "cookie"}
    refused = client.post(f"/admin/api/games/{data['id']}/rollback", json=body)
    assert refused.status_code == 400 and "CSRF" in refused.get_json()["error"]
    assert len(events(client, admin_headers, data["id"])) == 2
    token = csrf_token(client, "/admin/")
    done = client.post(f"/admin/api/games/{data['id']}/rollback", json=body,
                       headers={"X-CSRFToken": token})
    assert done.status_code == 200, done.get_json()
    assert events(client, admin_headers, data["id"])[-1]["actor"] == actor_of(app)


def test_login_is_rate_limited(app, client):
    make_admin(app)
    token = csrf_token(client)
    codes = [client.post("/admin/login", data={"csrf_token": token, "email": SITE_EMAIL,
                                               "password": f"guess {i}"}).status_code
             for i in range(7)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429, 429]
    right = client.post("/admin/login", data={"csrf_token": token, "email": SITE_EMAIL,
                                              "password": SITE_PASSWORD})
    assert right.status_code == 429, "even the right password waits out the limit"
    assert client.get("/admin/login").status_code == 200, "only POSTs are counted"


def test_a_game_admin_sees_only_their_own_games_and_only_public_information(app, client, new_game):
    mine, secrets = new_game(players=3)
    other, _ = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    make_admin(app, GAME_EMAIL, GAME_PASSWORD, games=[mine["id"]])
    login(client, GAME_EMAIL, GAME_PASSWORD)
    listing = client.get("/admin/").get_data(as_text=True)
    assert mine["id"] in listing and other["id"] not in listing
    assert client.get(f"/admin/games/{mine['id']}").status_code == 200
    assert client.get(f"/admin/games/{mine['id']}/at/2").status_code == 200
    for url in (f"/admin/games/{other['id']}", f"/admin/games/{other['id']}/at/1",
                f"/admin/games/{mine['id']}/at/2?seat=0", f"/admin/games/{mine['id']}/export"):
        assert client.get(url).status_code == 403, url
    assert post_form(client, mine["id"], "pause", reason="tea").status_code == 303
    token = csrf_token(client, f"/admin/games/{mine['id']}")
    assert client.post(f"/admin/games/{other['id']}/pause",
                       data={"csrf_token": token}).status_code == 403
    api = client.get("/admin/api/games").get_json()["games"]
    assert [g["id"] for g in api] == [mine["id"]]
    assert client.get(f"/admin/api/games/{other['id']}").status_code == 403
    assert client.get("/admin/api/games/no-such-game").status_code == 403
    assert client.get(f"/admin/api/games/{mine['id']}/at/2?seat=0").status_code == 403
    page = client.get(f"/admin/games/{mine['id']}").get_data(as_text=True)
    assert "Stay in the temple" not in page, "a move's label may name a secret choice"


def test_cli_create_admin_with_option_or_prompt(app):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["chasqui", "admin", "create", "Ops@Example.org", "--password", "long enough pw"])
    assert result.exit_code == 0, result.output
    assert "ops@example.org is a site admin" in result.output
    prompted = runner.invoke(args=["chasqui", "admin", "create", "two@example.org"],
                             input="another long pw\nanother long pw\n")
    assert prompted.exit_code == 0, prompted.output
    short = runner.invoke(args=["chasqui", "admin", "create", "three@example.org", "--password", "short"])
    assert short.exit_code != 0 and "at least" in short.output
    client = app.test_client()
    login(client, "ops@example.org", "long enough pw")
    assert client.get("/admin/").status_code == 200


def test_cli_create_admin_of_one_game(app, client, new_game):
    data, _ = new_game(players=3)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["chasqui", "admin", "create", GAME_EMAIL, "--password", GAME_PASSWORD,
                                 "--game", data["id"]])
    assert result.exit_code == 0 and f"admin of {data['id']}" in result.output
    assert runner.invoke(args=["chasqui", "admin", "create", "x@example.org", "--password",
                               GAME_PASSWORD, "--game", "nope"]).exit_code != 0
    login(client, GAME_EMAIL, GAME_PASSWORD)
    assert client.get(f"/admin/games/{data['id']}").status_code == 200
