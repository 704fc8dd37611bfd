"""Firing due deadlines: reminders (one mail to that seat) and timeouts (an event).

Called every minute by the beat sweep.  Each deadline row is locked with SKIP LOCKED and
marked done in the same transaction as what it caused, so several sweepers never fire one
twice, and a crash between the two leaves it pending for the next sweep."""
from __future__ import annotations

import dataclasses
import logging
from datetime import datetime

from service.store import preferences

from service.store import events as store

from service.store import timekeeping

from service.application import timeout_orders, vacation
from service.store.admins import game_admin_addresses, site_admin_addresses
from service.store.db import Database, DatabaseFailure, Session
from service.store.loading import Loaded, load
from service.application.games import (Owed, has_address, outbox_row, queue_mail,
                                       listed_or_first, play_bots, record_move,
                                       SWEEP_STRONG_BOT_MOVES)
from service.store.models import DeadlineRow, OutboxRow, SeatClockRow

log = logging.getLogger(__name__)

SYSTEM = "system"


def sweep(db: Database, now: datetime, domain: str, batch: int = 100) -> Owed:
    """Fire every due deadline; returns what to dispatch after commit (mail and posts).

    A batch is one transaction.  Two sweepers firing timeouts in the same games each wait for
    the other's new event; PostgreSQL then aborts one of them as a deadlock.  Nothing of that
    batch was committed or dispatched, and its deadlines are still pending, so this sweep stops
    there and the next one (a minute later) fires them.

    Each deadline fires in a savepoint of its own (``fire_one``): one that raises (a game that
    no longer replays, a bug) is undone alone, logged with its id and left pending for the
    next sweep, and this sweep goes on with the others without meeting it again."""
    owed = Owed()
    failed: set[int] = set()
    while True:
        try:
            with db.unit_of_work() as session:
                due = [deadline for deadline in timekeeping.due_deadlines(
                    session, now, limit=batch + len(failed)) if deadline.id not in failed][:batch]
                fired = Owed()
                for deadline in due:
                    fired += fire_one(session, deadline, now, domain, failed)
        except store.Conflict:  # the unit of work lost a deadlock (``Database.unit_of_work``)
            log.info("a sweep's batch lost a deadlock with another sweeper; the next sweep fires it")
            return owed
        owed += fired
        if len(due) < batch:
            return owed + play_waiting_bots(db, now, domain, batch)


def play_waiting_bots(db: Database, now: datetime, domain: str, batch: int = 100) -> Owed:
    """The bot turns a command left waiting (``games.MAX_STRONG_BOT_MOVES``): each active game
    with a bot seat whose decision is open gets its bots played, as far as one command may,
    and the mail that makes owed.  Each game in a savepoint of its own, like a deadline: one
    that raises is logged and left for the next sweep; a move that won the race with this
    one leaves the game for the next sweep too."""
    owed = Owed()
    try:
        with db.unit_of_work() as session:
            for game_id in timekeeping.games_with_bots_to_act(session, batch):
                owed += _play_bots_of(session, game_id, now, domain)
    except store.Conflict:
        log.info("a sweep's bot moves lost a race with another writer; the next sweep plays them")
        return Owed()
    return owed


def _play_bots_of(session: Session, game_id: str, now: datetime, domain: str) -> Owed:
    try:
        with session.begin_nested():
            loaded = load(session, game_id)
            before = loaded.seq
            play_bots(session, loaded, now, strong_limit=SWEEP_STRONG_BOT_MOVES)
            return queue_mail(session, loaded, None, now, domain) if loaded.seq != before else Owed()
    except store.Conflict:
        log.info("game %s moved while its bots were played; the next sweep plays them", game_id)
    except DatabaseFailure:
        raise
    except Exception:  # noqa: BLE001 - one game's bots must not stop the others'
        log.exception("the bots of game %s could not play; the next sweep tries again", game_id)
    return Owed()


def fire_one(session: Session, deadline: DeadlineRow, now: datetime, domain: str,
             failed: set[int]) -> Owed:
    """``fire`` in a savepoint; a deadline that raises is undone, logged and added to
    ``failed`` (it stays pending), and the sweep goes on.  A database that fails (a lost
    connection) is no deadline's fault: it ends the sweep, as before."""
    deadline_id, game_id = deadline.id, deadline.game_id
    try:
        with session.begin_nested():
            return fire(session, deadline, now, domain)
    except store.Conflict:
        log.info("deadline %s lost a race with a move; it will be re-checked", deadline_id)
    except DatabaseFailure:  # the database failed, not this deadline: the sweep ends
        raise
    except Exception:  # noqa: BLE001 - one game's deadline must not stop the others'
        failed.add(deadline_id)
        log.exception("deadline %s of game %s could not be fired; it stays pending for the "
                      "next sweep", deadline_id, game_id)
    return Owed()


def fire(session: Session, deadline: DeadlineRow, now: datetime, domain: str) -> Owed:
    loaded = load(session, deadline.game_id)
    game, state = loaded.game, loaded.state
    if deadline.kind == "vacation_end":
        deadline.status = "done"
        return vacation.end(session, loaded, deadline.seat, now, domain, SYSTEM, auto=True)
    still_open = (loaded.row.status == "active" and deadline.seat in game.to_act(state)
                  and game.decision_key(state, deadline.seat) == deadline.decision_key)
    clock = session.get(SeatClockRow, (loaded.row.id, deadline.seat)) if still_open else None
    if clock is None or clock.due_at is None:  # no running clock: nothing to remind or time out
        deadline.status = "cancelled"
        return Owed()
    timeout_at = store.utc(clock.due_at)
    if deadline.kind.startswith("reminder") and timeout_at > now:
        return _remind(session, loaded, deadline, timeout_at, now, domain)
    deadline.status, deadline.kind, deadline.due_at = "done", "timeout", timeout_at
    ordered = timeout_orders.in_force(session, loaded.row.id, deadline.seat)
    if ordered is None and _vacation_left(clock, loaded, now):
        return vacation.start(session, loaded, deadline.seat, now, domain, SYSTEM, auto=True)
    return time_out(session, loaded, deadline.seat, now, domain, deadline.id, ordered)


def _remind(session: Session, loaded: Loaded, deadline: DeadlineRow, timeout_at: datetime,
            now: datetime, domain: str) -> Owed:
    """The seat's reminder mail (none to a seat that unsubscribed); the same row then waits
    for the decision's next alarm (the next reminder still ahead, else the timeout)."""
    kind = deadline.kind.replace(":", "-")
    if _later_alarms_have_rows(session, deadline):
        deadline.status = "done"
    else:
        settings = timekeeping.clock_of(loaded.first.payload)
        deadline.kind, deadline.due_at = timekeeping.next_alarm(timeout_at, settings.reminder_hours,
                                                                now)
    if preferences.mail_off(session, loaded.row.id, deadline.seat):
        return Owed()
    row = outbox_row(loaded, loaded.seats[deadline.seat], kind, now, domain)
    session.add(row)
    session.flush()
    return Owed([row.id])


def _later_alarms_have_rows(session: Session, deadline: DeadlineRow) -> bool:
    """Whether the decision has other pending rows: it was opened by code from before
    migration 0008 (a process still running it during a deploy), which wrote a row for each
    reminder and the timeout.  Those rows fire by themselves; moving this one on too would
    send their reminders twice."""
    return timekeeping.other_pending_alarms(session, deadline)


def _vacation_left(clock: SeatClockRow, loaded: Loaded, now: datetime) -> bool:
    """Vacation starts by itself when the bank runs out and days are left."""
    settings = timekeeping.clock_of(loaded.first.payload)
    return timekeeping.vacation_left(clock, settings, loaded.first.recorded_at,
                                     now).total_seconds() > 0


def time_out(session: Session, loaded: Loaded, seat: int, now: datetime, domain: str,
             deadline_id: int | None = None, ordered: str | None = None) -> Owed:
    """The seat's time ran out: apply the seat's own order (``ordered``: the level of the bot
    it asked for, ``timeout_orders``), else the game's policy, as an event everyone is told
    about."""
    clock = timekeeping.clock_of(loaded.first.payload)
    if ordered is not None:
        clock = dataclasses.replace(clock, timeout_policy="bot", timeout_bot_level=ordered)
    if clock.timeout_policy == "pause":
        event = store.append(session, loaded.row.id, loaded.seq + 1, loaded.head_hash, "GamePaused",
                             {"reason": "timeout", "seat": seat}, SYSTEM, now)
        loaded.events.append(event)
        loaded.row.status = "paused"
        owed = queue_mail(session, loaded, None, now, domain)
        if deadline_id is not None:
            _tell_admins(session, loaded.row.id, deadline_id, now, domain)
        return owed + _tell_everyone(session, loaded, owed.mail, "paused", now, domain)
    game, state = loaded.game, loaded.state
    chosen = listed_or_first(game.legal_actions(state, seat), _policy_action(game, state, seat, clock))
    level = {"level": clock.timeout_bot_level} if clock.timeout_policy == "bot" else {}
    if ordered is not None:
        level["ordered"] = True
    record_move(session, loaded, "TurnTimedOut", seat, chosen, SYSTEM, now,
                policy=clock.timeout_policy, **level)
    play_bots(session, loaded, now)
    owed = queue_mail(session, loaded, None, now, domain)
    if loaded.row.status == "finished":
        return owed
    return owed + _tell_everyone(session, loaded, owed.mail, "timeout", now, domain)


def _tell_admins(session: Session, game_id: str, deadline_id: int, now: datetime,
                 domain: str) -> None:
    """The ``pause`` policy asks a human: the game's admins (its organiser), else the site's.
    Account mail rows are delivered by the outbox sweep, so this needs no dispatch here."""
    from service.mail import mailer

    addresses = game_admin_addresses(session, game_id) or site_admin_addresses(session)
    for address in addresses:
        mailer.queue(session, "admin_paused", deadline_id, address, now, domain)


def _policy_action(game, state, seat: int, clock: timekeeping.ClockSettings) -> dict:
    """``standing``: what the seat's standing orders answer (the game's default where they say
    nothing, or in a game without them); ``bot``: what a bot of the organiser's level would
    play from the seat's view; otherwise the default."""
    if clock.timeout_policy == "standing":
        return game.standing_action(state, seat)
    if clock.timeout_policy == "bot":
        return game.bot_action(state, seat, level=clock.timeout_bot_level)
    return game.default_action(state, seat)


def _tell_everyone(session: Session, loaded: Loaded, already: list[int], kind: str,
                   now: datetime, domain: str) -> Owed:
    """A notice to each seat not already mailed for this event (one mail per seat per event;
    the turn mail says what happened too)."""
    mailed = {session.get(OutboxRow, i).seat for i in already}
    rows = [outbox_row(loaded, s, kind, now, domain) for s in loaded.seats
            if s.seat not in mailed and has_address(s)]
    session.add_all(rows)
    session.flush()
    return Owed([r.id for r in rows])
