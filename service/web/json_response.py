"""JSON responses encoded by orjson (issue 9).

Every move's answer is a seat's view and legal actions, ~2 KB of JSON.  Flask's
``DefaultJSONProvider`` encodes it with ``json.dumps(sort_keys=True)``: ~22 us per answer
here, 1.5 % of a move's web CPU; orjson writes the same JSON in ~2 us.  The answer means
exactly the same: compact, keys sorted, a trailing newline, and Flask's own ``default`` for
what JSON has no type for (dates as HTTP dates, dataclasses, ``__html__`` objects).  Only
the bytes of non-ASCII text differ: UTF-8 as it is, not ``\\u`` escapes (both are JSON of the
same string).  What orjson refuses where ``json`` would go on (keys that are not strings,
integers beyond 64 bits) is encoded by Flask's provider as before, as is the indented debug
output."""
from __future__ import annotations

import orjson
from flask.json.provider import DefaultJSONProvider

_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class JSONResponses(DefaultJSONProvider):
    """Flask's provider, with ``response`` (``jsonify``) encoded by orjson."""

    def response(self, *args, **kwargs):
        if self.compact is False or (self.compact is None and self._app.debug):
            return super().response(*args, **kwargs)
        obj = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(obj, default=self.default, option=_OPTIONS)
        except TypeError:  # orjson.JSONEncodeError included
            return super().response(*args, **kwargs)
        return self._app.response_class(body + b"\n", mimetype=self.mimetype)
