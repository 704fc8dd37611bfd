"""Header values made from stored rows: one line each, and exactly one recipient.

Input is validated where it enters (``service.core.validation``), but rows written before that
existed may hold a name with a line break or a NUL, or an address that is two.  A name is
only shown, so it is made one line (its control characters become spaces) and the mail goes
out.  An address decides who receives the mail, so one that is not exactly one address is
never repaired by guessing: the mail is refused (``Unmailable``) and its outbox row says so
(``delivery.fault``), while every other row goes on."""
from __future__ import annotations

import re
from email.headerregistry import Address

from engine.text import phrase
from service.core.refusals import Refusal
from service.core.validation import BIDI_CONTROLS, LINE_BREAKS

_CONTROLS = "\x00-\x1f\x7f-\x9f" + "".join(sorted(BIDI_CONTROLS | LINE_BREAKS))
_CONTROL = re.compile(f"[{_CONTROLS}]")
# A second address, a display-name form or a header break in what must be one addr-spec.
_NOT_ONE_ADDRESS = re.compile(f"[{_CONTROLS}\\s,;<>\"]")


class Unmailable(Refusal, ValueError):
    """A stored value no mail can carry.  Its text names no game content, so the admins'
    mail status may show it as it is (``last_error`` keeps its English)."""


def one_line(text: str) -> str:
    """``text`` with every control character (CR, LF, NUL, C1, bidi overrides) as a space."""
    return _CONTROL.sub(" ", text) if _CONTROL.search(text) else text


def one_address(address: str) -> str:
    """``address`` when it is one addr-spec; else ``Unmailable``."""
    if address.count("@") != 1 or _NOT_ONE_ADDRESS.search(address):
        raise Unmailable(phrase("the stored address is not exactly one mail address (a control "
                                "character, a space or a list); correct the seat's address"))
    return address


def recipient(name: str, address: str) -> str:
    """The To header's value: the name on one line and exactly one address, formatted by
    ``Address`` (a name holding an RFC 5322 special is quoted, or a parser reads
    "Ana, bob@example.net" or "Eve Bcc: x@example.net" as more than one name; a plain name
    is written as it is).  The address is given as its two parts: ``addr_spec`` would be
    parsed, and the parser refuses a non-ASCII local part, which the edge accepts."""
    local, domain = one_address(address).split("@")
    return str(Address(one_line(name), local, domain))
