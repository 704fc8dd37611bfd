"""Where a game's chance comes from: a secret of the service's, committed before the players
give theirs, and one contribution per seat, so that no single party chooses the seed.

The scheme (``chasqui-seed-v2``, written out in ``docs/fairness.md`` so that anyone can
recompute it with nothing but SHA-256):

* The service draws a secret ``S``: 32 random bytes, written as 64 lowercase hex digits, and
  publishes ``commitment = sha256_hex("chasqui-service-commitment-v2:" + S)`` before any
  player gives their contribution (the invitation and lobby pages show it).
* Each seat, in seat order, gives a contribution: any text of 1 to ``MAX_ENTROPY`` characters
  without control characters (made in the player's browser by default, typed if they wish,
  or drawn by the service for a seat whose player never opened a page).
* ``seed = int(sha256_hex("chasqui-seed-v2:" + S + ":" + ":".join(sha256_hex(c) for c in
  contributions)), 16)``, each text hashed as UTF-8.  Hashing every contribution first keeps
  the joined text unambiguous whatever a player types.

Nobody knows the seed before every seat has given theirs (``S`` stays secret until the game
ends), the service cannot choose it after seeing the contributions (it committed to ``S``),
and a player cannot choose it without knowing ``S``.

After a rollback the rewound state's unseen cards are shuffled again from
``reshuffle_key(seed, seq)``, ``seq`` being the rollback's own, so the rolled-back moves
teach nobody what comes next (see ``docs/fairness.md``).
"""
from __future__ import annotations

import hashlib
import secrets

SCHEME = "chasqui-seed-v2"
GIVEN = "given"
SECRET_BYTES = 32
MAX_ENTROPY = 200
BY_PLAYER = "player"
BY_SERVICE = "chasqui"
COMMITMENT_TAG = "chasqui-service-commitment-v2"
RESHUFFLE_TAG = "chasqui-reshuffle-v1"


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_secret() -> str:
    """The service's secret ``S``: 64 lowercase hex digits."""
    return secrets.token_hex(SECRET_BYTES)


def is_secret(text: object) -> bool:
    return (isinstance(text, str) and len(text) == 2 * SECRET_BYTES
            and all(c in "0123456789abcdef" for c in text))


def service_commitment(secret: str) -> str:
    return sha256_hex(f"{COMMITMENT_TAG}:{secret}")


def default_contribution() -> str:
    """What the service gives for a seat whose player gave nothing (never opened a page)."""
    return secrets.token_hex(16)


def is_contribution(text: object) -> bool:
    """A contribution as the record must hold it: 1 to MAX_ENTROPY characters, none of them
    a control character or a lone surrogate."""
    return (isinstance(text, str) and 0 < len(text) <= MAX_ENTROPY
            and all(c.isprintable() or c == " " for c in text)
            and not any(0xD800 <= ord(c) <= 0xDFFF for c in text))


def derive_seed(secret: str, contributions: list[str]) -> int:
    """The game's seed from the service's secret and every seat's contribution, in seat order."""
    digests = ":".join(sha256_hex(text) for text in contributions)
    return int(sha256_hex(f"{SCHEME}:{secret}:{digests}"), 16)


def reshuffle_key(seed: int, seq: int) -> int:
    """The chance a rollback at ``seq`` shuffles the unseen cards with: nobody can know it
    while the seed is secret, and anyone can recompute it once the seed is revealed."""
    return int(sha256_hex(f"{RESHUFFLE_TAG}:{seed}:{seq}"), 16)
