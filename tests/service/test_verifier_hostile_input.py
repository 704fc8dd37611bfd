"""Hostile input to ``/verify`` (the page and its JSON answer) and ``verify-record``: a lone
surrogate, a time whose UTC falls before year 1, huge integers, a wrong type anywhere.  Each
gets a verdict (200 with failed checks, or 400 when it is not a record): never a 500 or a
traceback, and the verifier never raises."""
from __future__ import annotations

import io
import json

import pytest

from service.store import fairness
from tests.service import record_kit as kit

WRONG_VALUES = [None, True, 0, -1, 10 ** 4000, 1.5, "", "x", "\ud800", [], [1], {}, {"a": 1}]
FREE = ("label", "seq_seen", "clock", "rules_version")  # no rule reads them
EVENT_KEYS = ["seq", "kind", "payload", "actor", "recorded_at", "prev_hash", "hash", "nonce"]


def lone_surrogate(r):
    r["events"][1]["payload"]["label"] = "\ud800"


def before_year_one_in_utc(r):
    r["events"][1]["recorded_at"] = "0001-01-01T00:00:00+05:00"


def huge_seq(r):
    r["events"][1]["seq"] = 10 ** 4000


def huge_seat(r):
    r["events"][1]["payload"]["seat"] = 10 ** 300


def events_not_a_list(r):
    r["events"] = {"1": r["events"][0]}


def players_not_a_list(r):
    r["events"][0]["payload"]["players"] = 7


def randomness_not_an_object(r):
    r["events"][0]["payload"]["randomness"] = "chasqui-seed-v2"


def seed_as_a_number(r):
    r["events"][-1]["payload"]["seed"] = 10 ** 100


def action_not_an_object(r):
    r["events"][1]["payload"]["action"] = [[[]]]


HOSTILE = [lone_surrogate, before_year_one_in_utc, huge_seq, huge_seat, events_not_a_list,
           players_not_a_list, randomness_not_an_object, seed_as_a_number, action_not_an_object]


def hostile_text(change) -> str:
    record = kit.copied(kit.hand_made_v3())
    change(record)
    return json.dumps(record)  # a lone surrogate travels as the escape \ud800


@pytest.mark.parametrize("change", HOSTILE, ids=lambda f: f.__name__)
def test_hostile_records_get_a_verdict_on_the_page_the_json_answer_and_the_cli(
        app, client, tmp_path, change):
    text = hostile_text(change)
    answer = client.post("/verify", data=text, content_type="application/json")
    assert answer.status_code in (200, 400) and answer.get_json()["ok"] is False
    page = client.post("/verify", data={"record": text})
    assert page.status_code in (200, 400) and "Not verified" in page.get_data(as_text=True)
    path = tmp_path / "record.json"
    path.write_text(text)
    result = app.test_cli_runner().invoke(args=["chasqui", "verify-record", str(path)])
    assert result.exit_code == 1 and "NOT verified" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


NOT_RECORDS = {
    "invalid_utf8_surrogate": b'{"format": "chasqui-record", "x": "\xed\xa0\x80"}',
    "integer_of_5000_digits": b'{"format": "chasqui-record", "version": ' + b"9" * 5000 + b"}",
    "nan": b'{"format": "chasqui-record", "version": NaN}',
    "beyond_a_float": b'{"format": "chasqui-record", "version": 1e999}',
    "nested_beyond_reason": b"[" * 100_000,
    "a_nul": b"\x00",
    "nothing": b"",
}


@pytest.mark.parametrize("body", NOT_RECORDS.values(), ids=list(NOT_RECORDS))
def test_what_is_not_a_record_answers_400_on_the_page_and_json_and_1_on_the_cli(
        app, client, tmp_path, body):
    answer = client.post("/verify", data=body, content_type="application/json")
    assert answer.status_code == 400 and answer.get_json()["ok"] is False
    page = client.post("/verify", data={"file": (io.BytesIO(body), "r.json")},
                       content_type="multipart/form-data")
    assert page.status_code == 400 and "Not verified" in page.get_data(as_text=True)
    path = tmp_path / "record.json"
    path.write_bytes(body)
    result = app.test_cli_runner().invoke(args=["chasqui", "verify-record", str(path)])
    assert result.exit_code == 1 and "NOT verified" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("key", EVENT_KEYS)
def test_a_wrong_value_in_any_field_of_an_event_fails_without_raising(key):
    record = kit.hand_made_v3()
    for index in (0, 1, len(record["events"]) - 1):
        for value in WRONG_VALUES:
            changed = kit.copied(record)
            changed["events"][index][key] = value
            assert not fairness.check_record(changed).ok


def test_any_value_in_any_payload_field_re_hashed_gets_a_verdict_never_an_exception():
    """What no rule reads (``FREE``) may hold anything; every other field is checked.  The
    verdict is made whatever the value, and always fits in a JSON answer."""
    record = kit.hand_made_v3()
    for index in (0, 1, len(record["events"]) - 1):
        for key, original in list(record["events"][index]["payload"].items()):
            for value in WRONG_VALUES:
                def change(r):
                    r["events"][index]["payload"][key] = value
                verdict = fairness.check_record(kit.forged(record, change))
                json.dumps(verdict.as_json())
                assert not verdict.ok or key in FREE or value == original, (key, value)


@pytest.mark.parametrize("key", ["format", "version", "game", "outcome", "events"])
def test_a_wrong_value_at_the_top_of_a_record_fails_without_raising(key):
    record = kit.hand_made_v3()
    for value in WRONG_VALUES:
        changed = kit.copied(record)
        changed[key] = value
        assert not fairness.check_record(changed).ok
    for value in WRONG_VALUES:
        changed = kit.copied(record)
        changed["game"] = {**record["game"], "id": value}
        assert not fairness.check_record(changed).ok
