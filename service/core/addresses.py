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
