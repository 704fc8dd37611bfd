"""Mail preferences per seat: every turn, a daily digest, or off; and a language.

Kept free of Flask so ``service.application.games`` can ask it which seats want turn mail.  The signed
tokens for the no-login pages (my games, one-click unsubscribe) live here too: they carry no
timestamp, so a re-sent mail is byte-identical, like the seat secrets."""
from __future__ import annotations

from datetime import datetime
from functools import lru_cache

from itsdangerous import BadSignature
from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from engine.text import phrase
from service.store.models import MailPreferenceRow, SeatRow
from service.core.refusals import Refusal
from service.core.tokens import serializer, signed

MODES = ("every", "digest", "off")
# Babel locale names; the mail's Content-Language uses the BCP 47 spelling (zh-Hans).
LANGUAGES = {"en": "English", "zh_Hans": "中文（简体）", "ja": "日本語"}
DEFAULT_LANGUAGE = "en"

ADDRESS_SALT = "chasqui-address-v1"
UNSUBSCRIBE_SALT = "chasqui-unsubscribe-v1"


class BadToken(Refusal):
    """A forged or mistyped token: the page answers 403 and changes nothing."""


def normal_address(address: str) -> str:
    return address.strip().lower()


def address_token(secret_key: str, address: str) -> str:
    return signed(secret_key, ADDRESS_SALT, normal_address(address))


def read_address_token(secret_key: str, token: str) -> str:
    try:
        data = serializer(secret_key, ADDRESS_SALT).loads(token)
    except BadSignature:
        raise BadToken(phrase("this link is not valid (forged or mistyped)")) from None
    if not isinstance(data, str) or "@" not in data:
        raise BadToken(phrase("this link is not valid"))
    return data


@lru_cache(maxsize=4096)
def unsubscribe_token(secret_key: str, game_id: str, seat: int, address: str) -> str:
    """A pure function of its arguments (no timestamp), so a seat's next mails reuse it."""
    return signed(secret_key, UNSUBSCRIBE_SALT, [game_id, seat, normal_address(address)])


def read_unsubscribe_token(secret_key: str, token: str) -> tuple[str, int, str]:
    try:
        data = serializer(secret_key, UNSUBSCRIBE_SALT).loads(token)
    except BadSignature:
        raise BadToken(phrase("this link is not valid (forged or mistyped)")) from None
    if (not isinstance(data, list) or len(data) != 3 or not isinstance(data[0], str)
            or not isinstance(data[1], int) or not isinstance(data[2], str)):
        raise BadToken(phrase("this link is not valid"))
    return data[0], data[1], data[2]


def preference(session: Session, game_id: str, seat: int) -> MailPreferenceRow | None:
    return session.get(MailPreferenceRow, (game_id, seat))


def mode_of(session: Session, game_id: str, seat: int) -> str:
    row = preference(session, game_id, seat)
    return row.mode if row is not None and row.mode in MODES else "every"


def wants_turn_mail(session: Session, game_id: str, seat: int) -> bool:
    """Turn mail goes only to seats on "every" (no row: every); "digest" and "off" seats get
    none (the digest lists their waiting games once a day)."""
    return mode_of(session, game_id, seat) == "every"


def mail_off(session: Session, game_id: str, seat: int) -> bool:
    """The seat unsubscribed ("off"): besides no turn mail, no table talk and no deadline
    reminders.  A "digest" seat still gets both: its digest comes once a day, and a missed
    deadline costs it a timeout."""
    return mode_of(session, game_id, seat) == "off"


def language_of(session: Session, game_id: str, seat: int) -> str:
    """The seat's language; else the newest one its address chose in any game; else English."""
    return stored_language(session, game_id, seat) or DEFAULT_LANGUAGE


def stored_language(session: Session, game_id: str, seat: int) -> str | None:
    """The language chosen for this seat (its own, else its address's newest), or None when
    nobody chose one: a page then follows the browser rather than English."""
    row = preference(session, game_id, seat)
    if row is not None and row.language in LANGUAGES:
        return row.language
    seat_row = session.get(SeatRow, (game_id, seat))
    return address_language(session, seat_row.email) if seat_row is not None else None


def address_language(session: Session, address: str) -> str | None:
    found = session.scalars(
        select(MailPreferenceRow.language)
        .join(SeatRow, (SeatRow.game_id == MailPreferenceRow.game_id)
              & (SeatRow.seat == MailPreferenceRow.seat))
        .where(func.lower(SeatRow.email) == normal_address(address),
               MailPreferenceRow.language.is_not(None))
        .order_by(MailPreferenceRow.updated_at.desc())).first()
    return found if found in LANGUAGES else None


def set_preference(session: Session, game_id: str, seat: int, now: datetime,
                   mode: str | None = None, language: str | None = None) -> MailPreferenceRow:
    if mode is not None and mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    if language is not None and language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}")
    row = preference(session, game_id, seat)
    if row is None:
        row = MailPreferenceRow(game_id=game_id, seat=seat, mode="every", language=None,
                                updated_at=now)
        session.add(row)
    if mode is not None:
        row.mode = mode
    if language is not None:
        row.language = language
    row.updated_at = now
    session.flush()
    return row


def seats_of(session: Session, address: str) -> list[SeatRow]:
    return list(session.scalars(
        select(SeatRow).where(func.lower(SeatRow.email) == normal_address(address))
        .order_by(SeatRow.game_id, SeatRow.seat)))


def set_address_language(session: Session, address: str, language: str, now: datetime) -> None:
    for seat in seats_of(session, address):
        set_preference(session, seat.game_id, seat.seat, now, language=language)


# On the move path (``games.queue_mail``): built once, not per move.
_PREFERENCE = MailPreferenceRow.__table__.c
_GAME_MODES = select(_PREFERENCE.seat, _PREFERENCE.mode).where(
    _PREFERENCE.game_id == bindparam("game_id"))


def modes_of_game(session: Session, game_id: str) -> dict[int, str]:
    """seat -> stored mail mode, for the seats of the game that have a preference row: every
    seat's turn-mail choice in one query instead of one ``preference`` per seat."""
    return {seat: mode for seat, mode in session.execute(_GAME_MODES, {"game_id": game_id})}


def carry_over(session: Session, old_game_id: str, new_game_id: str, now: datetime) -> None:
    """A rematch's players keep the mail mode and language they chose in the game before:
    each new seat takes the old seat's setting of the same address (seats differ: a
    rematch rotates them, and a player who declined is not there)."""
    old_seats = {normal_address(s.email): s.seat for s in _seats_of_game(session, old_game_id)}
    for seat in _seats_of_game(session, new_game_id):
        old_seat = old_seats.get(normal_address(seat.email))
        kept = None if old_seat is None else preference(session, old_game_id, old_seat)
        if kept is not None:
            set_preference(session, new_game_id, seat.seat, now, mode=kept.mode,
                           language=kept.language)


def _seats_of_game(session: Session, game_id: str) -> list[SeatRow]:
    return list(session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)))
