"""An imported game keeps its id, which every page address, command line, record and webhook
post of the game carries: so an id is what this service makes (1 to 32 letters, digits, "-"
and "_"), and one holding a slash, a line break, an escape, a bidi control or markup is
refused with a 400 and nothing is written."""
from __future__ import annotations

import copy

import pytest
from sqlalchemy import func, select

from service.store.models import GameRow
from service.web.extensions import services
from tests.service.test_admin_audit import export_of
from tests.service.test_admin_support import move
from tests.service.test_chance_import import elsewhere, imported, rehashed  # noqa: F401

BAD_IDS = ["a/b", "..", "\x1b[31mred", "a\nb", "<!channel>", " ", "a?b#c", "\u202eevil",
           "%2e%2e", "ana game"]


@pytest.fixture
def exported(app, client, admin_headers, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    return export_of(client, admin_headers, data["id"])


def games_in(app) -> int:
    with services(app).db.reading() as session:
        return session.scalar(select(func.count()).select_from(GameRow))


@pytest.mark.parametrize("game_id", BAD_IDS)
def test_an_import_whose_game_id_is_not_url_safe_is_refused_and_writes_nothing(
        admin_headers, exported, elsewhere, game_id):
    forged = copy.deepcopy(exported)
    forged["game"]["id"] = game_id
    answer = imported(elsewhere, admin_headers, rehashed(forged, len(forged["events"])))
    assert answer.status_code == 400, answer.get_data(as_text=True)
    assert "letters, digits" in answer.get_json()["error"]
    assert games_in(elsewhere) == 0


def test_an_import_under_an_id_of_this_services_alphabet_is_accepted(
        admin_headers, exported, elsewhere):
    forged = copy.deepcopy(exported)
    forged["game"]["id"] = "Imported_game-1"
    answer = imported(elsewhere, admin_headers, rehashed(forged, len(forged["events"])))
    assert answer.status_code == 201, answer.get_data(as_text=True)
    assert games_in(elsewhere) == 1


BAD_NAMES = ["\x1b[31mred", "a\nb", "\u202eevil", "\x07bell"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_an_import_whose_player_names_hold_a_control_character_is_refused(
        admin_headers, exported, elsewhere, name):
    for where in ("seat", "GameCreated"):
        forged = copy.deepcopy(exported)
        if where == "seat":
            forged["seats"][0]["name"] = name
        else:
            forged["events"][0]["payload"]["players"][0] = name
        answer = imported(elsewhere, admin_headers, rehashed(forged, len(forged["events"])))
        assert answer.status_code == 400, (where, answer.get_data(as_text=True))
        assert "control character" in answer.get_json()["error"]
        assert games_in(elsewhere) == 0


def test_an_import_whose_seat_address_is_two_addresses_is_refused(
        admin_headers, exported, elsewhere):
    forged = copy.deepcopy(exported)
    forged["seats"][0]["email"] = "p0@example.com, eve@example.org"
    answer = imported(elsewhere, admin_headers, rehashed(forged, len(forged["events"])))
    assert answer.status_code == 400, answer.get_data(as_text=True)
    assert games_in(elsewhere) == 0
