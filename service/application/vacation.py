"""Vacations: a player stops their own clock, by hand or automatically when time runs out.

Both directions are events (``VacationStarted``/``VacationEnded``) in the log, so the audit
shows who was away when; they leave the engine state untouched, so nobody's links go stale."""
from __future__ import annotations

from datetime import datetime

from engine import IllegalAction
from engine.text import phrase, term
from service.application.games import Owed, outbox_row
from service.store import events as store
from service.store import timekeeping
from service.store import webhooks
from service.store.db import Session
from service.store.loading import Loaded
from service.store.models import SeatClockRow


def _clock(session: Session, loaded: Loaded, seat: int) -> SeatClockRow:
    clock = session.get(SeatClockRow, (loaded.row.id, seat))
    if clock is None:
        clock = SeatClockRow(game_id=loaded.row.id, seat=seat, bank_seconds=0, vacation_used_seconds=0)
        session.add(clock)
    return clock


def start(session: Session, loaded: Loaded, seat: int, now: datetime, domain: str,
          actor: str, auto: bool) -> Owed:
    if loaded.row.status not in ("active", "paused"):
        raise IllegalAction(phrase("the game is {status}", status=term(loaded.row.status)))
    settings = timekeeping.clock_of(loaded.first.payload)
    left = timekeeping.start_vacation(session, _clock(session, loaded, seat), settings,
                                      loaded.first.recorded_at, now)
    posts = _append(session, loaded, "VacationStarted",
                    {"seat": seat, "auto": auto,
                     "days_left": round(left.total_seconds() / 86400, 2)}, actor, now)
    return Owed(_mail(session, loaded, seat, "vacation_auto", now, domain) if auto else [], posts)


def end(session: Session, loaded: Loaded, seat: int, now: datetime, domain: str,
        actor: str, auto: bool) -> Owed:
    settings = timekeeping.clock_of(loaded.first.payload)
    timekeeping.end_vacation(session, _clock(session, loaded, seat), settings, now)
    posts = _append(session, loaded, "VacationEnded", {"seat": seat, "auto": auto}, actor, now)
    return Owed(_mail(session, loaded, seat, "vacation_over", now, domain) if auto else [], posts)


def _append(session, loaded, kind, payload, actor, now) -> list[int]:
    """The event, and the posts it owes the game's chat channel (their ids)."""
    event = store.append(session, loaded.row.id, loaded.seq + 1, loaded.head_hash, kind,
                         payload, actor, now)
    loaded.events.append(event)
    loaded.row.head_seq, loaded.row.updated_at = event.seq, now
    return webhooks.queue(session, loaded.row, event.seq, event.seq, "vacation", now)


def _mail(session, loaded, seat, kind, now, domain) -> list[int]:
    row = outbox_row(loaded, loaded.seats[seat], kind, now, domain)
    session.add(row)
    session.flush()
    return [row.id]
