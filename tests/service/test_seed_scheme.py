"""The seed scheme as docs/fairness.md writes it down, recomputed here with nothing but hashlib,
so that the document, this service and any outside verifier agree on every bit."""
import hashlib

import pytest

from service.store import randomness


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


SECRET = "0f" * 32


def test_the_commitment_is_the_hash_of_the_tagged_secret():
    assert randomness.service_commitment(SECRET) == sha("chasqui-service-commitment-v2:" + SECRET)


def test_the_seed_hashes_the_secret_with_every_contributions_hash_in_seat_order():
    texts = ["a1b2", "my cat's name", "雨"]
    expected = int(sha("chasqui-seed-v2:" + SECRET + ":" + ":".join(sha(t) for t in texts)), 16)
    assert randomness.derive_seed(SECRET, texts) == expected
    assert randomness.derive_seed(SECRET, list(reversed(texts))) != expected


def test_contributions_that_would_join_alike_give_different_seeds():
    """Hashing each contribution first: "a:b" + "c" never collides with "a" + "b:c"."""
    assert randomness.derive_seed(SECRET, ["a:b", "c"]) != randomness.derive_seed(SECRET, ["a", "b:c"])


def test_a_different_secret_gives_a_different_seed_from_the_same_contributions():
    assert randomness.derive_seed(SECRET, ["x"]) != randomness.derive_seed("1e" * 32, ["x"])


def test_a_seed_fits_the_games_range():
    assert 0 <= randomness.derive_seed(SECRET, ["x", "y"]) < 2 ** 256


def test_the_reshuffle_key_depends_on_the_seed_and_the_rollbacks_place():
    assert randomness.reshuffle_key(5, 12) == int(sha("chasqui-reshuffle-v1:5:12"), 16)
    assert randomness.reshuffle_key(5, 12) != randomness.reshuffle_key(5, 13)


def test_a_new_secret_is_64_lowercase_hex_digits_and_never_repeats():
    first, second = randomness.new_secret(), randomness.new_secret()
    assert randomness.is_secret(first) and randomness.is_secret(second) and first != second
    assert not randomness.is_secret(first.upper())


@pytest.mark.parametrize("text, ok", [
    ("a", True), ("my cat's name", True), ("雨が降る", True), ("x" * 200, True),
    ("", False), ("x" * 201, False), ("bell\x07", False), ("esc\x1b[1m", False),
    ("line\nbreak", False), ("lone \ud800", False), ("rtl \u202e", False), (5, False),
])
def test_a_contribution_is_short_printable_text(text, ok):
    assert randomness.is_contribution(text) is ok


def test_a_default_contribution_is_a_valid_one():
    assert randomness.is_contribution(randomness.default_contribution())
