"""Seat secrets, unsubscribe, "my games" and spectator links are itsdangerous texts without a
timestamp: the same data signs to the same text, always.  Links in mails already sent must keep
working, so the texts below, signed before, must come out byte for byte and read back."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st
from itsdangerous import URLSafeSerializer

from service.core import tokens
from service.store import preferences

KEY = "fixed-test-key"
GAME = "AbCdEfGhIjKl"


def test_a_seat_secret_signed_before_is_signed_the_same_and_reads_back():
    for (game_id, seat, nonce), text in [
        ((GAME, 0, "n0nce-xyz"), "WyJBYkNkRWZHaElqS2wiLDAsIm4wbmNlLXh5eiJd.3JTPENmbTyLbf_PlzHY4Ahd5ztA"),
        ((GAME, 3, "another_Nonce"),
         "WyJBYkNkRWZHaElqS2wiLDMsImFub3RoZXJfTm9uY2UiXQ.o_G-5nV9CYjoldNNC49QGjm8vxw"),
        (("game" * 20, 3, "a" * 100), ".eJyLVkpPzE2lJlbSMdZRSqQDUIoFAO2UR7g.B5Nyj1LwUwSRh-xJKZOcIxoH3Y8"),
    ]:
        assert tokens.make_secret(KEY, game_id, seat, nonce) == text
        assert tokens.read_secret(KEY, text) == (game_id, seat, nonce)


def test_unsubscribe_and_my_games_links_signed_before_are_signed_the_same_and_read_back():
    unsubscribe = "WyJBYkNkRWZHaElqS2wiLDIsImFuYUBleGFtcGxlLmNvbSJd.cbd8YS88DYkp73zPLmBqY-CCFwI"
    assert preferences.unsubscribe_token(KEY, GAME, 2, "Ana@Example.com") == unsubscribe
    assert preferences.read_unsubscribe_token(KEY, unsubscribe) == (GAME, 2, "ana@example.com")
    for address, text in [("p0@example.com", "InAwQGV4YW1wbGUuY29tIg.cyM-hXhHlOP2ccaXAlbKz329G4Y"),
                          ("张伟@例子.公司", "IuW8oOS8n0DkvovlrZAu5YWs5Y-4Ig.dgoCzSz9ohRq0N_PUBbOfo-FL2M")]:
        assert preferences.address_token(KEY, address) == text
        assert preferences.read_address_token(KEY, text) == address


def test_a_spectator_link_signed_before_is_signed_the_same_and_read_back():
    from service.mail import kit as mailkit
    from service.web import spectate

    text = "IkFiQ2RFZkdoSWpLbCI.tKn54a3jRJuWJQY0b4VQHlIvmDc"
    assert tokens.spectate_token(KEY, GAME) == text
    assert mailkit._spectate_token(KEY, GAME) == text
    assert spectate.read_spectate_token(KEY, text) == GAME


def test_a_secret_signed_under_another_key_or_altered_is_refused():
    text = tokens.make_secret(KEY, GAME, 0, "n0nce-xyz")
    payload, signature = text.split(".")
    for forged in (tokens.make_secret("another key", GAME, 0, "n0nce-xyz"),
                   f"{payload}.A{signature[1:]}", f"{payload[:-2]}Id.{signature}",
                   "not a secret"):
        try:
            tokens.read_secret(KEY, forged)
        except tokens.BadSecret:
            continue
        raise AssertionError(f"{forged!r} was accepted")


WORDS = st.one_of(st.text(max_size=40), st.sampled_from(["p0@example.com", "张伟@例子.公司", "x" * 300]))


@settings(max_examples=100, deadline=None)
@given(secret_key=st.text(min_size=1, max_size=64), game_id=st.text(min_size=1, max_size=20),
       seat=st.integers(0, 7), nonce=st.text(min_size=1, max_size=20), address=WORDS)
def test_the_mail_links_are_the_texts_a_fresh_serializer_writes_and_read_back(
        secret_key, game_id, seat, nonce, address):
    """Signing through the serializer made once per key is signing through a new one."""
    secret = tokens.make_secret(secret_key, game_id, seat, nonce)
    assert secret == URLSafeSerializer(secret_key, salt=tokens.SALT).dumps([game_id, seat, nonce])
    assert tokens.read_secret(secret_key, secret) == (game_id, seat, nonce)
    unsubscribe = preferences.unsubscribe_token(secret_key, game_id, seat, address)
    assert unsubscribe == URLSafeSerializer(secret_key, salt=preferences.UNSUBSCRIBE_SALT).dumps(
        [game_id, seat, preferences.normal_address(address)])
    mine = preferences.address_token(secret_key, address)
    assert mine == URLSafeSerializer(secret_key, salt=preferences.ADDRESS_SALT).dumps(
        preferences.normal_address(address))
