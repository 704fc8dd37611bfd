"""Links that name one row: the signed pair (row id, the row's nonce).

Why a pair: the signature proves the link was made here, and the nonce, kept on the row, lets
the row take its link back (a new nonce) without a list of revoked links.  An invitation and a
seat offer are read the same way; each turns ``None`` into its own refusal."""
from __future__ import annotations

import secrets
from datetime import timedelta

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy.orm import Session


# One salt per kind of link, so a link of one kind is never accepted as another.
SIGN_IN_SALT = "chasqui-signin-v1"
INVITATION_SALT = "chasqui-invite-v1"
SEAT_OFFER_SALT = "chasqui-seat-offer-v1"
SIGN_IN_LIFETIME = timedelta(minutes=15)
INVITATION_LIFETIME = timedelta(days=7)
SEAT_OFFER_LIFETIME = timedelta(days=7)


def sign_in_token(settings, row) -> str:
    return make(settings.secret_key, SIGN_IN_SALT, row)


def invitation_token(settings, row) -> str:
    return make(settings.secret_key, INVITATION_SALT, row)


def seat_offer_token(settings, row) -> str:
    return make(settings.secret_key, SEAT_OFFER_SALT, row)


def make(secret_key: str, salt: str, row) -> str:
    return URLSafeSerializer(secret_key, salt=salt).dumps([row.id, row.nonce])


def signed_pair(secret_key: str, salt: str, token: str) -> tuple[int, str] | None:
    """The (id, nonce) a genuine link carries; None when forged, mistyped or malformed."""
    try:
        data = URLSafeSerializer(secret_key, salt=salt).loads(token)
    except BadSignature:
        return None
    if (isinstance(data, list) and len(data) == 2 and type(data[0]) is int
            and isinstance(data[1], str)):
        return data[0], data[1]
    return None


def row_of(session: Session, model, pair: tuple[int, str]):
    """The row a genuine pair names, while its nonce is still the one the link was made with."""
    row = session.get(model, pair[0])
    if row is None or not secrets.compare_digest(row.nonce, pair[1]):
        return None
    return row
