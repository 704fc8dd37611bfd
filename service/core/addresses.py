"""Mail addresses: validated with ``email-validator`` (syntax only: no DNS look-up, so a
form answers at once and works offline) and normalised into the key of an account."""
from __future__ import annotations

from email_validator import EmailNotValidError, validate_email

from engine.text import phrase
from service.core.refusals import Refusal

MAX_ADDRESS = 254


class BadAddress(Refusal, ValueError):
    """Not a usable mail address; the message says why."""


def normalise(raw: str | None) -> str:
    """The account key of an address: validated, then lower-cased as a whole (mail providers
    treat the local part case-insensitively in practice, and one person must not get two
    accounts by typing ``Ana@`` and ``ana@``)."""
    text = (raw or "").strip()
    if not text:
        raise BadAddress(phrase("give a mail address"))
    if len(text) > MAX_ADDRESS or any(c in text for c in "\r\n"):
        raise BadAddress(phrase("{address} is not a valid mail address", address=repr(text[:60])))
    try:
        valid = validate_email(text, check_deliverability=False)
    except EmailNotValidError as error:
        raise BadAddress(phrase("{address} is not a valid mail address: {error}",
                                address=repr(text[:60]), error=str(error))) from None
    return valid.normalized.lower()


def person_key(address: str) -> str:
    """Who an address reaches, as far as a game's seats are concerned: the address lowered as
    a whole and without a ``+tag`` in its local part, so ``Olga+alt@x`` and ``olga@x`` are one
    person.  A seat is held by a person, not a string: one person may not hold two seats, and
    an admin whose address is a seat's in this sense plays in that game.  Dots and other
    provider-specific spellings are left alone: only case and ``+tag`` are folded."""
    text = (address or "").strip().lower()
    local, at, domain = text.rpartition("@")
    if not at:
        return text
    untagged = local.split("+", 1)[0]
    return f"{untagged or local}@{domain}"


def same_person(first: str, second: str) -> bool:
    return person_key(first) == person_key(second)


def one_seat_each(address: str):
    """The refusal of a game in which ``address``'s person would hold a second seat."""
    return phrase("{address} is in the game twice", address=address)


def first_repeated_person(addresses: list[str]) -> str | None:
    """The first address in ``addresses`` whose person an earlier one already names."""
    seen: set[str] = set()
    for address in addresses:
        key = person_key(address)
        if key in seen:
            return address
        seen.add(key)
    return None
