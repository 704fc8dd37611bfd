"""Links that name one row: the signed pair (row id, the row's nonce).

Why a pair: the signature proves the link was made here, and the nonce, kept on the row, lets
the row take its link back (a new nonce) without a list of revoked links.  Sign-in links,
invitations and seat offers are made and read the same way; each turns a link that cannot be
used into its own refusal."""
from __future__ import annotations

from datetime import timedelta
from typing import Callable, Protocol

from itsdangerous import BadSignature

from service.core.tokens import nonce_matches, serializer, signed


# One salt per kind of link, so a link of one kind is never accepted as another.
SIGN_IN_SALT = "chasqui-signin-v1"
INVITATION_SALT = "chasqui-invite-v1"
SEAT_OFFER_SALT = "chasqui-seat-offer-v1"
SIGN_IN_LIFETIME = timedelta(minutes=15)
INVITATION_LIFETIME = timedelta(days=7)
SEAT_OFFER_LIFETIME = timedelta(days=7)


class Rows(Protocol):
    """What ``read`` needs of the caller's session (the store's unit of work): a row by its
    primary key.  Named here, not imported: the core knows nothing of the store below it."""

    def get(self, model, key): ...


def token(secret_key: str, salt: str, row) -> str:
    """The link's text for ``row`` (a link of the kind ``salt`` names)."""
    return signed(secret_key, salt, [row.id, row.nonce])


def read(session: Rows, model, secret_key: str, salt: str, link: str,
         refuse: Callable[[bool], Exception]):
    """The ``model`` row that ``link`` names, while the row's nonce is still the one the link
    was made with.  Otherwise raises ``refuse(forged)``, the caller's refusal: ``forged`` is
    True when the text is no link made here (forged, mistyped, malformed), False when it was
    one but its row is gone or has taken it back."""
    pair = _signed_pair(secret_key, salt, link)
    if pair is None:
        raise refuse(True)
    row = session.get(model, pair[0])
    if row is None or not nonce_matches(row.nonce, pair[1]):
        raise refuse(False)
    return row


def _signed_pair(secret_key: str, salt: str, link: str) -> tuple[int, str] | None:
    try:
        data = serializer(secret_key, salt).loads(link)
    except BadSignature:
        return None
    if (isinstance(data, list) and len(data) == 2 and type(data[0]) is int
            and isinstance(data[1], str)):
        return data[0], data[1]
    return None
