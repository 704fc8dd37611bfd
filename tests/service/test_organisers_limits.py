"""Limits against abuse answer 429 with a clear message and change nothing."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy import func, select

from service.store.models import InvitationRow, PendingGameRow, SignInTokenRow
from service.web import limits
from service.web.limits import OWN_LIMIT
from tests.service.test_organisers_support import (PLAYERS, csrf, make_app, mails, new_game_form,
                                                   sign_in, svc)


def count(app, model) -> int:
    with svc(app).db.reading() as session:
        return session.scalar(select(func.count()).select_from(model))


def test_sign_in_mails_per_address_per_hour_are_counted_in_the_database(app, client, clock):
    token = csrf(client, "/signin")
    for _ in range(5):
        assert client.post("/signin", data={"csrf_token": token, "email": "ana@example.org"}).status_code == 200
    response = client.post("/signin", data={"csrf_token": token, "email": "ANA@example.org"})
    assert response.status_code == 429
    assert "limit is 5" in response.get_data(as_text=True)
    assert count(app, SignInTokenRow) == 5 and len(mails(app)) == 5
    # another address is not affected; the same one again after the hour
    assert client.post("/signin", data={"csrf_token": token, "email": "ben@example.org"}).status_code == 200
    clock.advance(timedelta(hours=1, seconds=1))
    assert client.post("/signin", data={"csrf_token": token, "email": "ana@example.org"}).status_code == 200


def test_invitations_per_organiser_per_day(tmp_path, clock):
    app = make_app(tmp_path, clock, CHASQUI_INVITES_PER_DAY="4")
    client = app.test_client()
    sign_in(client, app)
    token = csrf(client, "/organise/new")
    assert client.post("/organise/new", data=new_game_form(token)).status_code == 303  # 3 sent
    response = client.post("/organise/new", data=new_game_form(token, invitees=[
        ("Dee", "dee@example.org"), ("Eve", "eve@example.org")], count=3))
    assert response.status_code == 429
    assert "limit is 4" in response.get_data(as_text=True)
    assert count(app, PendingGameRow) == 1 and count(app, InvitationRow) == 4  # 3 + Olga's seat
    clock.advance(timedelta(days=1, seconds=1))
    assert client.post("/organise/new", data=new_game_form(token, invitees=[
        ("Dee", "dee@example.org"), ("Eve", "eve@example.org")], count=3)).status_code == 303


def test_the_sign_in_endpoint_is_rate_limited_per_client(app, client):
    token = csrf(client, "/signin")
    codes = [client.post("/signin", data={"csrf_token": token, "email": f"p{i}@example.org"}).status_code
             for i in range(11)]
    assert codes == [200] * 10 + [429]
    assert len(mails(app)) == 10


def test_every_endpoint_has_a_default_rate_limit(tmp_path, clock):
    app = make_app(tmp_path, clock, CHASQUI_RATE_LIMIT="3 per minute")
    client = app.test_client()
    codes = [client.get("/lobby/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    response = client.get("/lobby/")
    assert "Too many requests" in response.get_data(as_text=True)
    api = [client.get("/api/play/nope").status_code for _ in range(4)]
    assert api[-1] == 429 and "error" in client.get("/api/play/nope").get_json()
    assert all(client.get("/healthz").status_code == 200 for _ in range(5))  # health checks are exempt


def test_the_default_limit_can_be_switched_off(tmp_path, clock):
    app = make_app(tmp_path, clock, CHASQUI_RATE_LIMIT="off")
    client = app.test_client()
    assert all(client.get("/lobby/").status_code == 200 for _ in range(30))


def test_with_the_default_off_a_route_with_its_own_limit_is_still_limited(tmp_path, clock):
    """"off" switches the default off, not the sign-in's own limit (the limiter
    finds the default exempt for every request)."""
    app = make_app(tmp_path, clock, CHASQUI_RATE_LIMIT="off")
    client = app.test_client()
    token = csrf(client, "/signin")
    codes = [client.post("/signin", data={"csrf_token": token, "email": f"p{i}@example.org"}).status_code
             for i in range(11)]
    assert codes == [200] * 10 + [429]


def test_with_the_default_off_every_route_with_its_own_limit_is_still_limited(tmp_path, clock):
    """The limiter is skipped only for views that set no limit of their own (``own_limit``
    marks those that do): the verify page's POST, limited at 30 a minute, stays limited."""
    app = make_app(tmp_path, clock, CHASQUI_RATE_LIMIT="off")
    client = app.test_client()
    marked = [endpoint for endpoint, view in app.view_functions.items()
              if getattr(view, OWN_LIMIT, False)]
    assert len(marked) == 11, marked
    codes = [client.post("/verify", data={"record": "{}"}).status_code for _ in range(31)]
    assert 429 not in codes[:30] and codes[30] == 429
    assert all(client.get("/verify").status_code == 200 for _ in range(5)), "only POSTs count"


def test_no_view_sets_a_limit_the_off_switch_could_skip():
    """A view limited with ``limiter.limit`` directly would carry no mark, and with the default
    off ``nothing_to_limit`` would skip its limit: every route's own limit is ``own_limit``."""
    web = Path(limits.__file__).parent
    direct = [path.name for path in web.glob("*.py")
              if path.name != "limits.py" and "limiter.limit(" in path.read_text()]
    assert direct == []


def test_join_confirmations_count_against_the_address_limit(app, client):
    sign_in(client, app)
    token = csrf(client, "/organise/new")
    client.post("/organise/new", data=new_game_form(token, invitees=PLAYERS[:1], count=8, open="on"))
    with svc(app).db.reading() as session:
        pending_id = session.scalars(select(PendingGameRow.id)).one()
    visitor = app.test_client()
    vtoken = csrf(visitor, f"/lobby/{pending_id}")
    for _ in range(4):  # 4 sign-in mails to dee first
        visitor.post("/signin", data={"csrf_token": vtoken, "email": "dee@example.org"})
    assert visitor.post(f"/lobby/{pending_id}/join", data={
        "csrf_token": vtoken, "name": "Dee", "email": "dee@example.org"}).status_code == 200
    # the 6th unsolicited mail in the hour to dee is refused, whichever way it is asked for
    response = visitor.post("/signin", data={"csrf_token": vtoken, "email": "dee@example.org"})
    assert response.status_code == 429


def test_behind_a_trusted_proxy_limits_count_per_client(tmp_path, clock):
    app = make_app(tmp_path, clock, CHASQUI_RATE_LIMIT="2 per minute", CHASQUI_PROXY_HOPS="1")
    client = app.test_client()
    ana = {"X-Forwarded-For": "198.51.100.7"}
    ben = {"X-Forwarded-For": "198.51.100.8"}
    assert [client.get("/lobby/", headers=ana).status_code for _ in range(3)] == [200, 200, 429]
    assert client.get("/lobby/", headers=ben).status_code == 200
