"""The JSON API refuses poisoned input with a JSON 400 and stores nothing: control characters
in names, more than one address in an address field, numbers that are not finite or out of
bounds, options of the wrong type, and bodies nested too deep or holding a NUL."""
from __future__ import annotations

import json

import pytest

from tests.service.test_input_support import ADMIN, CONTROLS, api_body, rows


def post_game(client, body, raw: str | None = None):
    return client.post("/api/games", data=raw if raw is not None else json.dumps(body),
                       content_type="application/json", headers=ADMIN)


def assert_refused(response, *words):
    assert response.status_code == 400, (response.status_code, response.get_data(as_text=True)[:300])
    error = response.get_json()["error"]
    for word in words:
        assert word in error, error


@pytest.mark.parametrize("path", ["/api/play/anything", "/api/games", "/admin/api/games/x/undo"])
def test_a_body_nested_thousands_deep_is_a_json_400_not_a_crash(app, client, path):
    before = rows(app)
    for body in ("[" * 40_000, '{"a":' * 5_000, '{"action": ' + "[" * 33 + "]" * 33 + ', "seq": 1}'):
        response = client.post(path, data=body, content_type="application/json", headers=ADMIN)
        assert_refused(response, "nests deeper than 32 levels")
    assert rows(app) == before


def test_a_body_nested_within_the_bound_still_reaches_the_view(client, new_game):
    _, secrets = new_game()
    nested = {"type": "stay", "note": json.loads("[" * 30 + "]" * 30)}
    response = client.post(f"/api/play/{secrets[0]}", json={"action": nested, "seq": 1})
    assert response.status_code == 400 and "not" in response.get_json()["error"]  # the engine's answer


@pytest.mark.parametrize("raw", ['{"game": "incan_gold", "seed": NaN}', '{"seed": Infinity}',
                                 '{"seed": -Infinity}', '{"seed": 1e999}',
                                 '{"players": [{"name": "A\\u0000", "email": "a@x.org"}]}',
                                 '{"seed": 1' + "0" * 5000 + "}", "\xff\xfe"])
def test_nan_infinity_nul_and_numbers_beyond_a_float_are_refused_in_any_body(app, client, raw):
    before = rows(app)
    assert_refused(post_game(client, None, raw=raw))
    assert rows(app) == before


@pytest.mark.parametrize("control", CONTROLS)
def test_a_players_name_with_a_control_character_is_refused(app, client, control):
    before = rows(app)
    body = api_body()
    body["players"][1]["name"] = f"Ana{control}Bcc: eve@example.org"
    # a NUL is refused before the view, in any body (``request_checks``)
    assert_refused(post_game(client, body), "NUL" if control == "\x00" else "players[1]")
    assert rows(app) == before


def test_a_name_longer_than_80_characters_is_refused_not_cut(app, client):
    before = rows(app)
    body = api_body()
    body["players"][0]["name"] = "N" * 81
    assert_refused(post_game(client, body), "longer than 80 characters")
    assert rows(app) == before


@pytest.mark.parametrize("address", ["a@example.org, b@example.org", "a@example.org;b@example.org",
                                     "Ana <a@example.org>", "a\r@example.org",
                                     "a@example.org\r\nBcc: eve@example.org", "a\x00@example.org",
                                     "x" * 300 + "@example.org", "", 42, None])
def test_an_address_field_takes_exactly_one_address(app, client, address):
    before = rows(app)
    body = api_body()
    body["players"][2]["email"] = address
    assert_refused(post_game(client, body), "NUL" if "\x00" in str(address) else "players[2]")
    assert rows(app) == before


@pytest.mark.parametrize("seed", [-1, 2**256, 10**100, 1.5, "42", True, [], {}])
def test_a_seed_is_a_whole_number_of_at_most_256_bits(app, client, seed):
    before = rows(app)
    assert_refused(post_game(client, api_body(seed=seed)), "seed")
    assert rows(app) == before


def test_a_seed_of_256_bits_is_taken(client):
    assert post_game(client, api_body(seed=2**256 - 1)).status_code == 201


@pytest.mark.parametrize("given, words", [
    ({"per_decision_hours": 1e308}, "per_decision_hours"),
    ({"bank_max_hours": 10**30}, "bank_max_hours"),
    ({"vacation_days": 1_000_000_000}, "vacation_days must be between 0 and 365"),
    ({"vacation_days": 100, "vacation_period_days": 30}, "vacation_days cannot exceed"),
    ({"vacation_period_days": 10**6}, "vacation_period_days"),
    ({"reminder_hours": [1e300]}, "reminder_hours"),
    ({"reminder_hours": list(range(1, 12))}, "at most 10 reminders"),
    ({"per_decision_hours": "24"}, "per_decision_hours"),
    ({"weekend_pause": "yes"}, "weekend_pause"),
    ({"timeout_policy": {"x": 1}}, "timeout_policy"),
    ([], "clock must be a JSON object"),
])
def test_clock_settings_are_typed_finite_and_within_their_bounds(app, client, given, words):
    before = rows(app)
    assert_refused(post_game(client, api_body(clock=given)), words)
    assert rows(app) == before


@pytest.mark.parametrize("options", [{"artifacts": {"edition": "2018"}}, {"artifacts": ["2018"]},
                                     {"artifacts": 2018}, {"artifacts": None}, ["artifacts"],
                                     "classic", {"mail": {"accept_any_sender": 1}}])
def test_options_of_the_wrong_type_are_a_400(app, client, options):
    before = rows(app)
    assert_refused(post_game(client, api_body(options=options)))
    assert rows(app) == before


def test_a_move_whose_seq_or_action_is_poisoned_is_refused_and_records_nothing(app, client, new_game):
    _, secrets = new_game()
    before = rows(app)
    for body in ({"action": {"type": "stay"}, "seq": 1e300}, {"action": {"type": "stay"}, "seq": "1"},
                 {"action": {"type": "stay\x00"}, "seq": 1}, {"action": "stay", "seq": 1},
                 {"action": {"type": "stay"}, "seq": 10**40}):
        response = client.post(f"/api/play/{secrets[0]}", json=body)
        assert response.status_code in (400, 409), (body, response.status_code)
        assert "error" in response.get_json()
    assert rows(app) == before
