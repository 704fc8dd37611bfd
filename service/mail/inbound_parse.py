"""Reading a reply: who sent it, which of our mails it answers, and its first own line.

Quoted text and signatures are stripped by ``mail-parser-reply`` (it knows the "On … wrote:"
lines of many languages and mail clients); lines starting with ">" are dropped as well."""
from __future__ import annotations

import email
import hashlib
import html
import re
from dataclasses import dataclass
import email.errors
from email import policy
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr

from mailparser_reply import EmailReplyParser

from engine.text import phrase
from service.core.validation import BadInput, has_control, whole_number, without_controls

PARSER_LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "ja", "zh"]
# Our Message-IDs: <game.seq.seat.kind[.n]@domain> (see service.mail.message_ids).
OUR_ID = re.compile(r"<(?P<game>[A-Za-z0-9_-]+)\.(?P<seq>\d+)\.(?P<seat>None|\d+)\."
                    r"(?P<kind>[a-z_]+)(?:\.\d+)?@[^>]+>")
# A code alone ("B", "[b]", "B.") or a copied line of the mail ("[B] Leave for camp").
CODE_ALONE = re.compile(r"^\[?([A-Za-z]{1,3})\]?[.):!]?$")
CODE_BRACKETED = re.compile(r"^\[([A-Za-z]{1,3})\]")


class UnreadableMail(BadInput):
    """A mail no second delivery could make readable (a charset that does not exist, a
    malformed header of ours): refused for good -- a 400 to a webhook, a permanent SMTP
    refusal to a sending server -- never "try again later", and nothing is recorded."""


@dataclass
class Reply:
    message_id: str
    from_addr: str
    recipients: list[str]
    references: list[str]
    chasqui_seq: int | None
    text: str           # the player's own words: quotes and signature stripped
    automatic: bool     # an auto-reply (vacation notice, bounce): never answered
    subject: str = ""

    @property
    def first_line(self) -> str:
        for line in self.text.splitlines():
            if line.strip():
                return line.strip()
        return ""


def parse(raw: bytes) -> Reply:
    """The reply as plain, clean values: whatever a sender put in its headers, no control
    character (a NUL, a line break in a display name or an address) reaches a row, a log line
    or a header of the mail that answers it -- a header value holding one is taken as absent,
    the text keeps only its line breaks and tabs."""
    message: EmailMessage = email.message_from_bytes(raw, policy=policy.default)
    try:
        return _reply(message, raw)
    except UnreadableMail:
        raise
    except HEADER_CRASHES:  # the mail package's parser failing on a header a sender wrote
        raise UnreadableMail(phrase("the mail's headers cannot be read")) from None


# What Python's header registry raises, beyond its own errors, on some malformed headers (a
# group followed by an address in From, To or Cc: "list:; , ana@x"): a second delivery would
# fail the same way, so the mail is refused for good.
HEADER_CRASHES = (email.errors.MessageError, AttributeError, IndexError, TypeError, ValueError)


def _reply(message: EmailMessage, raw: bytes) -> Reply:
    message_id = (_header(message, "Message-ID")
                  or "<sha256." + hashlib.sha256(raw).hexdigest() + "@inbound>")
    from_addr = _clean(parseaddr(str(message.get("From") or ""))[1]).lower()  # never its name
    recipients = [_clean(addr) for _, addr in getaddresses(
        [str(v) for h in ("Delivered-To", "X-Original-To", "To", "Cc") for v in message.get_all(h, [])])]
    references = _ids(message, "References")
    in_reply_to = _ids(message, "In-Reply-To")
    auto = str(message.get("Auto-Submitted") or "no").strip().lower()
    precedence = str(message.get("Precedence") or "").strip().lower()
    automatic = (auto != "no" or precedence in ("bulk", "junk", "list", "auto_reply")
                 or not from_addr or from_addr.startswith(("mailer-daemon@", "postmaster@")))
    return Reply(message_id=message_id[:300], from_addr=from_addr, recipients=recipients,
                 references=in_reply_to + list(reversed(references)),
                 chasqui_seq=_seq_header(message),
                 text=without_controls(own_words(_readable_body(message)), "\n\t"),
                 automatic=automatic, subject=_header(message, "Subject"))


def _seq_header(message: EmailMessage) -> int | None:
    """The X-Chasqui-Seq header's number, None when absent; any other spelling ("²", "-1",
    23 digits) is refused, as a form's seq would be."""
    value = str(message.get("X-Chasqui-Seq") or "").strip()
    if not value:
        return None
    try:
        return whole_number(value, "X-Chasqui-Seq")
    except BadInput as error:
        raise UnreadableMail(error.say) from None


def _readable_body(message: EmailMessage) -> str:
    try:
        return body_text(message)
    except LookupError:  # a part's charset names no codec Python knows
        raise UnreadableMail(phrase("the mail's text is in a character set that does not "
                                    "exist")) from None


def _header(message: EmailMessage, name: str) -> str:
    """A header's (decoded) value, stripped; "" if it holds a control character."""
    return _clean(str(message.get(name) or ""))


def _ids(message: EmailMessage, name: str) -> list[str]:
    return [found for found in re.findall(r"<[^<>]+>", str(message.get(name) or ""))
            if not has_control(found)]


def _clean(value: str) -> str:
    value = value.strip()
    return "" if has_control(value) else value


def body_text(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    if part is not None:
        return part.get_content()
    part = message.get_body(("html",))
    if part is None:
        return ""
    markup = re.sub(r"(?is)<blockquote.*?</blockquote>", "", part.get_content())
    markup = re.sub(r"(?is)<(script|style).*?</\1>", "", markup)
    markup = re.sub(r"(?i)<br\s*/?>|</p>|</div>", "\n", markup)
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def own_words(text: str) -> str:
    text = text.replace("\r\n", "\n")
    if not text.strip():
        return ""
    parsed = EmailReplyParser(languages=PARSER_LANGUAGES).read(text)
    body = parsed.replies[0].body if parsed.replies else text
    lines = [line for line in body.splitlines() if not line.lstrip().startswith(">")]
    return "\n".join(lines).strip()


def replied_seq(reply: Reply, game_id: str, seat: int) -> int | None:
    """The seq of the mail this one answers: In-Reply-To, else the newest of our References
    for this game and seat, else an X-Chasqui-Seq header (kept by some webhook relays)."""
    for ref in reply.references:
        match = OUR_ID.fullmatch(ref)
        if match and match.group("game") == game_id and match.group("seat") == str(seat):
            return int(match.group("seq"))
    return reply.chasqui_seq


def match_action(line: str, actions: list[tuple[str, list[str]]]) -> tuple[int | None, bool]:
    """(index of the action the line names, whether the line looked like a code at all).

    ``actions`` are (code, labels) in the mail's order; labels compare case-insensitively, in
    any of the spellings given (the English one and the player's language)."""
    wanted = line.strip().casefold()
    for index, (_code, labels) in enumerate(actions):
        if any(wanted == label.strip().casefold() for label in labels if label):
            return index, True
    alone = CODE_ALONE.match(line.strip())
    match = alone or CODE_BRACKETED.match(line.strip())
    if not match:
        return None, False
    code = match.group(1).upper()
    for index, (candidate, _labels) in enumerate(actions):
        if candidate == code:
            return index, True
    # "B" when only A is offered is a wrong code; "Hi" among codes A..F is words for the table
    longest = max((len(candidate) for candidate, _ in actions), default=1)
    return None, len(code) <= longest
