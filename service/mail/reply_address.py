"""The reply address ``play+<token>@<mail domain>``: the token names and authorises a seat.

Why not the seat's URL secret itself: it is ~75 case-sensitive characters, and a local part
may hold 64 and some relays fold case.  The token is made of the same material (game, seat,
the seat's nonce, signed with the service key), so it is revoked with the seat's links, but
spelled in lower-case hex: ``<game id as hex>-<seat>-<80-bit HMAC>``, about 50 characters."""
from __future__ import annotations

import hashlib
import hmac
import re

TOKEN = re.compile(r"^([0-9a-f]{2,64})-(\d{1,3})-([0-9a-f]{20})$")
# What a game id is made of (``tokens.new_game_id``, and ids imported from older versions):
# hex that decodes to anything else -- a NUL, a control character -- names no game, and must
# never reach a query (PostgreSQL cannot compare a text holding a NUL).
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


class BadReplyToken(Exception):
    """Not a reply token of ours, or one for a seat whose links were revoked."""


def _mac(secret_key: str, game_id: str, seat: int, nonce: str) -> str:
    material = f"chasqui-reply-v1|{game_id}|{seat}|{nonce}".encode()
    return hmac.new(secret_key.encode(), material, hashlib.sha256).hexdigest()[:20]


def reply_token(secret_key: str, game_id: str, seat: int, nonce: str) -> str:
    return f"{game_id.encode().hex()}-{seat}-{_mac(secret_key, game_id, seat, nonce)}"


def reply_address(secret_key: str, local: str, domain: str, game_id: str, seat: int,
                  nonce: str) -> str:
    return f"{local}+{reply_token(secret_key, game_id, seat, nonce)}@{domain}"


def split_token(token: str) -> tuple[str, int, str]:
    """(game_id, seat, mac) from a token's spelling; the mac is checked against the nonce."""
    match = TOKEN.match(token.strip().lower())
    if not match:
        raise BadReplyToken("not a reply address")
    try:
        game_id = bytes.fromhex(match.group(1)).decode()
    except (ValueError, UnicodeDecodeError):
        raise BadReplyToken("not a reply address") from None
    if not GAME_ID.fullmatch(game_id):
        raise BadReplyToken("not a reply address")
    return game_id, int(match.group(2)), match.group(3)


def token_matches(secret_key: str, game_id: str, seat: int, nonce: str, mac: str) -> bool:
    return hmac.compare_digest(_mac(secret_key, game_id, seat, nonce), mac)


def token_in(addresses, local: str) -> str | None:
    """The first ``<local>+<token>@…`` among the addresses (envelope or header recipients)."""
    pattern = re.compile(rf"(?:^|[<\s,]){re.escape(local)}\+([0-9a-z-]+)@", re.IGNORECASE)
    for address in addresses:
        match = pattern.search(str(address))
        if match:
            return match.group(1).lower()
    return None
