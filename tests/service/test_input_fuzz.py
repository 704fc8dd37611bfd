"""Every entry point, fed poison by hypothesis: names and addresses with control characters,
lists of addresses, numbers that are huge, negative or not finite, options of the wrong type,
bodies nested thousands deep or holding NaN or a NUL.  Each answer is a 4xx, and no table of
the database has a row more (or less) afterwards.  Deterministic: ``derandomize=True``,
``database=None``."""
from __future__ import annotations

import json
import string

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import select

from service.store.models import InvitationRow, PendingGameRow
from tests.service.test_input_support import (ADMIN, CONTROLS, api_body, csrf_of, fresh_client,
                                              from_new_address, rows)
from tests.service.test_organisers_support import (PLAYERS, answer, create_game, csrf,
                                                   new_game_form, sign_in, svc)

FUZZ = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

WORD = st.text(string.ascii_letters, min_size=1, max_size=8)
CONTROL = st.sampled_from(CONTROLS)
# --- names: a control character inside, too long, or empty -----------------------------------
NAMES = st.one_of(st.builds(lambda a, c, b: a + c + b, WORD, CONTROL, WORD),
                  st.integers(81, 300).map(lambda n: "N" * n),
                  st.sampled_from(["", "   "]))
JSON_NAMES = st.one_of(NAMES, st.sampled_from([None, 42, 1.5, [], {"name": "Ana"}, True]))
# --- addresses: two in one, a display name, a control character, too long, no address --------
ADDRESSES = st.one_of(
    st.builds(lambda a, b, sep: f"{a}@example.org{sep}{b}@example.net", WORD, WORD,
              st.sampled_from([",", ", ", ";", " , "])),
    st.builds(lambda n, a: f"{n} <{a}@example.org>", WORD, WORD),
    st.builds(lambda a, c, b: f"{a}{c}{b}@example.org", WORD, CONTROL, WORD),
    st.builds(lambda a, c: f"{a}@example.org{c}Bcc: eve@example.org", WORD, CONTROL),
    st.integers(255, 400).map(lambda n: "x" * n + "@example.org"),
    st.sampled_from(["", "nobody", "@example.org", "ana@", "ana@@example.org"]))
JSON_ADDRESSES = st.one_of(ADDRESSES, st.sampled_from([None, 7, ["a@example.org"], {}]))
# --- numbers outside every clock bound (the widest is 8760), or not numbers ------------------
BAD_NUMBERS = st.one_of(st.floats(min_value=10_000, allow_nan=False, allow_infinity=False),
                        st.floats(max_value=-0.001, allow_nan=False, allow_infinity=False),
                        st.integers(min_value=10_000), st.integers(max_value=-1),
                        st.sampled_from(["12", "nan", None, True, False, [], {}, [24]]))
BAD_REMINDERS = st.one_of(BAD_NUMBERS.map(lambda bad: [24, bad]),
                          st.lists(st.floats(1, 100), min_size=11, max_size=20),
                          st.sampled_from([24, "24, 2", {"h": 24}, None]))
BAD_SEEDS = st.one_of(st.integers(max_value=-1), st.integers(min_value=2**256),
                      st.floats(0.1, 1e6).filter(lambda x: x != int(x)),
                      st.sampled_from(["42", True, False, [], {}, [1]]))
BAD_OPTIONS = st.one_of(
    st.builds(lambda v: {"artifacts": v}, st.one_of(
        st.dictionaries(WORD, st.integers(), max_size=3), st.lists(st.integers(), max_size=3),
        st.integers(), st.none(), st.booleans(), WORD.filter(lambda w: w not in ("classic",)))),
    st.builds(lambda k: {k: 1}, WORD.filter(lambda w: w not in ("artifacts", "mail"))),
    st.builds(lambda v: {"mail": v}, st.one_of(st.integers(), st.just({"accept_any_sender": 1}),
                                               st.just({"x": True}))),
    st.sampled_from([[], "classic", 7, ["artifacts"]]))
# --- whole bodies: nested too deep, NaN and Infinity, a NUL, not UTF-8 ------------------------
# (depths from just past the bound to past any stack: hypothesis itself raises the recursion
# limit while a test runs, so only the deepest ones crash an unbounded parser here)
DEPTHS = st.one_of(st.integers(33, 100), st.sampled_from([2_000, 12_000]))
DEEP_BODIES = st.one_of(
    st.one_of(DEPTHS, st.just(60_000)).map(lambda n: "[" * n),
    DEPTHS.map(lambda n: '{"a":' * n),
    st.integers(33, 300).map(lambda n: '{"action": ' + "[" * n + "]" * n + ', "seq": 1}'),
    st.integers(33, 300).map(lambda n: json.dumps(api_body())[:-1] + ', "options": '
                             + "{\"a\": " * n + "1" + "}" * n + "}"))
ODD_BODIES = st.sampled_from(['{"game": "incan_gold", "seed": NaN}', '{"seed": Infinity}',
                              '{"seed": -Infinity}', '{"seed": 1e999}', '{"action": NaN, "seq": 1}',
                              '{"players": [{"name": "\\u0000", "email": "a@x.org"}]}',
                              '{"seed": 1' + "0" * 5000 + "}", "\xff\xfe", "{", ""])
# --- form numbers: not finite, out of bounds, or not numbers ---------------------------------
FORM_NUMBERS = st.sampled_from(["nan", "NaN", "inf", "-inf", "Infinity", "1e999", "1e9", "-5",
                                "100000", "abc", "1,5", "12\x00", "0x10", "9" * 400])
FORM_REMINDERS = st.sampled_from(["12, nan", "inf", "1e9", "-1", "x", "12;;abc", "0",
                                  ", ".join(str(h) for h in range(1, 12))])
TALK = st.one_of(st.builds(lambda a, c, b: a + c + b, WORD,
                           CONTROL.filter(lambda c: c not in ("\n", "\t", "\r\n")), WORD),
                 st.integers(2001, 6000).map(lambda n: "x" * n))


def assert_refused_and_nothing_stored(app, before, response, what):
    assert 400 <= response.status_code < 500, (what, response.status_code,
                                               response.get_data(as_text=True)[:300])
    assert rows(app) == before, what


# --- the JSON API -------------------------------------------------------------------------------

API_FIELDS = st.one_of(
    st.tuples(st.just("name"), st.integers(0, 2), JSON_NAMES),
    st.tuples(st.just("email"), st.integers(0, 2), JSON_ADDRESSES),
    st.tuples(st.just("seed"), st.just(0), BAD_SEEDS),
    st.tuples(st.just("options"), st.just(0), BAD_OPTIONS),
    st.tuples(st.sampled_from(["per_decision_hours", "bank_max_hours", "vacation_days",
                               "vacation_period_days"]), st.just(0), BAD_NUMBERS),
    st.tuples(st.just("reminder_hours"), st.just(0), BAD_REMINDERS))


def poisoned_api_body(field: str, index: int, value) -> dict:
    body = api_body()
    if field in ("name", "email"):
        body["players"][index][field] = value
    elif field in ("seed", "options"):
        body[field] = value
    else:
        body["clock"] = {field: value}
    return body


@FUZZ
@given(case=st.one_of(API_FIELDS.map(lambda f: json.dumps(poisoned_api_body(*f))),
                      DEEP_BODIES, ODD_BODIES))
def test_creating_a_game_by_the_api_refuses_every_poison(app, client, case):
    before = rows(app)
    response = client.post("/api/games", data=case, content_type="application/json", headers=ADMIN)
    assert_refused_and_nothing_stored(app, before, response, case[:200])
    assert "error" in response.get_json()


@pytest.fixture
def api_secrets(app, client):
    response = client.post("/api/games", json=api_body(), headers=ADMIN)
    return [url.rsplit("/", 1)[-1] for url in (s["play_url"] for s in response.get_json()["seats"])]


MOVES = st.one_of(
    st.builds(lambda seq: {"action": {"type": "stay"}, "seq": seq},
              st.one_of(BAD_NUMBERS, st.floats(1.5, 3.5).filter(lambda x: x != int(x)))),
    st.builds(lambda action: {"action": action, "seq": 1},
              st.one_of(JSON_NAMES, BAD_OPTIONS, st.builds(lambda c: {"type": "stay" + c}, CONTROL))))


@FUZZ
@given(case=st.one_of(MOVES.map(json.dumps), DEEP_BODIES, ODD_BODIES), seat=st.integers(0, 2),
       path=st.sampled_from(["/api/play/{}", "/admin/api/games/{}/undo"]))
def test_a_move_by_the_api_refuses_every_poison(app, client, api_secrets, case, seat, path):
    before = rows(app)
    response = client.post(path.format(api_secrets[seat]), data=case,
                           content_type="application/json", headers=ADMIN)
    assert_refused_and_nothing_stored(app, before, response, case[:200])


# --- the organiser's pages, the lobby, signing in -----------------------------------------------

@pytest.fixture
def organiser(app, client):
    sign_in(client, app)
    return client


FORM_FIELDS = st.one_of(
    st.tuples(st.sampled_from(["organiser_name", "name_0", "name_1", "name_2"]), NAMES),
    st.tuples(st.sampled_from(["email_0", "email_1", "email_2"]), ADDRESSES),
    st.tuples(st.sampled_from(["per_decision_hours", "bank_max_hours", "vacation_days"]), FORM_NUMBERS),
    st.tuples(st.just("reminder_hours"), FORM_REMINDERS),
    st.tuples(st.just("option_incan_gold_artifacts"), WORD.filter(lambda w: w != "classic")),
    st.tuples(st.just("players"), st.sampled_from(["nan", "1e9", "-3", "9" * 5000, "4\x00"])))


@FUZZ
@given(field=FORM_FIELDS)
def test_the_new_game_form_refuses_every_poison(app, organiser, field):
    name, value = field
    before = rows(app)
    response = from_new_address(organiser).post("/organise/new", data=new_game_form(
        csrf(organiser, "/organise/new"), **{name: value}))
    assert_refused_and_nothing_stored(app, before, response, field)
    # a NUL is refused at the edge for every form (service.web.request_checks), any other
    # poison by the field's own rule, on the form itself
    expected = "NUL" if "\x00" in value else "Nothing was sent"
    assert expected in response.get_data(as_text=True)


@pytest.fixture
def declined(app, organiser):
    pending_id = create_game(organiser)
    assert answer(app, "ben@example.org", accept=False).status_code == 200
    with svc(app).db.reading() as session:
        ben = session.scalars(select(InvitationRow).where(InvitationRow.email == "ben@example.org")).one()
    return pending_id, ben.id


@FUZZ
@given(person=st.one_of(st.tuples(NAMES, st.just("dee@example.org")),
                        st.tuples(st.just("Dee"), ADDRESSES)))
def test_replacing_an_invitee_refuses_every_poison(app, organiser, declined, person):
    pending_id, invitation_id = declined
    before = rows(app)
    page = f"/organise/games/{pending_id}"
    response = from_new_address(organiser).post(f"{page}/invitations/{invitation_id}/replace", data={
        "csrf_token": csrf(organiser, page), "name": person[0], "email": person[1]})
    assert_refused_and_nothing_stored(app, before, response, person)


@pytest.fixture
def open_game(app, organiser):
    organiser.post("/organise/new", data=new_game_form(
        csrf(organiser, "/organise/new"), invitees=PLAYERS[:1], count=4, open="on"))
    with svc(app).db.reading() as session:
        return session.scalars(select(PendingGameRow.id).where(PendingGameRow.open.is_(True))).one()


@FUZZ
@given(person=st.one_of(st.tuples(NAMES, st.just("dee@example.org")),
                        st.tuples(st.just("Dee"), ADDRESSES)))
def test_joining_from_the_lobby_refuses_every_poison(app, open_game, person):
    visitor = fresh_client(app)
    before = rows(app)
    response = visitor.post(f"/lobby/{open_game}/join", data={
        "csrf_token": csrf(visitor, "/signin"), "name": person[0], "email": person[1]})
    assert_refused_and_nothing_stored(app, before, response, person)


@FUZZ
@given(address=ADDRESSES)
def test_signing_in_refuses_every_poison(app, address):
    visitor = fresh_client(app)
    before = rows(app)
    response = visitor.post("/signin", data={"csrf_token": csrf(visitor, "/signin"), "email": address})
    assert_refused_and_nothing_stored(app, before, response, address)


# --- the play page's forms, and any path or query ----------------------------------------------

@FUZZ
@given(text=TALK, seat=st.integers(0, 2))
def test_table_talk_refuses_every_poison(app, client, api_secrets, text, seat):
    page = client.get(f"/play/{api_secrets[seat]}").get_data(as_text=True)
    before = rows(app)
    response = client.post(f"/play/{api_secrets[seat]}/talk",
                           data={"text": text, "csrf_token": csrf_of(page)})
    assert_refused_and_nothing_stored(app, before, response, text[:80])
    assert "Sent to the table" not in response.get_data(as_text=True)


PATHS = ["/lobby/{}", "/play/{}", "/play/{}/a/1/0", "/invite/{}", "/signin/{}", "/api/play/{}",
         "/api/games/{}", "/organise/games/{}", "/admin/games/{}", "/spectate/{}"]


@FUZZ
@given(path=st.sampled_from(PATHS), before_nul=WORD, after_nul=st.text(string.ascii_letters),
       in_query=st.booleans())
def test_a_nul_anywhere_in_the_address_is_refused(app, organiser, path, before_nul, after_nul,
                                                 in_query):
    poisoned = before_nul + "%00" + after_nul
    address = (path.format("x") + "?q=" + poisoned) if in_query else path.format(poisoned)
    before = rows(app)
    response = organiser.get(address, headers=ADMIN)
    assert response.status_code == 400, (address, response.status_code)
    assert rows(app) == before
