"""Tables.  ``events`` is the only truth about a game; everything else is bookkeeping
(who sits where, what mail is owed) or a cache that a replay can rebuild."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from service.db import Base


class GameRow(Base):
    """A game's identity and a projection of its status for listings (never read for rules)."""
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(20), default="active")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    head_seq: Mapped[int] = mapped_column(Integer, default=0)


class SeatRow(Base):
    """A player's chair: contact address and the nonce inside their secret links.
    Changing ``nonce`` revokes every link ever sent to that seat."""
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    email: Mapped[str] = mapped_column(String(254))
    nonce: Mapped[str] = mapped_column(String(64))
    notified_key: Mapped[str | None] = mapped_column(String(200), nullable=True)
    decision_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)


class EventRow(Base):
    """One immutable fact.  (game_id, seq) as primary key is what makes appends optimistic:
    two writers of the same seq cannot both commit."""
    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict] = mapped_column(JSON)
    actor: Mapped[str] = mapped_column(String(80))
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))


class OutboxRow(Base):
    """A mail owed, written in the same transaction as the event that caused it.
    The content is a pure function of (game, seat, kind, seq), so a retry after a crash sends
    the very same message with the very same Message-ID."""
    __tablename__ = "outbox"
    __table_args__ = (
        UniqueConstraint("message_id", name="uq_outbox_message_id"),
        Index("ix_outbox_due", "status", "next_attempt_at"),
        Index("ix_outbox_game_seat", "game_id", "seat"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(20))
    seq: Mapped[int] = mapped_column(Integer)
    to_addr: Mapped[str] = mapped_column(String(254))
    message_id: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(20), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class LocalMailRow(Base):
    """The embedded default's mailbox: what would have gone out by SMTP, kept for /mailbox."""
    __tablename__ = "local_mail"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[str] = mapped_column(String(200), unique=True)
    to_addr: Mapped[str] = mapped_column(String(254), index=True)
    subject: Mapped[str] = mapped_column(String(300))
    raw: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
