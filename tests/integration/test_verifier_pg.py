"""The verifier on PostgreSQL: a finished game's record verifies with both verifiers, and
hostile records get a verdict (200 or 400), never a 500, as on SQLite."""
from __future__ import annotations

import json

import pytest

from service.store import fairness
from tests import independent_verifier
from tests.integration.test_move_one_read_one_write import app, clock  # noqa: F401  (fixtures)
from tests.service import record_kit as kit
from tests.service.test_verifier_hostile_input import HOSTILE, NOT_RECORDS, hostile_text

pytestmark = pytest.mark.integration


def test_a_bot_played_record_verifies_and_hostile_input_never_answers_500_on_postgresql(
        app, client, new_game):
    record = kit.bot_record(app, client, new_game, "incan_gold")
    assert fairness.check_record(record).ok
    assert independent_verifier.verify(record)[0]
    statuses = []
    for change in HOSTILE:
        text = hostile_text(change)
        statuses.append(client.post("/verify", data=text,
                                    content_type="application/json").status_code)
        statuses.append(client.post("/verify", data={"record": text}).status_code)
    for body in NOT_RECORDS.values():
        statuses.append(client.post("/verify", data=body,
                                    content_type="application/json").status_code)
    assert set(statuses) <= {200, 400} and statuses.count(500) == 0
    assert client.post("/verify", data=json.dumps(record),
                       content_type="application/json").get_json()["ok"]
