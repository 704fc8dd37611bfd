"""A player's own order for when their time runs out: "let the easy (or strong) bot decide".

The organiser's timeout policy is the table's rule for everyone; a player who knows they will
be away for a while may instead ask a bot to play their late decisions, so that the game goes
on and their seat is played with some sense.  The order is an event (``TimeoutOrderSet``),
given by the seat itself, so the record shows that the player asked for it before any bot
played for them (``docs/fairness.md``, rule 3.8), and it changes no engine state (links stay
fresh, a rollback does not take it back).

Why the order comes before the table's rule and before an automatic vacation: it is the
player's own choice about their own seat, made after they read the table's rule; a vacation
would stop the game for everyone while the player has said a bot may play instead."""
from __future__ import annotations

from datetime import datetime

from engine import IllegalAction
from engine.search import LEVELS
from engine.text import phrase, term
from service.core.validation import one_of
from service.store import events as store
from service.store.db import Session
from service.store.loading import Loaded

KIND = "TimeoutOrderSet"
TABLE = "table"                 # no order of one's own: the organiser's policy applies
CHOICES = (TABLE,) + LEVELS
DECIDING_KINDS = (KIND, "SeatReplaced")   # the events ``order_of`` reads


def in_force(session: Session, game_id: str, seat: int) -> str | None:
    """The seat's order now (``order_of``), read from the only events that decide it, so a
    game loaded from a snapshot is not read whole for it."""
    return order_of(store.of_kinds(session, game_id, DECIDING_KINDS), seat)


def order_of(events, seat: int) -> str | None:
    """The level of the bot the seat's last order asks for, or None (the table's rule).  A
    new player in the seat (``SeatReplaced``) starts with no order: only the player who gave
    an order consented to it."""
    for event in reversed(events):
        if event.payload.get("seat") != seat:
            continue
        if event.kind == KIND:
            return event.payload.get("level")
        if event.kind == "SeatReplaced":
            return None
    return None


def parse(raw) -> str | None:
    """A form's or a request's choice: a bot level, or ``table`` for no order of one's own."""
    chosen = one_of(raw, "the choice for when your time runs out", CHOICES)
    return None if chosen == TABLE else chosen


def give(session: Session, loaded: Loaded, seat: int, level: str | None, now: datetime,
         actor: str) -> bool:
    """Record the seat's order; False, recording nothing, when it is already the seat's
    order (a double click, a form sent twice)."""
    if loaded.row.status not in ("active", "paused"):
        raise IllegalAction(phrase("the game is {status}", status=term(loaded.row.status)))
    if loaded.seats[seat].bot:
        raise IllegalAction(phrase("a bot already plays this seat"))
    if in_force(session, loaded.row.id, seat) == level:
        return False
    payload = {"seat": seat, **({"level": level} if level else {})}
    event = store.append(session, loaded.row.id, loaded.seq + 1, loaded.head_hash, KIND,
                         payload, actor, now)
    loaded.events.append(event)
    loaded.row.head_seq, loaded.row.updated_at = event.seq, now
    return True
