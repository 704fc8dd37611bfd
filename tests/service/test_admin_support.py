"""Helpers shared by the admin tests.  No tests in here."""
from __future__ import annotations

import email
import html
import re
from email import policy

from sqlalchemy import select

from service.application.admin_auth import create_admin
from service.store.loading import load
from service.store.models import AdminRow, LocalMailRow, SeatRow
from service.web.extensions import services

SITE_EMAIL, SITE_PASSWORD = "root@example.org", "correct horse battery"
GAME_EMAIL, GAME_PASSWORD = "host@example.org", "host password 123"


def svc(app):
    return services(app)


def make_admin(app, email_address=SITE_EMAIL, password=SITE_PASSWORD, games=()):
    with svc(app).db.unit_of_work() as session:
        create_admin(session, email_address, password, svc(app).clock(), site=not games,
                     games=tuple(games))


def actor_of(app, email_address=SITE_EMAIL) -> str:
    """How events name the admin with this address: by id, never by address."""
    with svc(app).db.reading() as session:
        admin_id = session.scalars(select(AdminRow.id).where(AdminRow.email == email_address)).one()
    return f"admin:{admin_id}"


def token_in(page: str) -> str:
    return html.unescape(re.search(r'name="csrf_token" value="([^"]+)"', page).group(1))


def csrf_token(client, path="/admin/login") -> str:
    return token_in(client.get(path).get_data(as_text=True))


def login(client, email_address=SITE_EMAIL, password=SITE_PASSWORD):
    response = client.post("/admin/login", data={
        "csrf_token": csrf_token(client), "email": email_address, "password": password})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response


def site_admin(app, client):
    make_admin(app)
    login(client)
    return client


def post_form(client, game_id, path, **fields):
    """POST an admin form of the game page, with the page's CSRF token."""
    token = csrf_token(client, f"/admin/games/{game_id}")
    return client.post(f"/admin/games/{game_id}/{path}", data={"csrf_token": token, **fields})


def events(client, admin_headers, game_id):
    return client.get(f"/api/games/{game_id}", headers=admin_headers).get_json()["events"]


def seats(app, game_id):
    with svc(app).db.reading() as session:
        return list(session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                                    .order_by(SeatRow.seat)))


def mails(app, to=None):
    with svc(app).db.reading() as session:
        rows = list(session.scalars(select(LocalMailRow).order_by(LocalMailRow.id)))
    parsed = [email.message_from_string(r.raw, policy=policy.default) for r in rows]
    return [m for m in parsed if to is None or to in m["To"]]


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content()


def links_in(message) -> list[str]:
    return re.findall(r"http://chasqui\.test(/play/\S+/a/\d+/\d+)", text_of(message))


def move(client, secret, action, seq):
    return client.post(f"/api/play/{secret}", json={"action": {"type": action}, "seq": seq})


def offer_link(app, to: str) -> str:
    """The path of the newest seat offer mailed to ``to``."""
    texts = [text_of(m) for m in mails(app, to)]
    return [re.search(r"http://chasqui\.test(/seat-offer/\S+)", t).group(1)
            for t in texts if "/seat-offer/" in t][-1]


def accept_offer(app, to: str, answer: str = "accept"):
    """The newcomer opens the offer mailed to ``to`` in a browser of their own and answers."""
    newcomer = app.test_client()
    path = offer_link(app, to)
    page = newcomer.get(path).get_data(as_text=True)
    # an answered or ended offer's page has no buttons: take a token from another form
    token = token_in(page if 'name="csrf_token"' in page else newcomer.get("/signin").get_data(as_text=True))
    return newcomer.post(f"{path}/{answer}", data={"csrf_token": token})


def everyone_agrees(app, client, game_id, secrets):
    """Every seat held by a person agrees to the game's open rollback proposal, when the last
    rollback asked for one (it took back something shown: ``rollback_consent``)."""
    with svc(app).db.reading() as session:
        head = load(session, game_id).head
    if head.kind != "RollbackProposed":
        return
    for row in seats(app, game_id):
        if not row.bot:
            link = f"/play/{secrets[row.seat]}/rollback/{head.seq}"
            answer = client.post(link, data={"csrf_token": csrf_token(client, link), "agree": "1"})
            assert answer.status_code == 303, answer.get_data(as_text=True)
