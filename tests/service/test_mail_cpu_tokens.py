"""Seat secrets, unsubscribe and "my games" tokens are signed directly (``tokens.signed``)
rather than through itsdangerous' serializer: the texts must stay itsdangerous' to the byte,
or the links in mails already sent would stop working."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st
from itsdangerous import URLSafeSerializer

from service.store import preferences

from service.core import tokens
KEYS = st.text(min_size=1, max_size=64)
WORDS = st.one_of(st.text(max_size=40), st.text("ab", max_size=200),
                  st.sampled_from(["p0@example.com", "张伟@例子.公司", "x" * 300]))
DATA = st.one_of(WORDS, st.tuples(WORDS, st.integers(-10, 10 ** 12), WORDS).map(list),
                 st.lists(st.one_of(WORDS, st.integers(), st.none(), st.booleans()), max_size=8))


@settings(max_examples=500, deadline=None)
@given(secret_key=KEYS, salt=st.one_of(st.sampled_from(
    [tokens.SALT, preferences.UNSUBSCRIBE_SALT, preferences.ADDRESS_SALT]), st.text(max_size=30)),
    data=DATA)
def test_a_signed_text_is_the_one_itsdangerous_writes(secret_key, salt, data):
    assert tokens.signed(secret_key, salt, data) == URLSafeSerializer(
        secret_key, salt=salt).dumps(data)


def test_long_repetitive_data_is_compressed_as_itsdangerous_compresses_it():
    data = ["game" * 20, 3, "a" * 100]
    text = tokens.signed("key", "salt", data)
    assert text.startswith(".") and text == URLSafeSerializer("key", salt="salt").dumps(data)


@settings(max_examples=200, deadline=None)
@given(secret_key=KEYS, game_id=st.text(min_size=1, max_size=20), seat=st.integers(0, 7),
       nonce=st.text(min_size=1, max_size=20), address=WORDS)
def test_the_mail_links_tokens_are_itsdangerous_texts_and_read_back(secret_key, game_id, seat,
                                                                    nonce, address):
    secret = tokens.make_secret(secret_key, game_id, seat, nonce)
    assert secret == URLSafeSerializer(secret_key, salt=tokens.SALT).dumps([game_id, seat, nonce])
    assert tokens.read_secret(secret_key, secret) == (game_id, seat, nonce)
    unsubscribe = preferences.unsubscribe_token(secret_key, game_id, seat, address)
    assert unsubscribe == URLSafeSerializer(secret_key, salt=preferences.UNSUBSCRIBE_SALT).dumps(
        [game_id, seat, preferences.normal_address(address)])
    assert preferences.read_unsubscribe_token(secret_key, unsubscribe) == (
        game_id, seat, preferences.normal_address(address))
    mine = preferences.address_token(secret_key, address)
    assert mine == URLSafeSerializer(secret_key, salt=preferences.ADDRESS_SALT).dumps(
        preferences.normal_address(address))


@settings(max_examples=100, deadline=None)
@given(secret_key=KEYS, game_id=WORDS)
def test_a_mails_spectator_link_is_the_one_the_watch_page_signs_and_reads(secret_key, game_id):
    from service.mail import kit as mailkit
    from service.web import spectate
    token = mailkit._spectate_token(secret_key, game_id)
    assert token == URLSafeSerializer(secret_key, salt=spectate.SALT).dumps(game_id)
    assert spectate.read_spectate_token(secret_key, token) == game_id


# JSON as the signed data may hold it: strings with quotes, escapes, control characters and
# non-ASCII text; ints of any size; and what the direct writer leaves to ``json.dumps``.
JSON = st.one_of(st.text(), st.lists(st.one_of(st.text(), st.integers()), max_size=6),
                 st.lists(st.one_of(st.text(max_size=5), st.integers(), st.booleans(), st.none(),
                                    st.floats(allow_nan=False), st.lists(st.text(max_size=3))),
                          max_size=6),
                 st.dictionaries(st.text(max_size=5), st.integers(), max_size=3))


@settings(max_examples=500, deadline=None)
@given(data=JSON)
def test_the_signed_json_is_the_compact_json_itsdangerous_writes(data):
    """Issue 9, round 7: ``tokens._json`` writes strings and lists of strings and ints itself."""
    import json

    assert tokens._json(data) == json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@settings(max_examples=300, deadline=None)
@given(secret_key=st.one_of(KEYS, st.binary(max_size=100)), salt=st.text(max_size=30),
       message=st.binary(max_size=300))
def test_the_hmac_from_a_kept_keyed_hmac_is_hmac_sha1(secret_key, salt, message):
    """Issue 9, round 7: each signature is a copy of an HMAC keyed once per key; using it
    (a second message under the same key) must not change the next signature."""
    import hmac

    key = tokens._signing_key(secret_key, salt)
    for text in (message, message + b"x", message):
        assert tokens._signature(secret_key, salt, text) == hmac.digest(
            key, text, "sha1")
