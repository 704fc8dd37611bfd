"""The To header of a game's mail is made by the library (``email.headerregistry.Address``)
and its bytes are those the hand-made quoting before it wrote, for every awkward name:
quotes, commas, backslashes, ``@``, RFC 5322 specials, control characters, non-ASCII, CJK,
emoji and names long enough to be folded, to every kind of address the edge accepts.

Two stored values would be written otherwise.  An empty name: no entry point ever stored
one (the API and the invitations refused a blank name from the first); ``Address`` writes
the bare address where the hand quoting wrote `` <address>``.  A local part holding an RFC
5322 special, such as ``a(b)@x.org``: the edge refuses it (email-validator), and only the
admin API of the first days, which checked for an ``@`` alone, could have stored one;
``Address`` quotes it (``"a(b)"@x.org``), where the hand quoting left it bare and a reader
took ``(b)`` for a comment, so that mail went to ``a@x.org``."""
from __future__ import annotations

import re
from email.message import EmailMessage

import pytest

from service.core import validation
from service.mail.compose import MAIL_POLICY
from service.mail.headers import Unmailable, one_address, one_line, recipient


def hand_quoted(name: str, address: str) -> str:
    """``recipient`` as it was written by hand, kept here as the reference its bytes are
    compared with."""
    name = one_line(name)
    if re.search(r'[()<>\[\]:;@\\,."]', name):
        name = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{name} <{one_address(address)}>"


NAMES = [
    "Ana", "Ana María", "O'Brien", 'O"Brien', '"Ana"', '"', "\\", "back\\slash", 'a\\"b',
    "Ana, Bob", "Ana, everyone@example.net", "Eve Bcc: x@example.net", "ana@home", "@", "Dr. Ana",
    "Ana.", ".", "(comment)", "[bracket]", "semi;colon", "a:b", "<Ana>", "Ana <ana@x.org>",
    "=?utf-8?q?Ana?=", "José", "José, Ana", "Ünïcødé \"q\" \\ , @ 🎲 张", "张伟", "山田 太郎",
    "山田、太郎", "李「小龍」", "Ana 🎲", "🎲", '🎲"🎲', "👩‍👩‍👧 family", "Ａｎａ", "  spaced  ",
    " ", "Eve\r\nBcc: everyone@example.net\x00", "tab\tname", "bidi\u202egnp.exe",
    "x" * 80, "x" * 200, ("Ana María José " * 12).strip(), "a" * 77 + " " + "b" * 77,
    "张" * 80, "张 " * 50, "🎲" * 60, "é" * 70 + ", " + "x" * 30, '"' * 40 + "\\" * 40,
]
# What the edge stores (``validation.one_address``): ASCII, tags, apostrophes, an IDN domain,
# a non-ASCII local part.
ADDRESSES = [validation.one_address(a) for a in (
    "p1@example.com", "ana.maria+chasqui@example.org", "o'brien@example.ie",
    "jugador0@ñandú.example", "josé@例子.广告", "用户@例子.广告", "x@xn--and-6ma2c.example")]


def to_header(value: str, utf8: bool) -> bytes:
    """The To header's bytes in a game mail, as ``compose`` sets it (its policy), written as
    the SMTP transport writes it (``utf8``: SMTPUTF8, for a non-ASCII address)."""
    message = EmailMessage(policy=MAIL_POLICY)
    message["To"] = value
    wire = message.as_bytes(policy=MAIL_POLICY.clone(utf8=utf8, linesep="\r\n"))
    return wire.split(b"\r\n\r\n", 1)[0]


@pytest.mark.parametrize("address", ADDRESSES)
def test_every_awkward_name_gives_the_to_header_the_hand_quoting_gave(address):
    for name in NAMES:
        assert recipient(name, address) == hand_quoted(name, address), name
        for utf8 in (False, True):
            assert to_header(recipient(name, address), utf8) == to_header(
                hand_quoted(name, address), utf8), (name, utf8)


def test_every_awkward_name_reads_back_as_one_recipient_and_specials_are_quoted():
    for name in NAMES:
        message = EmailMessage(policy=MAIL_POLICY)
        message["To"] = recipient(name, "p1@example.com")
        assert [a.addr_spec for a in message["To"].addresses] == ["p1@example.com"], name
    assert recipient("Ana, Bob", "p1@example.com") == '"Ana, Bob" <p1@example.com>'
    assert recipient('a\\"b', "p1@example.com") == '"a\\\\\\"b" <p1@example.com>'
    assert recipient("张伟 Ana", "p1@example.com") == "张伟 Ana <p1@example.com>"


def test_an_address_that_is_not_exactly_one_is_still_refused():
    for address in ("a@x.org, b@y.org", "a@x.org\r\nBcc: b@y.org", "Ana <a@x.org>", "nobody"):
        with pytest.raises(Unmailable):
            recipient("Ana", address)
