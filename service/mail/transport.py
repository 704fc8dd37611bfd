"""Where a built message goes: an SMTP server, or the embedded default's local mailbox."""
from __future__ import annotations

import functools
import io
import smtplib
import ssl
import threading
from datetime import datetime
from email.generator import NLCRE, BytesGenerator
from email.message import EmailMessage
from email.utils import _has_surrogates, getaddresses
from urllib.parse import parse_qs, unquote, urlparse

from sqlalchemy.orm import Session

from service.store.models import LocalMailRow


class TemporaryFailure(Exception):
    """Try again later (4xx, connection refused, time-out)."""


class PermanentFailure(Exception):
    """Never try again (5xx): the address bounced."""


class SmtpTransport:
    """SMTP with one connection kept open between messages (a worker sends many in a row;
    a new connection per mail costs a quarter of the delivery time).  A connection the server
    dropped is re-opened once; any failure closes it, so the next mail starts clean.

    ``overlapping``: sends are serialised by a lock and need no database session, so a batch
    may hand them to a thread and build its next mail meanwhile (``delivery._Sends``)."""

    overlapping = True

    def __init__(self, url: str, timeout: float = 20.0):
        parts = urlparse(url)
        self.scheme = parts.scheme
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or (465 if parts.scheme == "smtps" else 25)
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.starttls = parse_qs(parts.query).get("starttls", ["0"])[0] in ("1", "true", "yes")
        self.timeout = timeout
        self._smtp: smtplib.SMTP | None = None
        self._lock = threading.Lock()

    def send(self, message: EmailMessage, _session: Session | None = None, _now=None) -> None:
        with self._lock:
            try:
                self._send_reusing(message)
            except smtplib.SMTPRecipientsRefused as error:
                self._reset()
                codes = [code for code, _ in error.recipients.values()]
                raise _classify(min(codes), str(error.recipients)) from error
            except smtplib.SMTPResponseException as error:
                self.close()
                raise _classify(error.smtp_code, error.smtp_error) from error
            except (OSError, smtplib.SMTPException) as error:
                self.close()
                raise TemporaryFailure(f"{type(error).__name__}: {error}") from error

    def _send_reusing(self, message: EmailMessage) -> None:
        wire = wire_form(message)
        if self._smtp is not None:
            try:
                _send(self._smtp, message, wire)
                return
            except (smtplib.SMTPServerDisconnected, ConnectionError):
                self.close()  # the server closed an idle connection: open a new one
        self._smtp = self._open()
        _send(self._smtp, message, wire)

    def _open(self) -> smtplib.SMTP:
        smtp = (_SmtpSsl(self.host, self.port, timeout=self.timeout)
                if self.scheme == "smtps" else _Smtp(self.host, self.port, timeout=self.timeout))
        try:
            if self.starttls:
                smtp.starttls(context=ssl.create_default_context())
            if self.user:
                smtp.login(self.user, self.password or "")
        except BaseException:
            smtp.close()
            raise
        return smtp

    def _reset(self) -> None:
        try:
            if self._smtp is not None:
                self._smtp.rset()
        except (OSError, smtplib.SMTPException):
            self.close()

    def close(self) -> None:
        if self._smtp is not None:
            try:
                self._smtp.quit()
            except (OSError, smtplib.SMTPException):
                self._smtp.close()
            self._smtp = None


def quote_periods(data: bytes) -> bytes:
    """``smtplib._quote_periods``: every "." that starts a line doubled (RFC 5321 4.5.2), where
    a line starts at the beginning and after each ``\\n`` (the regex's multiline ``^``)."""
    if data.startswith(b"."):
        data = b"." + data
    return data.replace(b"\n.", b"\n..")


class _QuickerSteps:
    """``smtplib.SMTP``'s MAIL, RCPT and DATA steps, writing the same commands and bytes with
    two costs cut (issue 9, round 7; ~10 % and ~5 % of a mail's instructions in the worker):

    - DATA: the periods that start a line are doubled by ``quote_periods`` (a replace), where
      smtplib's ``re.sub(br'(?m)^\\.', ...)`` tried its pattern at every byte of the message;
    - MAIL and RCPT: the address in angle brackets is smtplib's ``quoteaddr``, remembered per
      address (a pure function of the text: a full ``parseaddr`` twice per mail, though the
      sender and a player's address recur from mail to mail).

    A text message (``str``) and SMTPUTF8 still take smtplib's own ways."""

    def mail(self, sender, options=()):
        if options and self.does_esmtp:
            if any(option.lower() == "smtputf8" for option in options):
                return super().mail(sender, options)
            self.putcmd("mail", "FROM:%s %s" % (_quoteaddr(sender), " ".join(options)))
        else:
            self.putcmd("mail", "FROM:%s" % _quoteaddr(sender))
        return self.getreply()

    def rcpt(self, recip, options=()):
        if options and self.does_esmtp:
            self.putcmd("rcpt", "TO:%s %s" % (_quoteaddr(recip), " ".join(options)))
        else:
            self.putcmd("rcpt", "TO:%s" % _quoteaddr(recip))
        return self.getreply()

    def data(self, msg):
        if not isinstance(msg, bytes):
            return super().data(msg)
        self.putcmd("data")
        code, reply = self.getreply()
        if self.debuglevel > 0:
            self._print_debug("data:", (code, reply))
        if code != 354:
            raise smtplib.SMTPDataError(code, reply)
        quoted = quote_periods(msg)
        if quoted[-2:] != b"\r\n":
            quoted += b"\r\n"
        self.send(quoted + b".\r\n")
        code, reply = self.getreply()
        if self.debuglevel > 0:
            self._print_debug("data:", (code, reply))
        return code, reply


_quoteaddr = functools.lru_cache(maxsize=4096)(smtplib.quoteaddr)


class _Smtp(_QuickerSteps, smtplib.SMTP):
    pass


class _SmtpSsl(_QuickerSteps, smtplib.SMTP_SSL):
    pass


def _send(smtp: smtplib.SMTP, message: EmailMessage, wire: tuple | None) -> None:
    if wire is None:
        smtp.send_message(message)
    else:
        smtp.sendmail(*wire)


# Headers that make smtplib.send_message pick its envelope or drop lines another way.
_OTHER_ENVELOPE = ("resent-date", "sender", "cc", "bcc", "resent-bcc")


def wire_form(message: EmailMessage) -> tuple[str, list[str], bytes] | None:
    """(envelope sender, recipients, bytes): what ``smtplib.SMTP.send_message(message)`` hands
    to ``sendmail``, for a message with From and To only (no Sender, Cc, Bcc or Resent-*
    headers) and ASCII addresses; None for any other, which ``send_message`` then sends.

    The same steps with their costs cut (issue 9, round 5): the envelope addresses are parsed
    from the From and To values once per value (``getaddresses`` is a pure function of the
    text; a player's address and the sender recur from mail to mail), and the message is
    written by ``_LinesAtOnce``, whose regular expressions over each body (a tenth of a
    mail's CPU) run only where they can change something; a text + HTML mail with nothing
    to mangle, by ``_flat_multipart`` (round 6), without a generator at all."""
    names = {name.lower() for name in message.keys()}
    if not names.isdisjoint(_OTHER_ENVELOPE):
        return None
    sender = _addresses((str(message["From"]),))[0]  # getaddresses writes None as "None"
    to = message["To"]
    recipients = list(_addresses((str(to),))) if to is not None else []
    if not "".join([sender, *recipients]).isascii():
        return None  # SMTPUTF8: send_message's own way
    mangle = _from_lines_possible(message)
    flat = None if mangle else _flat_multipart(message)
    if flat is not None:
        return sender, recipients, flat
    with io.BytesIO() as out:
        _LinesAtOnce(out, mangle_from_=mangle).flatten(message, linesep="\r\n")
        return sender, recipients, out.getvalue()


@functools.lru_cache(maxsize=4096)
def _addresses(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(address for _, address in getaddresses(list(values)))


def _from_lines_possible(message: EmailMessage) -> bool:
    """Whether the generator's "From " mangling (``>From`` at a line start, which
    ``send_message``'s generator does) could change a text of the message: not when no body,
    preamble or epilogue holds "From " at all and each is plain ASCII (a text with
    surrogates is re-encoded by the generator before it is mangled)."""
    for part in message.walk():
        for text in (part._payload, part.preamble, part.epilogue):
            if text is None or type(text) is list:
                continue
            if type(text) is not str or not text.isascii() or "From " in text:
                return True
    return False


def _flat_multipart(message: EmailMessage) -> bytes | None:
    """What ``BytesGenerator(mangle_from_=False).flatten(message, linesep="\\r\\n")`` writes,
    for a multipart message (not ``multipart/signed``) with a boundary, no preamble or epilogue,
    whose parts are text parts (not multipart) with a text payload; None for any other
    message, which the generator then writes.

    The generator's steps for that shape, without its objects (issue 9, round 6: a generator,
    a policy clone and a buffer per part, and the dispatch on content types, were half the
    cost of writing a mail): each part is its headers, each written by the policy's
    ``fold_binary`` (the generator's call, so every fold is the policy's own), a line break,
    and its payload with its line endings made CRLF (``_LinesAtOnce``); the root is its
    headers, a line break, and the parts between ``--boundary`` lines, closed by
    ``--boundary--``.  The payload is written as the generator writes it (ASCII, surrogates
    as the bytes they stand for), under a 7bit policy only when it has no surrogates (the
    generator re-encodes those)."""
    parts = message._payload
    if (type(parts) is not list or message.preamble is not None or message.epilogue is not None
            or message.get_content_maintype() != "multipart"
            or message.get_content_subtype() == "signed"):
        return None
    boundary = message.get_boundary()
    if not boundary:
        return None
    policy = _crlf_policy(message.policy)
    seven_bit = policy.cte_type == "7bit"
    written = []
    for part in parts:
        payload = part._payload
        if (type(payload) is not str or part.preamble is not None or part.epilogue is not None
                or part.get_content_maintype() != "text"
                or (seven_bit and not payload.isascii() and _has_surrogates(payload))):
            return None
        written.append(_headers(part, policy) + _crlf(payload).encode("ascii", "surrogateescape"))
    start = f"--{boundary}\r\n".encode("ascii", "surrogateescape")
    between = f"\r\n--{boundary}\r\n".encode("ascii", "surrogateescape")
    end = f"\r\n--{boundary}--\r\n".encode("ascii", "surrogateescape")
    return _headers(message, policy) + start + between.join(written) + end


def _headers(message: EmailMessage, policy) -> bytes:
    """The generator's ``_write_headers``: each header folded by the policy, then CRLF (the
    mail's policy, ``mail.MemoPolicy``, remembers its folds)."""
    return b"".join([policy.fold_binary(name, value) for name, value in message.raw_items()]
                    + [b"\r\n"])


def _crlf(text: str, linesep: str = "\r\n") -> str:
    """The generator's line endings of ``text``: the regular expression (``\\r\\n``,
    ``\\r`` or ``\\n``) only when it has a carriage return, else a plain replace of
    ``\\n``."""
    return NLCRE.sub(linesep, text) if "\r" in text else text.replace("\n", linesep)


_CRLF_POLICIES: dict = {}


def _crlf_policy(policy):
    """``policy.clone(linesep="\\r\\n")``, as the generator makes it for each part, made once
    per policy (policies are immutable, and a clone folds as any other with its settings)."""
    clone = _CRLF_POLICIES.get(policy)
    if clone is None:
        clone = _CRLF_POLICIES[policy] = policy.clone(linesep="\r\n")
    return clone


class _LinesAtOnce(BytesGenerator):
    """``BytesGenerator`` whose ``_write_lines`` writes the text in one piece with its line
    endings made the generator's (``_crlf``): the same bytes as one ``write`` per line and
    per line ending."""

    def _write_lines(self, lines):
        if lines:
            self.write(_crlf(lines, self._NL))


def _classify(code: int, text) -> Exception:
    detail = text.decode(errors="replace") if isinstance(text, bytes) else str(text)
    if 500 <= code < 600:
        return PermanentFailure(f"{code} {detail}")
    return TemporaryFailure(f"{code} {detail}")


class LocalMailbox:
    """Stores the message in the database (same transaction as marking the row sent)."""

    def send(self, message: EmailMessage, session: Session, now: datetime) -> None:
        if session.query(LocalMailRow).filter_by(message_id=message["Message-ID"]).first():
            return
        session.add(LocalMailRow(message_id=message["Message-ID"], to_addr=_address(message["To"]),
                                 subject=str(message["Subject"]), raw=message.as_string(),
                                 created_at=now))


def _address(header: str) -> str:
    return header.rsplit("<", 1)[-1].rstrip(">").strip()
