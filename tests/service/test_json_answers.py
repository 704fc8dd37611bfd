"""The JSON answers and the JSON columns decoded with orjson mean what Flask's and
``json``'s did: same values, same key order, same bytes for ASCII text."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from flask import Flask
from flask.json.provider import DefaultJSONProvider
from hypothesis import given, settings
from hypothesis import strategies as st

from service.store.db import json_loads
from service.web.json_response import JSONResponses

ASCII = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=12)
SCALARS = st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1)


def json_values(text, scalars=SCALARS):
    return st.recursive(scalars | text, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(text, inner, max_size=4), max_leaves=20)


def both(value):
    """(Flask's own answer, ours) for ``value``, as bytes."""
    app = Flask(__name__)
    with app.app_context():
        before = DefaultJSONProvider(app).response(value).get_data()
        after = JSONResponses(app).response(value).get_data()
    return before, after


@settings(max_examples=200, deadline=None)
@given(json_values(ASCII))
def test_an_ascii_answer_is_the_same_bytes_as_flasks(value):
    before, after = both(value)
    assert after == before


@settings(max_examples=200, deadline=None)
@given(json_values(st.text(max_size=8),
                   SCALARS | st.floats(allow_nan=False, allow_infinity=False)))
def test_any_answer_decodes_to_the_same_value_with_the_same_key_order(value):
    before, after = both(value)
    assert json.loads(after) == json.loads(before)
    assert json.dumps(json.loads(after)) == json.dumps(json.loads(before))  # key order too


@dataclass
class Point:
    x: int


def test_what_json_has_no_type_for_is_encoded_as_flask_does():
    when = datetime(2026, 11, 30, 8, 0, tzinfo=timezone.utc)
    for value in ({"at": when}, {"point": Point(3)}, {"big": 2**70}, {1: "int key", 2: "x"}):
        before, after = both(value)
        assert after == before


def test_jsonify_of_no_several_or_keyword_arguments_answers_what_flask_answers():
    app = Flask(__name__)
    with app.app_context():
        for args, kwargs in [((), {}), ((1, "two", None), {}), ((), {"b": 1, "a": [2]})]:
            before = DefaultJSONProvider(app).response(*args, **kwargs)
            after = JSONResponses(app).response(*args, **kwargs)
            assert after.get_data() == before.get_data()
            assert after.mimetype == before.mimetype == "application/json"


def test_a_debug_app_still_answers_indented_json():
    app = Flask(__name__)
    app.debug = True
    with app.app_context():
        assert JSONResponses(app).response({"a": 1}).get_data() == b'{\n  "a": 1\n}\n'


@settings(max_examples=200, deadline=None)
@given(json_values(st.text(max_size=8), SCALARS | st.floats(allow_nan=False, allow_infinity=False)))
def test_a_json_column_decodes_to_what_json_loads_gives(value):
    text = json.dumps(value).encode()
    assert json_loads(text) == json.loads(text)


def test_a_seed_beyond_64_bits_still_decodes():
    """A game created with ``"seed": 2**70`` keeps loading (orjson refuses such integers)."""
    assert json_loads(b'{"seed": 1180591620717411303424}') == {"seed": 2**70}
