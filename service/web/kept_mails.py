"""The mails a player kept, as ``/verify`` receives them beside a record.

The page's form has, besides the record, a text field ``mails`` (mails or fingerprints
pasted) and a file field ``mail_files`` (saved ``.eml`` files, several at once).  A JSON POST
is either a bare record, as it always was (no mails), or ``{"record": {...}, "witnesses":
["<a mail's text or a fingerprint>", ...]}``, or a record with a ``"witnesses"`` key beside
its own (taken out before the record is checked).  ``service.mail.witness`` checks them."""
from __future__ import annotations

import json

from flask import request

from engine.text import phrase
from service.core.validation import BadInput, json_document
from service.mail.witness import MOST_WITNESSES, WITNESS_BYTES
from service.store import fairness


def posted(record: bytes, limit: int) -> tuple[bytes, list]:
    """The record's JSON text and the kept mails of a ``/verify`` POST whose record part is
    ``record`` (the body, an upload or the pasted text), read up to ``limit`` bytes."""
    if request.is_json:
        return _unwrapped(record, limit)
    files = [upload.read(WITNESS_BYTES) for upload in
             request.files.getlist("mail_files")[:MOST_WITNESSES + 1] if upload.filename]
    pasted = request.form.get("mails", "")
    return record, files + ([pasted] if pasted.strip() else [])


def _unwrapped(body: bytes, limit: int) -> tuple[bytes, list]:
    """A JSON body's record and witnesses: ``{"record": ..., "witnesses": [...]}``, or the
    body itself as the record (then with no witnesses).  A body that is not JSON is left
    for the record's check to refuse."""
    try:
        data = json_document(body, phrase("the record"), size=limit, pairs=fairness.pairs_once)
    except (BadInput, fairness.RepeatedKey):  # the record's check refuses it, saying why
        return body, []
    if not isinstance(data, dict):
        return body, []
    if "record" in data and "format" not in data:
        record, witnesses = data["record"], data.get("witnesses")
    elif "witnesses" in data:  # a record with the mails as one more key beside its own
        witnesses = data.pop("witnesses")
        record = data
    else:
        return body, []
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    witnesses = witnesses or []
    return (text.encode("utf-8", "surrogatepass"),
            witnesses if isinstance(witnesses, list) else [witnesses])
