"""Seat secrets: the only credential a player has.

A secret is ``[game_id, seat, nonce]`` signed with the service key.  The signature stops
forgery without a database hit; the nonce, stored on the seat, makes every link revocable
(replace the nonce and all old links die).  It carries no timestamp on purpose: the same seat
always gets the same secret, so a re-sent mail is byte-identical to the first."""
from __future__ import annotations

import hmac

from itsdangerous import BadSignature, URLSafeSerializer

SALT = "chasqui-seat-v1"


class BadSecret(Exception):
    """Forged, malformed or revoked: the caller answers 403 and changes nothing."""


def make_secret(secret_key: str, game_id: str, seat: int, nonce: str) -> str:
    return URLSafeSerializer(secret_key, salt=SALT).dumps([game_id, seat, nonce])


def read_secret(secret_key: str, secret: str) -> tuple[str, int, str]:
    try:
        data = URLSafeSerializer(secret_key, salt=SALT).loads(secret)
    except BadSignature:
        raise BadSecret("this link is not valid (forged or mistyped)") from None
    if (not isinstance(data, list) or len(data) != 3 or not isinstance(data[0], str)
            or not isinstance(data[1], int) or not isinstance(data[2], str)):
        raise BadSecret("this link is not valid")
    return data[0], data[1], data[2]


def nonce_matches(stored: str, presented: str) -> bool:
    return hmac.compare_digest(stored.encode(), presented.encode())
