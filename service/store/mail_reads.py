"""What a mail batch reads and writes besides the games' events: the same Core statements on
every database, each built once (expanding parameters: one compiled form for every batch
size).

``lock_batch`` locks the batch's outbox rows (``FOR UPDATE OF outbox SKIP LOCKED`` on
PostgreSQL: a row another worker holds is that worker's), with each row's game row in the
same statement (``load``'s ``session.get`` then finds it in the identity map), then reads
the seats of all the batch's games in one more (``load``'s ``seats``), instead of two reads
per game.  On PostgreSQL the lock also makes the commit asynchronous
(``set_config('synchronous_commit', 'off', true)``, which is ``SET LOCAL``, evaluated for
each row it returns: a batch that locked nothing writes nothing): a crash of PostgreSQL
itself in the next fraction of a second may then lose the "sent" marks (never half of
them), and those rows are sent again, the same bytes under the same Message-ID, as after a
worker killed between the relay's 250 and the commit.

The joined game row is not locked (``OF outbox``), as a ``get`` would not lock it; under
READ COMMITTED reading it with the lock rather than a moment later changes nothing a mail
shows: the events up to the row's seq, read afterwards, are fixed."""
from __future__ import annotations

from datetime import datetime
from typing import Iterable, Sequence, TypeVar

from sqlalchemy import (String, bindparam, cast, func, literal, null, select, true, tuple_,
                        union_all, update)
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from service.store.models import DeadlineRow, GameRow, MailPreferenceRow, OutboxRow, SeatRow
from service.store.models import InboundMailRow, LocalMailRow, SeatClockRow

Owed = TypeVar("Owed")  # a row of an outbox table (``models.Delivered``)


class Batch:
    """What ``lock_batch`` read: ``rows``, the outbox rows this transaction locked (in id
    order); ``seats``, {game_id: the game's seat rows in seat order}, for ``load``'s
    ``seats``; ``games``, {game_id: GameRow} read with them, held here because the session
    keeps only a weak reference to an unchanged object: without one, the row would leave the
    identity map before ``load`` asks for it."""
    __slots__ = ("rows", "seats", "games")

    def __init__(self, rows: list[OutboxRow], seats: dict[str, list], games: dict[str, GameRow]):
        self.rows, self.seats, self.games = rows, seats, games


_LOCK = (select(OutboxRow, GameRow)
         .outerjoin(GameRow, GameRow.id == OutboxRow.game_id)
         .where(OutboxRow.id.in_(bindparam("ids", expanding=True)))
         .order_by(OutboxRow.id)
         .with_for_update(of=OutboxRow, skip_locked=True))
_LOCK_RELAXED = _LOCK.add_columns(func.set_config("synchronous_commit", "off", true()))
_SEATS = (select(SeatRow).where(SeatRow.game_id.in_(bindparam("games", expanding=True)))
          .order_by(SeatRow.game_id, SeatRow.seat))


def lock_batch(session: Session, ids: list[int]) -> Batch:
    """The rows of ``ids`` this transaction could lock, with their games and seats; on
    PostgreSQL the commit is asynchronous from here on."""
    postgres = session.get_bind().dialect.name == "postgresql"
    batch = Batch([], {}, {})
    for found in session.execute(_LOCK_RELAXED if postgres else _LOCK, {"ids": ids}):
        row, game = found[0], found[1]
        batch.rows.append(row)
        if game is not None:
            batch.games[row.game_id] = game
    if batch.games:
        for seat in session.scalars(_SEATS, {"games": sorted(batch.games)}):
            batch.seats.setdefault(seat.game_id, []).append(seat)
    return batch


def _languages_statement():
    """Rows (0, game, seat, language, zone, updated_at, NULL) of the seats' own preferences
    and (1, game, seat, language, NULL, updated_at, address) of every language the addresses
    chose, in one round trip."""
    pref, seat = MailPreferenceRow.__table__.c, SeatRow.__table__.c
    own = (select(literal(0), pref.game_id, pref.seat, pref.language, pref.timezone,
                  pref.updated_at, cast(null(), String))
           .where(tuple_(pref.game_id, pref.seat).in_(bindparam("keys", expanding=True))))
    by_address = (select(literal(1), pref.game_id, pref.seat, pref.language,
                         cast(null(), String), pref.updated_at, func.lower(seat.email))
                  .join(SeatRow.__table__, (seat.game_id == pref.game_id) & (seat.seat == pref.seat))
                  .where(func.lower(seat.email).in_(bindparam("addresses", expanding=True)),
                         pref.language.is_not(None)))
    return union_all(own, by_address)


# Parameters: ``keys``, [(game_id, seat)]; ``addresses``, normalised addresses.
LANGUAGES = _languages_statement()

# A decision's row is its next alarm, whatever its status: its timeout follows from it
# (``timekeeping.timeout_of``) and stays fixed, so a mail re-sent after the decision ended
# says the same thing.  Parameters: ``game_id``, ``seats``, ``keys`` (decision keys).
_DEADLINE = DeadlineRow.__table__.c
DEADLINES = select(_DEADLINE.seat, _DEADLINE.decision_key, _DEADLINE.kind, _DEADLINE.due_at).where(
    _DEADLINE.game_id == bindparam("game_id"),
    _DEADLINE.seat.in_(bindparam("seats", expanding=True)),
    _DEADLINE.decision_key.in_(bindparam("keys", expanding=True)))

# The rows a batch sent, as ``delivery.record`` marks a send the relay took.  Parameters:
# ``ids``, ``now``.
_OUTBOX = OutboxRow.__table__
MARK_SENT = (update(_OUTBOX)
             .where(_OUTBOX.c.id.in_(bindparam("ids", expanding=True)))
             .values(status="sent", attempts=_OUTBOX.c.attempts + 1,
                     sent_at=bindparam("now", type_=_OUTBOX.c.sent_at.type), last_error=None))


# The delivering rooms' claims and reads, beside the batch's statements above: each a
# function, so the mail room holds a session and no query.


def lock_for_delivery(session: Session, model: type[Owed], row_id: int) -> Owed | None:
    """The row ``row_id`` of an outbox table, locked for this delivery (``SKIP LOCKED``: a
    row another worker holds is that worker's to send); None when it is gone or held."""
    return session.scalars(select(model).where(model.id == row_id)
                           .with_for_update(skip_locked=True)).first()


def lock_due_siblings(session: Session, row: OutboxRow, now: datetime,
                      limit: int) -> list[OutboxRow]:
    """The other due game mails of ``row``'s game and seq (the other seats' mails of one
    event) that no other worker holds, locked, in id order: one delivery sends them with
    ``row``, from one replay."""
    return list(session.scalars(
        select(OutboxRow)
        .where(OutboxRow.game_id == row.game_id, OutboxRow.seq == row.seq,
               OutboxRow.id != row.id, OutboxRow.status == "pending",
               OutboxRow.kind != "digest", OutboxRow.next_attempt_at <= now)
        .order_by(OutboxRow.id).limit(limit)
        .with_for_update(skip_locked=True)))


def owed_ids(session: Session, model: type, due_by: datetime, limit: int) -> list[int]:
    """The ids of an outbox table's rows still owed whose next attempt came by ``due_by``,
    oldest first: what the sweep delivers when a task was lost or a backoff is over."""
    return list(session.scalars(
        select(model.id)
        .where(model.status == "pending", model.next_attempt_at <= due_by)
        .order_by(model.id).limit(limit)))


def open_decision_keys(session: Session, game_id: str, seats: list[int]) -> dict[int, str]:
    """{seat: the decision its clock holds open now} of ``seats``: a reminder queued for a
    decision that has closed since is not sent."""
    return dict(session.execute(select(SeatClockRow.seat, SeatClockRow.decision_key).where(
        SeatClockRow.game_id == game_id, SeatClockRow.seat.in_(seats))).all())


def open_deadlines(session: Session, game_id: str, seats: list[int],
                   keys: list[str]) -> Sequence[Sequence]:
    """(seat, decision key, kind, due_at) of ``DEADLINES``: the alarms of ``seats``'
    decisions ``keys``, from which a mail says when the move is due."""
    return session.execute(
        DEADLINES, {"game_id": game_id, "seats": seats, "keys": keys}).all()


def language_choices(session: Session, keys: list[tuple[str, int]],
                     addresses: list[str]) -> Sequence[Sequence]:
    """(kind, game_id, seat, language, zone, updated_at, address) of ``LANGUAGES``: the
    seats' ``keys`` own preferences (kind 0: language and time zone) and every language
    their ``addresses`` chose in any game (kind 1), in one round trip."""
    return session.execute(LANGUAGES, {"keys": keys, "addresses": addresses}).all()


def reply_detail(session: Session, outbox_id: int) -> str:
    """What a reply_ok / reply_error mail tells of the reply it answers (the move's label,
    or the error); "" when no reply names it."""
    return session.scalars(select(InboundMailRow.detail)
                           .where(InboundMailRow.reply_outbox_id == outbox_id)).first() or ""


def mark_sent(session: Session, ids: list[int], now: datetime) -> int:
    """``MARK_SENT`` the rows ``ids`` a batch sent at ``now``; how many rows it found."""
    return session.execute(MARK_SENT, {"ids": ids, "now": now}).rowcount


def as_written(row, values: Iterable[tuple[str, object]]) -> None:
    """Give ``row`` the (column, value) pairs a statement of its own (``mark_sent``) wrote
    as the database's values (``set_committed_value``): the object shows them and the flush
    has nothing to write for them."""
    for name, value in values:
        set_committed_value(row, name, value)


def local_copy(session: Session, message_id: str) -> LocalMailRow | None:
    """The local mailbox's copy of the mail ``message_id``, if it holds one already: a mail
    sent again after a crash is kept once."""
    return session.query(LocalMailRow).filter_by(message_id=message_id).first()
