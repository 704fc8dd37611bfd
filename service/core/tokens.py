"""Seat secrets: the only credential a player has.

A secret is ``[game_id, seat, nonce]`` signed with the service key.  The signature stops
forgery without a database hit; the nonce, stored on the seat, makes every link revocable
(replace the nonce and all old links die).  It carries no timestamp on purpose: the same seat
always gets the same secret, so a re-sent mail is byte-identical to the first."""
from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import json
import secrets
import zlib
from json.encoder import encode_basestring

from itsdangerous import BadSignature, URLSafeSerializer

from engine.text import phrase
from service.core.refusals import Refusal

SALT = "chasqui-seat-v1"


@functools.lru_cache(maxsize=8)
def _serializer(secret_key: str) -> URLSafeSerializer:
    """One per service key: building it derives the signing key, which every request paid."""
    return URLSafeSerializer(secret_key, salt=SALT)


class BadSecret(Refusal):
    """Forged, malformed or revoked: the caller answers 403 and changes nothing."""


@functools.lru_cache(maxsize=4096)
def make_secret(secret_key: str, game_id: str, seat: int, nonce: str) -> str:
    """The same arguments always sign to the same text (see above), so a page or answer that
    shows a seat's link again reuses it."""
    return signed(secret_key, SALT, [game_id, seat, nonce])


def signed(secret_key: str, salt: str, data) -> str:
    """``URLSafeSerializer(secret_key, salt=salt).dumps(data)``: the same text, made directly.

    itsdangerous makes a signer object per call (and here a serializer for every token but
    the seat's), derives the signing key again and looks its options up on the way; a mail
    signs a seat secret and an unsubscribe token for every seat (issue 9).  Its steps, as
    its defaults take them: compact JSON
    (``ensure_ascii=False``) in UTF-8, zlib-compressed with a leading "." when that is more
    than one byte shorter, URL-safe base64 without padding, then "." and the HMAC-SHA1 of that
    text under the key ``sha1(salt + b"signer" + secret_key)`` ("django-concat"), in the same
    base64.  ``tests/service/test_mail_cpu_tokens.py`` checks the texts are itsdangerous'.
    Reading a token stays with itsdangerous."""
    text = _json(data).encode("utf-8")
    packed = zlib.compress(text)
    payload = b"." + _base64(packed) if len(packed) < len(text) - 1 else _base64(text)
    signature = _signature(secret_key, salt, payload)
    return (payload + b"." + _base64(signature)).decode("ascii")


def _json(data) -> str:
    """``json.dumps(data, ensure_ascii=False, separators=(",", ":"))``, the compact JSON above,
    written directly for what the links sign (a string, or a list of strings and ints) with
    json's own string writer (``encode_basestring``, which ``dumps`` uses with
    ``ensure_ascii=False``) and ``int.__repr__`` (what it writes for an int).  ``dumps`` made
    a ``JSONEncoder`` and a C encoder per call: ~9 µs a token in-process (issue 9, round 7).
    Anything else (bools, None, nesting, int or str subclasses) is ``dumps``'."""
    kind = type(data)
    if kind is str:
        return encode_basestring(data)
    if kind is list and all(type(item) is str or type(item) is int for item in data):
        return "[" + ",".join([encode_basestring(item) if type(item) is str else int.__repr__(item)
                               for item in data]) + "]"
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@functools.lru_cache(maxsize=32)
def _keyed(secret_key: str | bytes, salt: str) -> hmac.HMAC:
    """An HMAC-SHA1 keyed with the signing key, made once per (key, salt) and copied for
    each message.  ``hmac.digest`` gives up the GIL for every message, however short, and the
    worker's relay thread then often holds it when the HMAC is done (~12 µs a token in the
    worker against ~2 here, issue 9 round 7); an HMAC object keeps it for messages this
    short."""
    return hmac.new(_signing_key(secret_key, salt), digestmod=hashlib.sha1)


def _signature(secret_key: str | bytes, salt: str, message: bytes) -> bytes:
    mac = _keyed(secret_key, salt).copy()
    mac.update(message)
    return mac.digest()


def _base64(data: bytes) -> bytes:
    return base64.urlsafe_b64encode(data).rstrip(b"=")


@functools.lru_cache(maxsize=32)
def _signing_key(secret_key: str | bytes, salt: str) -> bytes:
    key = secret_key.encode("utf-8") if isinstance(secret_key, str) else secret_key
    return hashlib.sha1(salt.encode("utf-8") + b"signer" + key).digest()


def read_secret(secret_key: str, secret: str) -> tuple[str, int, str]:
    """(game_id, seat, nonce) of a secret whose signature is the service's.

    A verified secret is remembered (a bounded LRU keyed by the key and the whole text), so a
    player's next moves skip the HMAC and the decode.  Only what verified is kept (``lru_cache``
    stores no exception): a forged, mistyped or malformed text is checked, and refused, every
    time.  The signature is not the whole check: the caller still compares the nonce with the
    seat's current one on every request, so a revoked link is refused as before."""
    return _verified(secret_key, secret)


@functools.lru_cache(maxsize=4096)
def _verified(secret_key: str, secret: str) -> tuple[str, int, str]:
    try:
        data = _serializer(secret_key).loads(secret)
    except BadSignature:
        raise BadSecret(phrase("this link is not valid (forged or mistyped)")) from None
    if (not isinstance(data, list) or len(data) != 3 or not isinstance(data[0], str)
            or not isinstance(data[1], int) or not isinstance(data[2], str)):
        raise BadSecret(phrase("this link is not valid"))
    return data[0], data[1], data[2]


def nonce_matches(stored: str, presented: str) -> bool:
    return hmac.compare_digest(stored.encode(), presented.encode())


def new_game_id() -> str:
    """Twelve URL-safe characters that never start with "-": an id is typed on command lines
    (``flask chasqui verify <id>``), where a leading "-" reads as an option (1 id in 64)."""
    while True:
        candidate = secrets.token_urlsafe(9)
        if not candidate.startswith("-"):
            return candidate


SPECTATE_SALT = "chasqui-watch-v1"


def spectate_token(secret_key: str, game_id: str) -> str:
    """A game's public spectator link: the game id signed with the service key."""
    return signed(secret_key, SPECTATE_SALT, game_id)
