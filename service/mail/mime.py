"""The MIME tree of a text + HTML mail, made without the email package's generic machinery.

``build_message`` used to make it with ``EmailMessage.set_content``/``add_alternative``/
``set_boundary``: each call parses and re-parses Content-* headers, every fresh header value
(To, Message-ID, Date, ...) goes through the header registry's parser and, when written,
through its folder, and ``quoprimime.body_encode`` maps the HTML part one character at a time.
That was about a third of a worker's CPU per mail (issue 9).

``alternative`` makes the same tree directly: the same headers in the same order, the same
payload strings, the same transfer encodings chosen by the same rule, and so the email
package's own generator (``smtplib.send_message``, ``as_string``, ``as_bytes``) writes the
very same bytes.  Two shortcuts carry the speed, each taken only where it is exact:

- a header whose value is plain ASCII of a shape the registry's parser gives back unchanged
  (an atom phrase and address, a dot-atom Message-ID, a Date as ``format_datetime`` writes it,
  words of visible ASCII) and that fits on one line is stored as its source (``set_raw``):
  the policy writes a source header as ``Name: value``, which is what folding its parse gives;
  anything else is parsed by the policy as before;
- ``encode_text`` is ``email.contentmanager``'s choice of 7bit / 8bit / quoted-printable /
  base64 with a quoted-printable encoder that works on bytes (``qp_body``).

``reference_alternative`` is the old way, kept as the reference the tests compare bytes with,
and used for any policy the shortcuts were not checked for."""
from __future__ import annotations

import binascii
import codecs
import functools
import re
from email.headerregistry import AddressHeader, DateHeader, MessageIDHeader, UnstructuredHeader
from email.message import EmailMessage
from email.utils import format_datetime, parsedate_to_datetime

from service.core.kept import Kept

# --- headers ---------------------------------------------------------------------------------

_WORDS = re.compile(r"[!-~]+(?: [!-~]+)*\Z")  # visible ASCII words, single spaces
_DOT_ATOM = r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*"
_DOMAIN = r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
_ADDRESS = re.compile(
    rf"(?:[A-Za-z0-9]+(?: [A-Za-z0-9]+)* <{_DOT_ATOM}@{_DOMAIN}>|{_DOT_ATOM}@{_DOMAIN})\Z")
_MESSAGE_ID = re.compile(rf"<{_DOT_ATOM}@{_DOMAIN}>\Z")
_DATE = re.compile(r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug"
                   r"|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d [+-]\d{4}\Z")


def plain_header(policy, name: str, value: str) -> bool:
    """True when ``Name: value`` on one line is exactly what ``policy`` writes for the header
    parsed from ``value``, so the value can be stored as its source.

    Folding a parsed header writes its parse tree's text, which for these shapes is the value
    itself (no encoded-word to decode, no quoting to undo, no comment, no space to fold), and
    puts it on the first line when ``Name: value`` fits in ``max_line_length``."""
    if type(value) is not str or not value.isascii():
        return False
    if len(name) + 2 + len(value) > (policy.max_line_length or 10 ** 9):
        return False
    kind = policy.header_factory[name]
    if issubclass(kind, UnstructuredHeader):
        return _WORDS.match(value) is not None and "=?" not in value
    if issubclass(kind, AddressHeader):
        return _ADDRESS.match(value) is not None
    if issubclass(kind, MessageIDHeader):
        return _MESSAGE_ID.match(value) is not None
    if issubclass(kind, DateHeader):  # the header keeps format_datetime of what it read
        return _DATE.match(value) is not None and format_datetime(parsedate_to_datetime(value)) == value
    return False


class HeaderList:
    """Headers in the order they are set, each as (name, value, raw): what ``EmailMessage``'s
    ``msg[name] = value`` (raw False) or ``set_raw`` (raw True) would have been given."""

    def __init__(self):
        self.items: list[tuple[str, str, bool]] = []

    def __setitem__(self, name: str, value: str) -> None:
        self.items.append((name, value, False))

    def set_raw(self, name: str, value: str) -> None:
        self.items.append((name, value, True))


# plain_header of the headers that repeat from mail to mail (From, Subject, List-Id, the Date of
# one event's mails, ...): its regular expressions, and for a Date a parse and a format, once.
# Policies are immutable and hash by identity, so (policy, name, value) fixes the answer.
_plain_header = functools.lru_cache(maxsize=4096)(plain_header)


def _set_headers(message: EmailMessage, headers: HeaderList) -> None:
    policy = message.policy
    for name, value, raw in headers.items:
        if raw:
            message.set_raw(name, value)
        elif type(value) is str and _plain_header(policy, name, value):
            message.set_raw(name, value)
        else:
            message.set_raw(*policy.header_store_parse(name, value))


def _unique_names(headers: HeaderList) -> bool:
    """``msg[name] = value`` refuses a second header of a unique kind (To, Subject, ...); the
    direct way does not check, so a list with a name twice takes the reference way."""
    names = [name.lower() for name, _, _ in headers.items]
    return len(set(names)) == len(names)


# --- bodies ----------------------------------------------------------------------------------

_ESCAPED = re.compile(rb"[^\t\n\r -~]+")  # once "=" is "=3D": the bytes body_encode escapes


def _escape(match) -> bytes:
    return b"=" + match.group().hex("=").upper().encode("ascii")


def _quote(c: str) -> str:
    return "=%02X" % ord(c)


def _escape_high(error: UnicodeDecodeError) -> tuple[str, int]:
    """The ``chasqui-qp-escape`` decoding error handler: a run of bytes over 127 as ``=XX`` escapes."""
    data, end = error.object, error.start
    while end < len(data) and data[end] > 127:
        end += 1
    return "=" + data[error.start:end].hex("=").upper(), end


codecs.register_error("chasqui-qp-escape", _escape_high)

# The bytes that are neither escaped by quoted-printable nor over 127 (once "=" is "=3D").
_UNESCAPED_OR_HIGH = bytes([9, 10, 13, *range(32, 127), *range(128, 256)])


def _escaped(data: bytes) -> str:
    """``data`` with "=" and every byte ``_ESCAPED`` matches escaped.  A mail's text has a few
    non-ASCII characters (·, —, names) and no control characters: then the ASCII decoder
    copies it in C and calls ``_escape_high`` once per non-ASCII run, where the regex
    stepped through every byte (a third of encoding a mail's HTML part).  Any control
    character takes the regex."""
    data = data.replace(b"=", b"=3D")
    if data.translate(None, _UNESCAPED_OR_HIGH):
        return _ESCAPED.sub(_escape, data).decode("ascii")
    return data.decode("ascii", "chasqui-qp-escape")


def qp_body(data: bytes, maxlinelen: int) -> str:
    """``quoprimime.body_encode(data.decode('latin-1'), maxlinelen)`` for ``data`` whose lines
    end in ``\\n`` only (what ``_encode_text`` gives it with a ``\\n`` policy): the escapes are
    made on bytes in C (``_escaped``), the soft line breaks by body_encode's own loop.  Each
    line is encoded on its own, so the encoding of data made of whole lines is the
    concatenation of their encodings (``encode_text`` relies on it).

    Which is also why each line's encoding is remembered (issue 9, round 6): most lines of a
    mail's HTML are the template's and the game's markup, the same from mail to mail (nine in
    ten, measured on the bench's start mails), so a line is looked up, not encoded again.  A
    ``\\r`` would end a line for body_encode but not for this split: data with one is encoded
    whole."""
    if not data:
        return ""
    if b"\r" in data:
        return _qp_escaped(_escaped(data), maxlinelen)
    return "\n".join(_qp_lines(data.split(b"\n"), maxlinelen))  # a final b"" for the last break


def _qp_lines(lines: list[bytes], maxlinelen: int) -> list[str]:
    """The encodings of ``lines`` (no ``\\r`` or ``\\n`` in any), each as ``qp_body`` encodes
    a line, remembered."""
    known = _QP_LINES.get(maxlinelen)
    if known is None:
        known = _QP_LINES[maxlinelen] = Kept(
            lambda line: _qp_escaped(_escaped(line), maxlinelen) if line else "", 10000)
    return [known[line] for line in lines]


# {maxlinelen: {line: its encoding}}, each bounded (a few MB of text: a mail brings ~10 lines
# of its own, links and names).
_QP_LINES: dict[int, Kept] = {}


def _qp_escaped(body: str, maxlinelen: int) -> str:
    """body_encode's soft line breaks of ``body``, escaped already."""
    soft_break = "=\n"
    maxlinelen1 = maxlinelen - 1
    encoded_body: list[str] = []
    append = encoded_body.append
    for line in body.splitlines():
        if len(line) <= maxlinelen and (not line or line[-1] not in " \t"):
            append(line)  # the common case: body_encode's loop would do nothing else
            continue
        start = 0
        laststart = len(line) - 1 - maxlinelen
        while start <= laststart:
            stop = start + maxlinelen1
            if line[stop - 2] == "=":
                append(line[start:stop - 1])
                start = stop - 2
            elif line[stop - 1] == "=":
                append(line[start:stop])
                start = stop - 1
            else:
                append(line[start:stop] + "=")
                start = stop
        if line and line[-1] in " \t":
            room = start - laststart
            if room >= 3:
                q = _quote(line[-1])
            elif room == 2:
                q = line[-1] + soft_break
            else:
                q = soft_break + _quote(line[-1])
            append(line[start:-1] + q)
        else:
            append(line[start:])
    if body[-1] in "\r\n":
        append("")
    return "\n".join(encoded_body)


def _base64_body(data: bytes, max_line_length: int) -> str:
    """``email.contentmanager._encode_base64``."""
    step = max_line_length // 4 * 3
    return "".join(binascii.b2a_base64(data[i:i + step]).decode("ascii")
                   for i in range(0, len(data), step))


def encode_text(string: str, policy) -> tuple[str, str]:
    """(Content-Transfer-Encoding, payload) of ``string`` in UTF-8, chosen as
    ``email.contentmanager.set_text_content`` chooses them (``_encode_text`` with no cte asked)
    under a policy whose ``linesep`` is ``\\n``."""
    lines = string.encode("utf-8").splitlines()
    normal = b"\n".join(lines) + b"\n"
    maxlen = policy.max_line_length
    if max(map(len, lines), default=0) <= maxlen:
        try:
            return "7bit", normal.decode("ascii")
        except UnicodeDecodeError:
            pass
        if policy.cte_type == "8bit":
            return "8bit", normal.decode("ascii", "surrogateescape")
    # qp_body of lines joined (each ended by a line break), encoded line by line without being
    # joined and split again: after ``splitlines`` no line holds a line break (see qp_body)
    sniff_qp = "\n".join(_qp_lines(lines[:10], maxlen)) + "\n"
    if len(sniff_qp) > len(binascii.b2a_base64(b"\n".join(lines[:10]) + b"\n")):
        return "base64", _base64_body(normal, maxlen)
    if len(lines) <= 10:
        return "quoted-printable", sniff_qp
    # qp_body(normal): the sniff's encoding, then the other lines' (see qp_body)
    return "quoted-printable", sniff_qp + "\n".join(_qp_lines(lines[10:], maxlen)) + "\n"


# --- the tree --------------------------------------------------------------------------------

_BOUNDARY = re.compile(r"[0-9A-Za-z_=.-]{1,60}\Z")


def _checked_policy(policy) -> bool:
    """The shortcuts were checked against the email package for these settings (those of
    ``service.mail.compose.MAIL_POLICY`` and ``email.policy.default``)."""
    return (isinstance(policy.max_line_length, int) and 20 <= policy.max_line_length <= 998
            and policy.linesep == "\n" and not policy.utf8 and policy.cte_type in ("8bit", "7bit")
            and hasattr(policy, "header_factory"))


def _content_type(policy, boundary: str):
    """The root's Content-Type as ``set_boundary`` leaves it, stored as its source folded the
    way the policy folds a MIME parameter (``_fold_mime_parameters``: on the first line when
    it fits there, else on a line of its own) for a boundary that needs no quoting; else
    parsed by the policy."""
    value = f'multipart/alternative; boundary="{boundary}"'
    if not _BOUNDARY.match(boundary):
        return policy.header_store_parse("Content-Type", value)[1]
    first = len("Content-Type: multipart/alternative;")
    parameter = len(boundary) + len('boundary=""')
    if first + 1 + parameter <= policy.max_line_length:  # it fits: written as it is
        return value
    if parameter + 2 <= policy.max_line_length:
        return f'multipart/alternative;\n boundary="{boundary}"'
    return policy.header_store_parse("Content-Type", value)[1]


def _text_part(policy, subtype: str, string: str, mime_version: bool) -> EmailMessage:
    cte, payload = encode_text(string, policy)
    part = EmailMessage(policy=policy)
    part.set_raw(*policy.header_store_parse("Content-Type", f'text/{subtype}; charset="utf-8"'))
    part.set_raw(*policy.header_store_parse("Content-Transfer-Encoding", cte))
    if mime_version:  # add_alternative's part is an EmailMessage: set_content adds it
        part.set_raw(*policy.header_store_parse("MIME-Version", "1.0"))
    part.set_payload(payload)
    return part


class Alternative(EmailMessage):
    """The root of a mail made by ``alternative``: it answers its content type and boundary
    from what it stored, rather than parsing its fresh Content-Type again each time a
    generator writes it (the generator asks both); once that header is replaced or gone,
    it asks the header like any message."""

    _stored: tuple | None = None  # (the Content-Type value stored, its boundary)

    def _own_content_type(self) -> bool:
        if self._stored is None:
            return False
        found = [value for name, value in self._headers if name.lower() == "content-type"]
        return len(found) == 1 and found[0] is self._stored[0]

    def get_content_type(self):
        return "multipart/alternative" if self._own_content_type() else super().get_content_type()

    def get_boundary(self, failobj=None):
        return self._stored[1] if self._own_content_type() else super().get_boundary(failobj)


def alternative(policy, headers: HeaderList, text: str, html: str, boundary: str,
                content_language: str) -> EmailMessage:
    """The mail ``reference_alternative`` makes, made directly (see the module's docstring)."""
    if not _checked_policy(policy) or not _unique_names(headers):
        return reference_alternative(policy, headers, text, html, boundary, content_language)
    message = Alternative(policy=policy)
    _set_headers(message, headers)
    message.set_raw(*policy.header_store_parse("MIME-Version", "1.0"))
    content_type = _content_type(policy, boundary)
    message.set_raw("Content-Type", content_type)
    if type(content_type) is str:  # stored as source; a parsed one answers for itself
        message._stored = (content_type, boundary)
    language = HeaderList()
    language["Content-Language"] = content_language
    _set_headers(message, language)
    message.attach(_text_part(policy, "plain", text, mime_version=False))
    message.attach(_text_part(policy, "html", html, mime_version=True))
    return message


def reference_alternative(policy, headers: HeaderList, text: str, html: str, boundary: str,
                          content_language: str) -> EmailMessage:
    """The email package's way, as ``build_message`` did it before ``alternative``."""
    message = EmailMessage(policy=policy)
    for name, value, raw in headers.items:
        if raw:
            message.set_raw(name, value)
        else:
            message[name] = value
    message.set_content(text)
    message.add_alternative(html, subtype="html")
    message["Content-Language"] = content_language
    message.set_boundary(boundary)
    return message
