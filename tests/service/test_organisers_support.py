"""Helpers shared by the organiser tests.  No tests in here."""
from __future__ import annotations

import email
import html
import re
from email import policy

from sqlalchemy import select

from service.store.models import LocalMailRow
from tests.conftest import make_settings, migrated_app
from service.web.extensions import services

ORGANISER = "olga@example.org"
PLAYERS = [("Ana", "ana@example.org"), ("Ben", "ben@example.org"), ("Cai", "cai@example.org")]


def svc(app):
    return services(app)


def make_app(tmp_path, clock, testing=True, **env):
    app = migrated_app(make_settings(tmp_path, **env), clock=clock)
    app.config["TESTING"] = testing
    return app


def csrf(client, path: str) -> str:
    page = client.get(path).get_data(as_text=True)
    return html.unescape(re.search(r'name="csrf_token" value="([^"]+)"', page).group(1))


def mails(app, to: str | None = None) -> list[dict]:
    """The local mailbox, oldest first: to, subject, message id, plain text."""
    with svc(app).db.reading() as session:
        query = select(LocalMailRow).order_by(LocalMailRow.id)
        if to:
            query = query.where(LocalMailRow.to_addr == to)
        rows = list(session.scalars(query))
    result = []
    for row in rows:
        message = email.message_from_string(row.raw, policy=policy.default)
        result.append({"to": row.to_addr, "subject": row.subject, "message_id": row.message_id,
                       "text": message.get_body(("plain",)).get_content(), "raw": row.raw})
    return result


def link_in(mail: dict, kind: str) -> str:
    """The path of the first /signin/… or /invite/… link in a mail's text."""
    return re.search(rf"https?://[^/\s]+(/{kind}/[^\s?]+)", mail["text"]).group(1)


def sign_in(client, app, address: str = ORGANISER) -> None:
    token = csrf(client, "/signin")
    response = client.post("/signin", data={"csrf_token": token, "email": address})
    assert response.status_code == 200, response.get_data(as_text=True)
    path = link_in(mails(app, address.lower())[-1], "signin")
    response = client.post(path, data={"csrf_token": csrf(client, path)})
    assert response.status_code == 303, response.get_data(as_text=True)


def new_game_form(token: str, invitees=PLAYERS, count: int | None = None, **overrides) -> dict:
    data = {"csrf_token": token, "game": "incan_gold", "players": str(count or len(invitees) + 1),
            "option_incan_gold_artifacts": "classic", "per_decision_hours": "24",
            "bank_max_hours": "72", "reminder_hours": "12, 2", "timeout_policy": "default",
            "weekend_pause": "on", "vacation_days": "7", "language": "en",
            "seat_order": "as_entered", "organiser_name": "Olga", "organiser_seat": "on"}
    for i, (name, address) in enumerate(invitees):
        data[f"name_{i}"], data[f"email_{i}"] = name, address
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def create_game(client, **kwargs) -> str:
    """Post the new-game form as the signed-in organiser; returns the pending game id."""
    response = client.post("/organise/new", data=new_game_form(csrf(client, "/organise/new"), **kwargs))
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[-1]


def answer(app, address: str, accept: bool = True, block: bool = False, mail_index: int = -1):
    """The invitee opens their invitation mail's link in a browser of their own and answers."""
    client = app.test_client()
    invitation = [m for m in mails(app, address) if "/invite/" in m["text"]][mail_index]
    path = link_in(invitation, "invite")
    landing = client.get(path).get_data(as_text=True)
    # an answered or expired invitation's page has no buttons: take a token from another form
    data = {"csrf_token": csrf(client, path if 'name="csrf_token"' in landing else "/signin")}
    if block:
        data["block"] = "on"
    return client.post(f"{path}/{'accept' if accept else 'decline'}", data=data)
