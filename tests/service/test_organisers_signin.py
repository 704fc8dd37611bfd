"""Sign in by mail -- single use, 15 minutes, a POST button, no passwords."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from service.mail import mailer
from service.store.models import AccountMailRow, AccountRow, SignInTokenRow
from tests.service.test_organisers_support import ORGANISER, csrf, link_in, mails, sign_in, svc


def ask(client, address=ORGANISER):
    return client.post("/signin", data={"csrf_token": csrf(client, "/signin"), "email": address})


def test_a_reused_link_is_refused(app, client):
    ask(client)
    path = link_in(mails(app, ORGANISER)[-1], "signin")
    assert client.post(path, data={"csrf_token": csrf(client, path)}).status_code == 303
    other = app.test_client()
    token = csrf(other, "/signin")
    assert other.get(path).status_code == 410
    response = other.post(path, data={"csrf_token": token})
    assert response.status_code == 410 and "used already" in response.get_data(as_text=True)
    assert other.get("/organise/").status_code == 302  # the second browser is not signed in


def test_an_expired_link_is_refused(app, client, clock):
    ask(client)
    path = link_in(mails(app, ORGANISER)[-1], "signin")
    token = csrf(client, path)
    clock.advance(timedelta(minutes=15, seconds=1))
    assert client.get(path).status_code == 410
    response = client.post(path, data={"csrf_token": token})
    assert response.status_code == 410 and "expired" in response.get_data(as_text=True)
    assert client.get("/organise/").status_code == 302
    with svc(app).db.reading() as session:
        assert session.scalars(select(SignInTokenRow)).one().used_at is None
        assert session.scalars(select(AccountRow)).first() is None  # no account was made


def test_a_link_within_its_15_minutes_works(app, client, clock):
    ask(client)
    path = link_in(mails(app, ORGANISER)[-1], "signin")
    clock.advance(timedelta(minutes=14))
    assert client.post(path, data={"csrf_token": csrf(client, path)}).status_code == 303


def test_a_forged_or_mistyped_link_is_refused(app, client):
    ask(client)
    path = link_in(mails(app, ORGANISER)[-1], "signin")
    token = csrf(client, "/signin")
    for bad in (path[:-2] + "xx", "/signin/WzEsImFiYyJd.nope", "/signin/garbage"):
        assert client.get(bad).status_code == 403
        assert client.post(bad, data={"csrf_token": token}).status_code == 403


def test_using_the_link_needs_the_csrf_token(app, client):
    ask(client)
    path = link_in(mails(app, ORGANISER)[-1], "signin")
    assert client.post(path).status_code == 400
    with svc(app).db.reading() as session:
        assert session.scalars(select(SignInTokenRow)).one().used_at is None


def test_the_next_page_is_kept_but_only_on_this_site(app, client):
    client.get("/organise/new")
    token = csrf(client, "/signin?next=/organise/new")
    client.post("/signin", data={"csrf_token": token, "email": ORGANISER, "next": "/organise/new"})
    path = link_in(mails(app, ORGANISER)[-1], "signin")
    assert client.post(path, data={"csrf_token": csrf(client, path)}).headers["Location"] == "/organise/new"
    token = csrf(client, "/signin")  # signing in began a fresh session
    client.post("/signin", data={"csrf_token": token, "email": ORGANISER, "next": "//evil.example/x"})
    path = link_in(mails(app, ORGANISER)[-1], "signin")
    assert client.post(path, data={"csrf_token": csrf(client, path)}).headers["Location"] == "/organise/"


def test_a_bad_address_is_a_400_and_sends_nothing(app, client):
    for bad in ("", "nobody", "a@b", "x" * 300 + "@example.org", "ana@example.org\nBcc: x@y.z"):
        assert ask(client, bad).status_code == 400, bad
    assert mails(app) == []


def test_signing_out_ends_the_session(app, client):
    sign_in(client, app)
    assert client.get("/organise/").status_code == 200
    client.post("/signout", data={"csrf_token": csrf(client, "/organise/")})
    assert client.get("/organise/").status_code == 302


def test_a_redelivered_sign_in_mail_is_byte_identical(app, client):
    ask(client)
    with app.app_context(), svc(app).db.unit_of_work() as session:
        row = session.scalars(select(AccountMailRow)).one()
        first = mailer.build_message(session, svc(app).settings, row).as_bytes()
        again = mailer.build_message(session, svc(app).settings, row).as_bytes()
    assert first == again and row.status == "sent"
    assert mails(app)[0]["message_id"] == row.message_id
