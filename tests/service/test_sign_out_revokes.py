"""Signing out ends the session on the server: a copy of the cookie saved before /signout or
/admin/logout opens nothing afterwards -- not the organiser's pages, not /admin, not the
admin API -- and a new password ends every session of an admin account."""
from __future__ import annotations

from service.application import admin_link
from tests.service.test_admin_support import (GAME_EMAIL, GAME_PASSWORD, csrf_token, login,
                                              make_admin)
from tests.service.test_organisers_support import ORGANISER, csrf, sign_in, svc


def saved_cookie(client) -> str:
    return client.get_cookie("session").value


def replayed(app, value: str):
    """Another browser holding a copy of the cookie."""
    thief = app.test_client()
    thief.set_cookie("session", value)
    return thief


def organiser_admin_of(app, game_id: str) -> None:
    with svc(app).db.unit_of_work() as session:
        admin_link.make_game_admin(session, ORGANISER, game_id, svc(app).clock())


def test_a_cookie_saved_before_signing_out_opens_no_page_afterwards(app, client, new_game):
    data, _ = new_game(players=3)
    organiser_admin_of(app, data["id"])
    sign_in(client, app)
    saved = saved_cookie(client)
    copy = replayed(app, saved)
    assert copy.get("/organise/").status_code == 200
    assert copy.get(f"/admin/games/{data['id']}").status_code == 200
    assert client.post("/signout", data={"csrf_token": csrf(client, "/organise/")}).status_code == 303
    copy = replayed(app, saved)
    assert copy.get("/organise/").status_code == 302
    assert copy.get(f"/admin/games/{data['id']}").status_code == 302
    assert copy.get(f"/admin/api/games/{data['id']}").status_code == 403
    assert client.get("/organise/").status_code == 302


def test_a_cookie_saved_before_the_admin_logout_opens_no_page_afterwards(app, client, new_game):
    data, _ = new_game(players=3)
    organiser_admin_of(app, data["id"])
    sign_in(client, app)
    saved = saved_cookie(client)
    client.post("/admin/logout", data={"csrf_token": csrf_token(client, "/admin/")})
    copy = replayed(app, saved)
    assert copy.get("/admin/").status_code == 302
    assert copy.get("/admin/api/games").status_code == 403
    assert copy.get("/organise/").status_code == 302, "the same cookie's sign-in ends too"


def test_logging_out_ends_a_password_admins_sessions_in_every_browser(app, client, new_game):
    data, _ = new_game(players=3)
    make_admin(app, GAME_EMAIL, GAME_PASSWORD, games=[data["id"]])
    login(client, GAME_EMAIL, GAME_PASSWORD)
    other = app.test_client()
    login(other, GAME_EMAIL, GAME_PASSWORD)
    saved = saved_cookie(client)
    assert other.post("/admin/logout", data={"csrf_token": csrf_token(other, "/admin/")}).status_code == 303
    assert replayed(app, saved).get("/admin/").status_code == 302
    assert client.get("/admin/").status_code == 302, "logging out ends every session of the account"
    login(client, GAME_EMAIL, GAME_PASSWORD)
    assert client.get("/admin/").status_code == 200, "a new login works"


def test_a_stale_cookie_cannot_sign_out_a_newer_session(app, client, new_game):
    sign_in(client, app)
    saved = saved_cookie(client)
    client.post("/signout", data={"csrf_token": csrf(client, "/organise/")})
    sign_in(client, app)
    stale = replayed(app, saved)
    stale.post("/signout", data={"csrf_token": csrf(stale, "/signin")})
    assert client.get("/organise/").status_code == 200


def test_a_new_password_ends_every_session_of_the_admin(app, client, new_game):
    data, _ = new_game(players=3)
    make_admin(app, GAME_EMAIL, GAME_PASSWORD, games=[data["id"]])
    login(client, GAME_EMAIL, GAME_PASSWORD)
    make_admin(app, GAME_EMAIL, GAME_PASSWORD, games=[data["id"]])  # the same password again
    assert client.get("/admin/").status_code == 302
