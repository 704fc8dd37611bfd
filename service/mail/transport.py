"""Where a built message goes: an SMTP server, or the embedded default's local mailbox."""
from __future__ import annotations

import smtplib
import ssl
import threading
from datetime import datetime
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlparse

from service.store import mail_reads
from service.store.db import Session
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
        if self._smtp is not None:
            try:
                self._smtp.send_message(message)
                return
            except (smtplib.SMTPServerDisconnected, ConnectionError):
                self.close()  # the server closed an idle connection: open a new one
        self._smtp = self._open()
        self._smtp.send_message(message)

    def _open(self) -> smtplib.SMTP:
        smtp = (smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout)
                if self.scheme == "smtps" else smtplib.SMTP(self.host, self.port, timeout=self.timeout))
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


def _classify(code: int, text) -> Exception:
    detail = text.decode(errors="replace") if isinstance(text, bytes) else str(text)
    if 500 <= code < 600:
        return PermanentFailure(f"{code} {detail}")
    return TemporaryFailure(f"{code} {detail}")


class NoTransport:
    """No SMTP server, and the local mailbox is not served (a public base URL): a mail has
    nowhere to go.  It is not dropped: the row stays in the outbox as a relay's temporary
    failure leaves it (retried with backoff, then failed), its error on the game page's mail
    status, so setting ``CHASQUI_SMTP_URL`` sends what is still pending."""

    def send(self, message: EmailMessage, session: Session, now: datetime) -> None:
        raise TemporaryFailure("not sent: no SMTP server is configured (CHASQUI_SMTP_URL) and "
                               "the local mailbox is closed to a public base URL")


class LocalMailbox:
    """Stores the message in the database (same transaction as marking the row sent)."""

    def send(self, message: EmailMessage, session: Session, now: datetime) -> None:
        if mail_reads.local_copy(session, message["Message-ID"]) is not None:
            return
        session.add(LocalMailRow(message_id=message["Message-ID"], to_addr=_address(message["To"]),
                                 subject=str(message["Subject"]), raw=message.as_string(),
                                 created_at=now))


def _address(header: str) -> str:
    return header.rsplit("<", 1)[-1].rstrip(">").strip()
