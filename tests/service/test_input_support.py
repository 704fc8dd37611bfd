"""Helpers shared by the input tests (bad input is refused at every entry point and stores
nothing).  No tests in here."""
from __future__ import annotations

import html
import itertools
import re

from sqlalchemy import func, inspect, select, table

from tests.conftest import ADMIN_TOKEN
from service.web.extensions import services

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
# One of each kind of control character a name or an address must never carry.
CONTROLS = ["\x00", "\r", "\n", "\r\n", "\t", "\x07", "\x1b", "\x7f", "\x85", "\x9b",
            "\u202e", "\u2066", "\u200f", "\u2028", "\u2029"]
_clients = itertools.count(1)


def rows(app) -> dict[str, int]:
    """The number of rows in every table of the database (whatever migrations made them)."""
    db = services(app).db
    names = sorted(inspect(db.engine).get_table_names())
    with db.engine.connect() as connection:
        counts = connection.execute(select(*[
            select(func.count()).select_from(table(name)).scalar_subquery().label(name)
            for name in names])).one()
    return dict(zip(names, counts))


def from_new_address(client):
    """The client, from an address of its own from now on: the per-route rate limits (counted
    per client address) never answer for the validation a test is about."""
    n = next(_clients)
    client.environ_base["REMOTE_ADDR"] = f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"
    return client


def fresh_client(app):
    return from_new_address(app.test_client())


def csrf_of(page: str) -> str:
    return html.unescape(re.search(r'name="csrf_token" value="([^"]+)"', page).group(1))


def api_body(**overrides) -> dict:
    body = {"game": "incan_gold", "seed": 7,
            "players": [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(3)]}
    body.update(overrides)
    return body
