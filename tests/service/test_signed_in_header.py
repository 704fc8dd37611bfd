"""Every page's header tells the truth about the session: "Sign in" to a visitor only; to
someone signed in -- an organiser by mail, an admin by password -- who they are, their pages
and a "Sign out" that is a POST.  And /admin never offers an organiser (who has no password)
a password form they cannot use: it says what the admin pages are for and where their own
pages are, and opens the admin pages of the games they organise when there are any."""
from __future__ import annotations

import re

from sqlalchemy import select

from service.store.models import PendingGameRow
from tests.service.test_admin_support import SITE_EMAIL, site_admin
from tests.service.test_organisers_support import (ORGANISER, PLAYERS, answer, create_game, csrf,
                                                   sign_in, svc)


def header(client, path: str) -> str:
    page = client.get(path)
    assert page.status_code in (200, 403), (path, page.status_code)
    return re.search(r"<header>.*?</header>", page.get_data(as_text=True), re.S).group(0)


def says_signed_in(head: str, name: str, *pages: str) -> bool:
    return (f"Signed in as {name}" in head and 'action="/signout"' in head and 'method="post"' in head
            and "Sign out" in head and 'href="/signin"' not in head
            and all(f'href="{page}"' in head for page in pages))


def player_page(client, new_game) -> str:
    _, secrets = new_game(players=3)
    return f"/play/{secrets[0]}"


def test_a_visitor_is_offered_sign_in_and_nothing_else(client, new_game):
    for path in ("/", "/lobby/", "/signin", "/admin/login", player_page(client, new_game)):
        head = header(client, path)
        assert 'href="/signin"' in head and "Sign out" not in head and "Signed in as" not in head, path


def test_an_organiser_sees_who_they_are_their_pages_and_sign_out_on_every_page(app, client, new_game):
    play = player_page(client, new_game)
    sign_in(client, app)
    for path in ("/", "/lobby/", "/organise/", "/organise/new", "/signin", play, "/admin/"):
        assert says_signed_in(header(client, path), ORGANISER, "/organise/"), path
    create_game(client)  # the form's name becomes the account's
    assert says_signed_in(header(client, "/"), "Olga", "/organise/")
    # the header's Sign out ends the session
    response = client.post("/signout", data={"csrf_token": csrf(client, "/")})
    assert response.status_code == 303
    head = header(client, "/")
    assert 'href="/signin"' in head and "Signed in as" not in head


def test_an_admin_logged_in_with_a_password_is_not_told_to_sign_in(app, client):
    site_admin(app, client)
    for path in ("/", "/lobby/", "/admin/"):
        assert says_signed_in(header(client, path), SITE_EMAIL, "/admin/"), path


def test_an_organiser_at_admin_is_told_what_it_is_for_without_a_password_form(app, client):
    sign_in(client, app)
    create_game(client)  # not started: no game to run yet
    page = client.get("/admin/")
    text = page.get_data(as_text=True)
    assert page.status_code == 403
    assert "for the people who run this Chasqui service" in text
    assert 'href="/organise/"' in text and 'type="password"' not in text
    assert "Open the admin pages of your games" not in text


def test_an_organiser_of_a_started_game_opens_its_admin_pages_from_admin(app, client):
    sign_in(client, app)  # signed in before the game started: no admin session yet
    create_game(client)
    for _, address in PLAYERS:
        answer(app, address)
    with svc(app).db.reading() as session:
        game_id = session.scalars(select(PendingGameRow.game_id)).one()
    offer = client.get(f"/admin/games/{game_id}")
    assert offer.status_code == 200 and "Open the admin pages of your games" in offer.get_data(as_text=True)
    response = client.post("/admin/enter", data={"csrf_token": csrf(client, "/"),
                                                 "next": f"/admin/games/{game_id}"})
    assert response.status_code == 303 and response.headers["Location"] == f"/admin/games/{game_id}"
    assert client.get(f"/admin/games/{game_id}").status_code == 200
    assert says_signed_in(header(client, "/"), "Olga", "/organise/", "/admin/")


def test_the_admin_login_offers_organisers_the_sign_in_by_mail(client):
    text = client.get("/admin/login?next=/admin/").get_data(as_text=True)
    assert 'href="/signin?next=/admin/"' in text and "Organisers have no password" in text
