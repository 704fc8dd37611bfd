"""The players' mails as witnesses of a game's hash chain.

Whoever holds the database can rewrite a game's whole history and recompute every hash: the
chain alone proves only that its events agree with each other.  So every mail that shows a
state of a game names the hash of the event at that state (its *fingerprint*,
``sha256:<64 hex>``), and a player who keeps their mails holds something the operator cannot
change afterwards.  ``/verify`` and ``verify-record`` take those mails (raw ``.eml`` text, text
pasted from a mail client, or the bare hashes) besides the record, and the check
``WITNESS_CHECK`` fails when a fingerprint a mail names is not the hash of an event in the
record: rewriting history then means fooling every player's inbox.

An invitation comes before the game, so it names no fingerprint but the commitment to the
service's secret the game was set up under (``commitment_token``): the record's GameCreated
must publish that one, or the secret was changed in the database before the game began.

Naming the hash leaks nothing: an event's hash covers its secret nonce, so it confirms no
guess about the event's content.  An event without a nonce (schema version 1) gets no
fingerprint in any mail for that reason (``fingerprint_of``).

Pure: no database, no clock; a witness is read from bytes or text with the standard ``email``
package, bounded in count and size, and nothing a hostile input holds can raise from here."""
from __future__ import annotations

import codecs
import email
import email.errors
import email.header
import json
import re
from dataclasses import dataclass
from typing import Any, Iterable

from service.store import randomness
from service.store.fairness import Verdict

PREFIX = "sha256:"
WITNESS_CHECK = "your mails"
MOST_WITNESSES = 200  # mails (or hash lists) one check reads
MOST_PARTS = 200  # MIME parts read of one mail
WITNESS_BYTES = 4 * 1024 * 1024  # one mail, as a file or text
MOST_SHOWN = 5  # problems a verdict spells out
SHOWN_NAME = 80  # characters of a mail's subject named in a verdict
HEX = re.compile(r"[0-9a-fA-F]{64}")
TOKEN = re.compile(r"(?<![0-9A-Za-z])sha256:([0-9a-fA-F]{64})(?![0-9A-Fa-f])")
BARE = re.compile(r"(?:sha256:)?[0-9a-fA-F]{64}")
# How an invitation names the commitment to the service's secret it was sent under: a player
# who keeps it holds, outside the server, what the game's GameCreated must publish.
COMMITMENT_PREFIX = "chasqui-commitment:"
COMMITMENT_TOKEN = re.compile(r"(?<![0-9A-Za-z])chasqui-commitment:([0-9a-f]{64})(?![0-9a-f])")
SEPARATORS = re.compile(r"[\s,;]+")


def fingerprint(event_hash: str) -> str:
    """How a mail names a chain's hash: ``sha256:`` and its 64 lowercase hex digits."""
    return PREFIX + event_hash.lower()


def commitment_token(secret: str | None) -> str | None:
    """How an invitation names the commitment to the service's secret ``secret`` (None for a
    pending game set up before the secret existed)."""
    if secret is None:
        return None
    return COMMITMENT_PREFIX + randomness.service_commitment(secret)


def fingerprint_of(event) -> str | None:
    """The fingerprint a mail showing the state at ``event`` names: its hash, when the hash
    covers a nonce; None for an event without one (its hash would confirm a guess of its
    content, such as another seat's secret choice)."""
    if getattr(event, "nonce", None) is None or not HEX.fullmatch(event.hash or ""):
        return None
    return fingerprint(event.hash)


@dataclass(frozen=True)
class Witness:
    """What one kept mail (or one list of hashes) says: the fingerprints it names, and how a
    verdict names it to the player."""
    name: str
    hashes: tuple[str, ...]
    game: str | None = None  # the game its X-Chasqui-Game header names, when it has one
    commitments: tuple[str, ...] = ()  # what an invitation said the service committed to


def read_witness(item: Any, number: int) -> Witness:
    """The fingerprints of one witness: a mail (RFC 5322 bytes or text, its text parts decoded
    whatever their transfer encoding), text pasted from a mail, or bare hashes.  ``number``:
    its place among those given, from 1, to name a witness that has no subject."""
    if not isinstance(item, (str, bytes)):
        return Witness(f"item {number} of what you gave (not text)", ())
    data = item.encode("utf-8", "replace") if isinstance(item, str) else item
    data = data[:WITNESS_BYTES]
    text = data.decode("utf-8", "replace")
    bare = _bare_hashes(text)
    if bare:
        return Witness(f"the fingerprints you gave (number {number})", bare)
    message = _message(data)
    texts = [text] + (_text_parts(message) if message is not None else [])
    hashes = _unique(h.lower() for t in texts for h in TOKEN.findall(t))
    commitments = _unique(c for t in texts for c in COMMITMENT_TOKEN.findall(t))
    return Witness(_name(message, number), hashes, _header(message, "X-Chasqui-Game"),
                   commitments)


def read_witnesses(items: Iterable[Any]) -> list[Witness]:
    """``read_witness`` of each item, in order."""
    return [read_witness(item, number) for number, item in enumerate(items, start=1)]


def add_check(verdict: Verdict, record: bytes | str, items: list | None) -> None:
    """Add ``WITNESS_CHECK`` to ``verdict`` of ``record`` (its JSON text), when mails or hashes
    were given and the record was readable: it fails when any fingerprint they name is not the
    hash of an event in the record, when an invitation's commitment is not the one the
    record's GameCreated publishes, or when one of them names neither."""
    if not items or not verdict.readable:
        return
    if not isinstance(items, list) or len(items) > MOST_WITNESSES:
        verdict.add(WITNESS_CHECK, False,
                    f"give a list of at most {MOST_WITNESSES} mails or fingerprints")
        return
    known, committed = record_hashes(record), record_commitment(record)
    witnesses = read_witnesses(items)
    problems = [p for w in witnesses
                if (p := _problem(w, known, verdict.game_id) or _committed(w, committed))]
    if problems:
        more = len(problems) - MOST_SHOWN
        verdict.add(WITNESS_CHECK, False, "; ".join(problems[:MOST_SHOWN])
                    + (f"; and {_counted(more, 'more problem')} like these" if more > 0 else ""))
        return
    count = sum(len(w.hashes) for w in witnesses)
    invited = any(w.commitments for w in witnesses)
    verdict.add(WITNESS_CHECK, True,
                f"every game state your {_counted(len(witnesses), 'mail')} "
                f"name ({_counted(count, 'fingerprint')}) is in this record"
                + ("; the commitment your invitation names is the one its GameCreated "
                   "publishes" if invited else ""))


def record_hashes(record: bytes | str) -> frozenset[str]:
    """The ``hash`` of every event of a record (read leniently: the verdict says whether the
    record itself is sound)."""
    try:
        events = json.loads(record).get("events")
    except (ValueError, AttributeError, RecursionError):
        return frozenset()
    if not isinstance(events, list):
        return frozenset()
    return frozenset(e["hash"] for e in events
                     if isinstance(e, dict) and isinstance(e.get("hash"), str))


def record_commitment(record: bytes | str) -> str | None:
    """The commitment to the service's secret a record's GameCreated publishes (a derived
    seed's), read leniently; None when it has none."""
    try:
        chance = json.loads(record)["events"][0]["payload"]["randomness"]
    except (ValueError, LookupError, TypeError, RecursionError):
        return None
    if not isinstance(chance, dict) or chance.get("scheme") != randomness.SCHEME:
        return None
    return chance.get("commitment") if isinstance(chance.get("commitment"), str) else None


def _committed(witness: Witness, committed: str | None) -> str | None:
    """What is wrong with an invitation's commitment against the record's, in words."""
    other = next((c for c in witness.commitments if c != committed), None)
    if other is None:
        return None
    return (f"{witness.name} names the commitment Chasqui made before you took your seat "
            f"({COMMITMENT_PREFIX}{other[:12]}…), and this record's GameCreated publishes "
            "another: the service's secret was changed after the invitation was sent, or the "
            "mail is of another game")


def _problem(witness: Witness, known: frozenset[str], game_id: str | None) -> str | None:
    """What is wrong with one witness against a record, in words; None when nothing is."""
    if not witness.hashes and witness.commitments:
        return None  # an invitation: it names the commitment, checked by ``_committed``
    if not witness.hashes:
        return (f"{witness.name} names no game record fingerprint: give a whole mail Chasqui "
                "sent about this game (the .eml file or its text), or its sha256: line")
    missing = [h for h in witness.hashes if h not in known]
    if not missing:
        return None
    other = (f" (it is a mail of game {witness.game}, not of {game_id})"
             if witness.game and game_id and witness.game != game_id else "")
    return (f"{witness.name} names a game state this record does not contain "
            f"({PREFIX}{missing[0][:12]}…){other}: the record was rewritten after that mail "
            "was sent, or the mail is of another game")


def _bare_hashes(text: str) -> tuple[str, ...]:
    """The hashes of a text that holds nothing but hashes (``sha256:`` optional), separated
    by spaces, commas or lines; () for any other text."""
    words = [w for w in SEPARATORS.split(text) if w]
    if not words or not all(BARE.fullmatch(w) for w in words):
        return ()
    return _unique(w.removeprefix(PREFIX).lower() for w in words)


def _message(data: bytes):
    """``data`` parsed as a mail; None when it holds more parts than a mail of a game has
    (parsing thousands of nested parts costs seconds) or the parser gives up."""
    if data.lower().count(b"content-type:") > MOST_PARTS:
        return None
    try:
        return email.message_from_bytes(data)
    except (RecursionError, ValueError, LookupError, TypeError, IndexError):
        return None


def _text_parts(message) -> list[str]:
    """The decoded text of every text/* part (quoted-printable and base64 undone, each in its
    charset, anything undecodable replaced), at most ``MOST_PARTS`` of them."""
    texts: list[str] = []
    try:
        for index, part in enumerate(message.walk()):
            if index >= MOST_PARTS:
                break
            if part.get_content_maintype() == "text":
                texts.append(_decoded(part))
    except (RecursionError, ValueError, LookupError, TypeError, IndexError, AttributeError):
        pass  # what was read so far still counts
    return texts


def _decoded(part) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    return payload.decode(_charset(part.get_content_charset()), "replace")


def _charset(name: str | None) -> str:
    """A codec Python knows for a part's charset, else UTF-8."""
    try:
        return codecs.lookup(name or "utf-8").name
    except (LookupError, ValueError):
        return "utf-8"


def _header(message, name: str) -> str | None:
    """A header's text, decoded (RFC 2047) and printable; None when absent or unreadable."""
    if message is None:
        return None
    try:
        raw = message.get(name)
        if raw is None:
            return None
        text = str(email.header.make_header(email.header.decode_header(str(raw))))
    except (ValueError, LookupError, TypeError, IndexError, UnicodeError,
            email.errors.HeaderParseError):
        return None
    text = "".join(c if c.isprintable() else " " for c in text).strip()
    return text[:SHOWN_NAME] + ("…" if len(text) > SHOWN_NAME else "") or None


def _name(message, number: int) -> str:
    """How the verdict names a mail: its subject and date, when it has them."""
    subject, date = _header(message, "Subject"), _header(message, "Date")
    if subject or date:
        return f"your mail “{subject or ''}”" + (f" of {date}" if date else "")
    return f"the text you gave (number {number})"


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _unique(hashes: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(hashes))
