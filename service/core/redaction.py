"""No seat secret in a log line: every link that lets its holder act or read as someone is
cut out of what the service logs.

Why a filter and not care at each call: the web process's access log (werkzeug's request
line, ``"GET /play/<secret>/... HTTP/1.1" 200``) is written by the server, not by our code, and
one short game writes a seat's secret into it a hundred times; a log is read, kept and shipped
by people who must not be able to play as anyone.  ``SecretRedactor`` is a ``logging.Filter``
(the documented hook for changing a record before it is written); ``install`` puts it on the
werkzeug logger and on the process's handlers, so every record that reaches an output has
its message formatted and the secrets replaced."""
from __future__ import annotations

import logging
import re

REDACTED = "[redacted]"
# The path prefixes whose next segment is a secret: a seat's link, a sign-in, an invitation,
# a seat offer, an address's own pages and feeds, a spectator's link.
SECRET_PATHS = ("play", "signin", "invite", "seat-offer", "me", "unsubscribe", "watch",
                "calendar", "feeds")
_SECRET_SEGMENT = re.compile(r"(/(?:%s)/)[^/\s?#\"'<>]+" % "|".join(map(re.escape, SECRET_PATHS)))
# A reply address's token (``play+<token>@…``): it names a seat and authorises its mail.
_REPLY_TOKEN = re.compile(r"\+[0-9a-fA-F]{2,64}-\d{1,3}-[0-9a-fA-F]{20}@")


def redact(text: str) -> str:
    """``text`` with every secret path segment and reply token replaced by ``REDACTED``."""
    text = _SECRET_SEGMENT.sub(lambda found: found.group(1) + REDACTED, text)
    return _REPLY_TOKEN.sub("+" + REDACTED + "@", text)


class SecretRedactor(logging.Filter):
    """Formats a record's message once and keeps it only with its secrets redacted, and its
    traceback too (an exception's text may quote a link); the record is never dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001  a malformed record is left to the handler's report
            return True
        cleaned = redact(message)
        if cleaned != message or record.args:
            record.msg, record.args = cleaned, ()
        if record.exc_info and not record.exc_text:  # a Formatter keeps a text set here
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


REDACTOR = SecretRedactor()
# The loggers whose records a server creates itself: werkzeug's request lines (the development
# server) and gunicorn's access log (the Procfile's ``--access-logfile -``: its lines hold the
# path and the Referer, a play page's address) and error log.
SERVER_LOGGERS = ("werkzeug", "gunicorn.access", "gunicorn.error")


def install(*loggers: logging.Logger) -> None:
    """Put the filter on the servers' loggers (their request lines are created there), on
    ``loggers`` and on every handler of the root logger (any record that propagates to an
    output); calling it again adds nothing."""
    for logger in (*map(logging.getLogger, SERVER_LOGGERS), *loggers):
        if REDACTOR not in logger.filters:
            logger.addFilter(REDACTOR)
    for handler in logging.getLogger().handlers:
        if REDACTOR not in handler.filters:
            handler.addFilter(REDACTOR)
