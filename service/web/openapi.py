"""``GET /api/openapi.json``: the JSON API's OpenAPI 3.1 description.

Kept by hand in ``service/openapi.json`` beside ``service/web/api.py`` (a short file is easier to
review than generated output); tests/integration/test_openapi.py validates it and runs
schemathesis against the live app, so it cannot drift silently."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, jsonify

SPEC = Path(__file__).with_name("openapi.json")

bp = Blueprint("openapi", __name__)


@lru_cache(maxsize=1)
def spec() -> dict:
    return json.loads(SPEC.read_text(encoding="utf-8"))


@bp.get("/api/openapi.json")
def openapi():
    response = jsonify(spec())
    response.headers["Cache-Control"] = "public, max-age=300"
    return response
