"""The OpenAPI 3.1 description at /api/openapi.json is valid, and the live API keeps
to it (schemathesis generates requests from it and checks every answer against it)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openapi_spec_validator import validate

from tests.integration.conftest import ADMIN
from tests.integration.test_faults import capture_dispatch, create_game

pytestmark = pytest.mark.integration


def test_the_description_is_served_and_is_valid_openapi_3_1(app):
    response = app.test_client().get("/api/openapi.json")
    assert response.status_code == 200 and response.is_json
    spec = response.get_json()
    assert spec["openapi"].startswith("3.1")
    validate(spec)  # raises OpenAPIValidationError with the path of the first problem


def test_every_api_route_is_described(app):
    spec = app.test_client().get("/api/openapi.json").get_json()
    described = {(path, method.upper()) for path, item in spec["paths"].items()
                 for method in item if method != "parameters"}
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") and not rule.rule.startswith("/api/admin"):
            path = rule.rule.replace("<", "{").replace(">", "}")
            path = path.replace("{int:", "{").replace("{path:", "{")
            routes |= {(path, m) for m in rule.methods - {"HEAD", "OPTIONS"}}
    assert routes <= described, routes - described


def test_schemathesis_finds_no_5xx_and_no_answer_outside_the_description(app):
    import schemathesis
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance, response_schema_conformance, status_code_conformance)

    capture_dispatch(app)
    _, secrets = create_game(app.test_client())
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    checks = [not_a_server_error, status_code_conformance, content_type_conformance,
              response_schema_conformance]
    operations = [result.ok() for result in schema.get_all_operations()]
    labels = {op.label for op in operations}  # (schemathesis leaves out the schema's own URL)
    assert {"POST /api/games", "GET /api/games/{game_id}", "GET /api/play/{secret}",
            "POST /api/play/{secret}"} <= labels, labels
    for operation in operations:
        @settings(max_examples=30, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(), real=st.booleans(), seat=st.integers(0, 3))
        def run(case, real, seat):
            if real:  # half the time a genuine secret and token, to reach the happy paths
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {ADMIN}"}
                if case.path_parameters and "secret" in case.path_parameters:
                    case.path_parameters = {**case.path_parameters, "secret": secrets[seat]}
            case.call_and_validate(checks=checks)

        run()
