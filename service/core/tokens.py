"""Seat secrets: the only credential a player has.

A secret is ``[game_id, seat, nonce]`` signed with the service key.  The signature stops
forgery without a database hit; the nonce, stored on the seat, makes every link revocable
(replace the nonce and all old links die).  It carries no timestamp on purpose: the same seat
always gets the same secret, so a re-sent mail is byte-identical to the first."""
from __future__ import annotations

import functools
import hmac
import secrets

from itsdangerous import BadSignature, URLSafeSerializer

from engine.text import phrase
from service.core.refusals import Refusal

SALT = "chasqui-seat-v1"


@functools.lru_cache(maxsize=32)
def serializer(secret_key: str, salt: str) -> URLSafeSerializer:
    """One per (service key, salt): making a serializer derives its signing key, which a mail
    (a seat secret, an unsubscribe and a "my games" token per seat) would otherwise pay for
    each token."""
    return URLSafeSerializer(secret_key, salt=salt)


def signed(secret_key: str, salt: str, data) -> str:
    """``data`` signed by itsdangerous under the service key and ``salt``, with no timestamp:
    the same data always signs to the same text, so links in mails already sent stay good."""
    return serializer(secret_key, salt).dumps(data)


class BadSecret(Refusal):
    """Forged, malformed or revoked: the caller answers 403 and changes nothing."""


@functools.lru_cache(maxsize=4096)
def make_secret(secret_key: str, game_id: str, seat: int, nonce: str) -> str:
    """The same arguments always sign to the same text (see above), so a page or answer that
    shows a seat's link again reuses it."""
    return signed(secret_key, SALT, [game_id, seat, nonce])


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
        data = serializer(secret_key, SALT).loads(secret)
    except BadSignature:
        raise BadSecret(phrase("this link is not valid (forged or mistyped)")) from None
    if not _is_seat_triple(data):
        raise BadSecret(phrase("this link is not valid"))
    return data[0], data[1], data[2]


def _is_seat_triple(data) -> bool:
    return (isinstance(data, list) and len(data) == 3 and isinstance(data[0], str)
            and isinstance(data[1], int) and isinstance(data[2], str))


# A player's private feeds (their calendar, their games' news), one salt each, so a link of one
# kind is never accepted as another, nor as a seat secret.
CALENDAR_SALT = "chasqui-calendar-v1"
PLAYER_FEED_SALT = "chasqui-player-feed-v1"


def feed_token(secret_key: str, salt: str, game_id: str, seat: int, nonce: str) -> str:
    """A private feed's link: the seat it was made from and the address's feed nonce, signed.
    It names a seat rather than the address, so the link (which calendar and feed services
    keep on their servers) does not carry the player's mail address in readable base64."""
    return signed(secret_key, salt, [game_id, seat, nonce])


def read_feed_token(secret_key: str, salt: str, token: str) -> tuple[str, int, str] | None:
    """(game_id, seat, nonce) of a genuine feed link; None when forged, mistyped or malformed."""
    try:
        data = serializer(secret_key, salt).loads(token)
    except BadSignature:
        return None
    return (data[0], data[1], data[2]) if _is_seat_triple(data) else None


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
