"""A stored mail read back for the embedded default's mailbox page: its headers and the
text of its plain and HTML parts (the web room shows them; only the mail room reads mail)."""
from __future__ import annotations

import email
from dataclasses import dataclass
from email import policy


@dataclass(frozen=True)
class StoredMail:
    headers: list[tuple[str, str]]
    html: str | None  # the HTML part's text, None when the mail has none
    text: str  # the plain part's text, "" when the mail has none


def read_stored(raw: str) -> StoredMail:
    """``raw`` as ``LocalMailbox`` stored it (``as_string``)."""
    message = email.message_from_string(raw, policy=policy.default)
    html = message.get_body(("html",))
    text = message.get_body(("plain",))
    return StoredMail(headers=list(message.items()),
                      html=html.get_content() if html is not None else None,
                      text=text.get_content() if text is not None else "")
