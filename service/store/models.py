"""Tables.  ``events`` is the only truth about a game; everything else is bookkeeping
(who sits where, what mail is owed) or a cache that a replay can rebuild."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import (JSON, Boolean, DateTime, ForeignKey, Index, Integer, String, Text,
                        UniqueConstraint, false)
from sqlalchemy.orm import Mapped, mapped_column

from service.store.db import Base


class GameRow(Base):
    """A game's identity and a projection of its status for listings (never read for rules)."""
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(20), default="active")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    head_seq: Mapped[int] = mapped_column(Integer, default=0)
    # The organiser's pace (``service.core.pace``); NULL: none was set.
    pace: Mapped[str | None] = mapped_column(String(10), nullable=True)
    # How many of the game's webhooks are on (``store.webhooks``): a command whose game has
    # none writes no webhook row and reads no webhook table.
    webhooks: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


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
    # A projection of SeatBotted/SeatReplaced: the engine's bot_action plays this seat.
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The level the bot plays at (engine.search.LEVELS); NULL, as on rows from before levels,
    # means "easy", the only bot there was.
    bot_level: Mapped[str | None] = mapped_column(String(10), nullable=True)


class EventRow(Base):
    """One immutable fact.  (game_id, seq) as primary key is what makes appends optimistic:
    two writers of the same seq cannot both commit.  ``sealed`` holds what the event keeps
    from every viewer while its game runs (its hash's nonce; GameCreated's seed and salt):
    NULL for events written before fair play (schema version 1)."""
    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict] = mapped_column(JSON)
    actor: Mapped[str] = mapped_column(String(80))
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))
    sealed: Mapped[dict | None] = mapped_column(JSON(none_as_null=True), nullable=True)


class Delivered:
    """The columns every outbox table has (mail of a game, mail of no game, webhook posts):
    where its delivery stands, which ``delivery.record`` and its kin write."""
    status: Mapped[str] = mapped_column(String(20), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class OutboxRow(Delivered, Base):
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


class LocalMailRow(Base):
    """The embedded default's mailbox: what would have gone out by SMTP, kept for /mailbox."""
    __tablename__ = "local_mail"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[str] = mapped_column(String(200), unique=True)
    to_addr: Mapped[str] = mapped_column(String(254), index=True)
    subject: Mapped[str] = mapped_column(String(300))
    raw: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# --- Admins -------------------------------------------------------------------------

class AdminRow(Base):
    """A person who may log in at /admin.  A site admin sees every game; any other admin only
    the games listed for them in ``game_admins``."""
    __tablename__ = "admins"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    is_site_admin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Every login cookie carries the generation it was made in; logging out or a new password
    # counts it up, so every cookie made before is refused on the server (``admin.auth``).
    session_generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class GameAdminRow(Base):
    """An admin of one game only (e.g. the person who set it up for their friends)."""
    __tablename__ = "game_admins"

    admin_id: Mapped[int] = mapped_column(ForeignKey("admins.id"), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatClockRow(Base):
    """A seat's time bank and its open decision's deadline (a projection of the events'
    times, kept in step with each event in the same transaction)."""
    __tablename__ = "seat_clocks"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    bank_seconds: Mapped[int] = mapped_column(Integer, default=0)
    decision_key: Mapped[str | None] = mapped_column(String(200), nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    due_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    vacation_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    vacation_used_seconds: Mapped[int] = mapped_column(Integer, default=0)


class DeadlineRow(Base):
    """A reminder or timeout to fire at ``due_at`` unless the decision ends first."""
    __tablename__ = "deadlines"
    __table_args__ = (Index("ix_deadlines_due", "status", "due_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    decision_key: Mapped[str] = mapped_column(String(200))
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(20), default="pending")


# --- Mail that players love ---------------------------------------------------------

class MailPreferenceRow(Base):
    """How a seat wants its mail: ``every`` turn, a daily ``digest``, or ``off``; and in which
    language.  No row means every turn, in English."""
    __tablename__ = "mail_preferences"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    mode: Mapped[str] = mapped_column(String(10), default="every")
    language: Mapped[str | None] = mapped_column(String(10), nullable=True)
    timezone: Mapped[str | None] = mapped_column(String(64), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class InboundMailRow(Base):
    """One mail received at play+<token>@…: what it asked and what became of it.  The unique
    Message-ID makes a mail delivered twice (SMTP retry, listener and webhook) act once."""
    __tablename__ = "inbound_mail"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[str] = mapped_column(String(300), unique=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    from_addr: Mapped[str] = mapped_column(String(254))
    status: Mapped[str] = mapped_column(String(20))
    detail: Mapped[str] = mapped_column(Text, default="")
    reply_outbox_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DigestRow(Base):
    """One daily digest per address per day (the primary key makes the beat task idempotent);
    ``games`` fixes what it lists, so a re-sent digest is the same mail."""
    __tablename__ = "mail_digests"

    address: Mapped[str] = mapped_column(String(254), primary_key=True)
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    games: Mapped[list] = mapped_column(JSON)
    outbox_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RematchRow(Base):
    """A finished game's rematch: the pending game its players are invited to (the one who
    asked organises it), so a second player to ask finds the same one.  Rows from before
    rematches asked anyone name the new game only (``new_game_id``, no ``pending_id``)."""
    __tablename__ = "rematches"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    new_game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    pending_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# --- Organisers and invitations ----------------------------------------------------

class AccountRow(Base):
    """A person who signs in by mail (no password), keyed by the normalised address."""
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str | None] = mapped_column(String(80), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_sign_in_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # As ``AdminRow.session_generation``: signing out counts it up and ends every session.
    session_generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class SignInTokenRow(Base):
    """One magic link.  The link is the signed pair (id, nonce); ``used_at`` makes it single
    use and ``expires_at`` ends it (15 minutes)."""
    __tablename__ = "sign_in_tokens"
    __table_args__ = (Index("ix_sign_in_tokens_email", "email", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    email: Mapped[str] = mapped_column(String(254))
    nonce: Mapped[str] = mapped_column(String(64))
    next_path: Mapped[str | None] = mapped_column(String(300), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PendingGameRow(Base):
    """A game an organiser set up, waiting for every seat to accept; ``game_id`` is set when
    it starts (its GameCreated event)."""
    __tablename__ = "pending_games"
    __table_args__ = (Index("ix_pending_games_organiser", "organiser_id", "created_at"),
                      Index("ix_pending_games_lobby", "open", "status"))

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    organiser_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    organiser_name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict] = mapped_column(JSON)
    clock: Mapped[dict] = mapped_column(JSON)
    language: Mapped[str] = mapped_column(String(10))
    players: Mapped[int] = mapped_column(Integer)
    seat_order: Mapped[str] = mapped_column(String(12))
    pace: Mapped[str | None] = mapped_column(String(10), nullable=True)
    open: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    status: Mapped[str] = mapped_column(String(20), default="inviting")
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"), nullable=True)
    # The service's share of the game's chance (``service.store.randomness``), drawn when the
    # game is set up; its pages show only its commitment, so that the players give theirs
    # after it is fixed.  Sealed: no page, mail or API reads it out.  None: set up before.
    secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class InvitationRow(Base):
    """One address asked to take a seat: by the organiser ("invite"), the organiser's own seat
    ("organiser"), or a lobby visitor ("join").  Its link is the signed pair (id, nonce)."""
    __tablename__ = "invitations"
    __table_args__ = (Index("ix_invitations_pending", "pending_id"),
                      Index("ix_invitations_email", "email"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    pending_id: Mapped[str] = mapped_column(ForeignKey("pending_games.id"))
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    email: Mapped[str] = mapped_column(String(254))
    nonce: Mapped[str] = mapped_column(String(64))
    via: Mapped[str] = mapped_column(String(12))
    status: Mapped[str] = mapped_column(String(20), default="pending")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    responded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The player's share of the chance, given on accepting: ``{"text", "by"}`` as GameCreated
    # lists it at their seat (``service.store.fairness.contribution``).
    contribution: Mapped[dict | None] = mapped_column(JSON, nullable=True)


class InvitationBlockRow(Base):
    """An address that declined and asked this organiser never to invite it again."""
    __tablename__ = "invitation_blocks"

    organiser_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    email: Mapped[str] = mapped_column(String(254), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountMailRow(Delivered, Base):
    """Mail owed outside any game (sign-in links, invitations, lobby join confirmations):
    the outbox pattern of ``outbox`` without its game.  The message is a pure function of the
    row and the row it refers to (``kind`` + ``ref_id``), so a retry repeats the Message-ID."""
    __tablename__ = "account_outbox"
    __table_args__ = (
        UniqueConstraint("message_id", name="uq_account_outbox_message_id"),
        Index("ix_account_outbox_due", "status", "next_attempt_at"),
        Index("ix_account_outbox_to", "to_addr", "kind", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(20))
    ref_id: Mapped[int] = mapped_column(Integer)
    to_addr: Mapped[str] = mapped_column(String(254))
    message_id: Mapped[str] = mapped_column(String(200))


# --- Seat replacement by invitation -------------------------------------------------------------

class SeatOfferRow(Base):
    """An admin's offer of a running game's seat to a new person.  Nothing of the game changes
    until the newcomer accepts through the signed link (the pair id, nonce) mailed to them:
    then ``SeatReplaced`` is recorded and the seat's private view is mailed.  Until then the
    player in the seat (``previous_email``) keeps it.  States: pending, accepted, declined,
    withdrawn (a newer offer for the seat, or the seat changed hands); *expired* is computed
    from ``expires_at``."""
    __tablename__ = "seat_offers"
    __table_args__ = (Index("ix_seat_offers_game_seat", "game_id", "seat", "status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    email: Mapped[str] = mapped_column(String(254))
    previous_name: Mapped[str] = mapped_column(String(80))
    previous_email: Mapped[str] = mapped_column(String(254))
    offered_by: Mapped[str] = mapped_column(String(80))
    nonce: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(20), default="pending")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    responded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


# --- Private notes ------------------------------------------------------------------------------

class SeatNoteRow(Base):
    """A seat's private notes, for its player only: not an event, not in the record.  Keyed
    by the seat *and* the address that held it (``holder``), so the notes of a replaced
    player never reach the newcomer."""
    __tablename__ = "seat_notes"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    holder: Mapped[str] = mapped_column(String(254), primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# --- A player's private feeds ------------------------------------------------------------

class PrivateFeedRow(Base):
    """The nonce inside an address's private feed links of one ``kind`` ("calendar", "feed").
    No row: the nonce is derived from the address (``private_feeds.nonce_of``), so every
    player has links without a write; the first "new link" writes a random one, and each
    later one replaces it, which revokes every link made with the old."""
    __tablename__ = "private_feeds"

    email: Mapped[str] = mapped_column(String(254), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    nonce: Mapped[str] = mapped_column(String(64))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# --- A game's chat channel (webhooks) -------------------------------------------------------

class WebhookRow(Base):
    """A chat channel a game's news is posted to.  ``style``: the body's format ("discord",
    "slack", "matrix", "json"); ``secret``: the HMAC key of a "json" hook's signature, shown
    once when the hook is added.  ``failures`` counts the deliveries that failed in a row;
    at ``webhook_delivery.SWITCH_OFF_AFTER`` the hook is switched off (``status`` "off")."""
    __tablename__ = "webhooks"
    __table_args__ = (Index("ix_webhooks_game", "game_id", "status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    style: Mapped[str] = mapped_column(String(10))
    url: Mapped[str] = mapped_column(String(2000))
    secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    talk: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    language: Mapped[str] = mapped_column(String(10), default="en")
    added_by: Mapped[str] = mapped_column(String(80))
    status: Mapped[str] = mapped_column(String(20), default="active")
    failures: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    switched_off_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                             nullable=True)


class WebhookDeliveryRow(Delivered, Base):
    """One post owed to one hook, written in the transaction of the events it tells of
    (seqs ``first_seq`` to ``seq``).  (hook, seq) is unique: an event is posted to a hook
    once, whoever delivers it.  The body is a pure function of the row and the game at
    ``seq``, so a retry posts the same message."""
    __tablename__ = "webhook_outbox"
    __table_args__ = (
        UniqueConstraint("hook_id", "seq", name="uq_webhook_outbox_hook_seq"),
        Index("ix_webhook_outbox_due", "status", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    hook_id: Mapped[int] = mapped_column(ForeignKey("webhooks.id"))
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    seq: Mapped[int] = mapped_column(Integer)
    first_seq: Mapped[int] = mapped_column(Integer)
    topic: Mapped[str] = mapped_column(String(20))


class WebhookPolicyRow(Base):
    """Whether the seated players of a game may add its webhooks too (no row: only the
    organiser and the game's admins)."""
    __tablename__ = "webhook_policies"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    players_may_add: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# --- Privileged reads ----------------------------------------------------------------------

class PrivilegedReadRow(Base):
    """A site admin's read, through the service, of what a running game keeps from its
    players: a seat's private view (``seat`` as it was after event ``seq``), every move's
    content in the game's log, or the export that holds the seed.  Not an event (it is outside
    the hash chain and changes no game), but append-only like one: triggers refuse every
    UPDATE and DELETE.  The players see these rows in the game's record once it is over."""
    __tablename__ = "privileged_reads"
    __table_args__ = (Index("ix_privileged_reads_game", "game_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    actor: Mapped[str] = mapped_column(String(80))  # "admin:<id>", or "admin" (the token)
    what: Mapped[str] = mapped_column(String(10))   # "seat", "log" or "export"
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    read_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
