"""The record as published is what is checked: a key written twice in one object (which JSON
readers settle differently, the first or the last) fails, so no reader sees another game
than the verifier checked; whitespace and ``\\u`` escapes, which every reader reads alike,
change nothing."""
from __future__ import annotations

import json

from service.store import fairness
from tests.service import record_kit as kit


def twice(text: str, key: str, first_value: str) -> str:
    """``text`` with ``"key": first_value`` written before the first ``"key":`` it holds."""
    at = text.index(f'"{key}":')
    return text[:at] + f'"{key}":{first_value},' + text[at:]


def test_a_record_holding_a_key_twice_fails_its_shape_on_the_page_and_the_command_line(
        client):
    text = json.dumps(kit.hand_made_v3())
    assert fairness.check_text(text, 10 ** 7).ok
    said_twice = twice(text, "status", '"abandoned"')
    verdict = fairness.check_text(said_twice, 10 ** 7)
    assert not verdict.ok
    assert verdict.checks[0].name == "the record's shape" and "twice" in verdict.checks[0].detail
    answer = client.post("/verify", data=said_twice, content_type="application/json")
    assert answer.status_code == 400 and not answer.get_json()["ok"]
    assert "twice" in answer.get_json()["checks"][0]["detail"]


def test_a_record_with_mails_holding_a_key_twice_is_refused(client):
    text = twice(json.dumps(kit.hand_made_v3()), "status", '"abandoned"')
    body = '{"record":' + text + ',"witnesses":[]}'
    answer = client.post("/verify", data=body, content_type="application/json")
    assert answer.status_code == 400 and not answer.get_json()["ok"]
    assert "twice" in answer.get_json()["checks"][0]["detail"]


def test_a_record_written_with_spaces_and_escapes_verifies_as_the_compact_one():
    record = kit.hand_made_v3()
    spaced = json.dumps(record, indent=4, ensure_ascii=True)
    assert fairness.check_text(spaced, 10 ** 7).ok
