"""Delivering outbox rows: at least once, never twice with different content.

A delivery locks its row (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so two workers never send
the same row at once), builds the message, hands it to the transport and marks the row in the
same transaction.  A crash between sending and committing re-sends the identical message with
the identical Message-ID, which receivers dedupe.

A delivery also sends the other due rows of its (game, seq) that it can lock (the other
seats' mails of one event) with the same replay, in the same transaction.  A sibling that meets
a temporary failure is left untouched for its own task; a sibling task that finds its row
locked by such a batch returns "locked-or-missing", and should the batch then leave the row
pending, the sweep (``due_ids``) sends it after the grace, as for any lost task.

Since then the web process hands one commit's rows to one ``chasqui.deliver_many`` task
(``deliver_many`` here: every row of the batch is the task's own, one transaction, one replay
per (game, seq)); ``deliver`` serves the sweep, the embedded default and older queued tasks.
A worker killed mid-batch leaves the whole batch pending: its unacknowledged task comes back
when the broker's visibility time-out ends, and the sweep sends the rows sooner.

With an SMTP relay a batch renders its next mail while the relay answers
the previous one (``_Sends``); the wire still carries one mail at a time, in order, and each
row is marked from its own send's answer only."""
from __future__ import annotations

import logging
import os
import queue
import threading
from datetime import datetime, timedelta

from service.mail import kit as mailkit
from service.store import mail_reads
from service.store.db import Database, DatabaseFailure
from service.mail.headers import Unmailable
from service.core.refusals import Conflict
from service.store.loading import load
from service.mail.compose import build_message, deadlines_for
from service.store.models import OutboxRow
from service.mail.transport import (LocalMailbox, NoTransport, PermanentFailure, SmtpTransport,
                                    TemporaryFailure)

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 12
BACKOFF_BASE = timedelta(seconds=30)
BACKOFF_CAP = timedelta(hours=6)


def backoff(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min, … capped at 6 h: a flaky relay is not hammered."""
    return min(BACKOFF_BASE * (2 ** max(attempts - 1, 0)), BACKOFF_CAP)


def transport_for(settings):
    if not settings.local_mailbox:
        return SmtpTransport(settings.smtp_url)
    return LocalMailbox() if settings.serves_mailbox else NoTransport()


# A delivery also takes the other due rows of the same game and seq (the other seats' mails
# of one event) that no other worker holds: one lock, one replay, one transaction for all of
# them.  Their own tasks then find them sent and return at once.
BATCH_LIMIT = 16


def deliver(db: Database, settings, outbox_id: int, now: datetime, transport=None) -> str:
    """Deliver one row; returns its status afterwards ("sent", "pending", "bounced", ...).
    When it was sent, the due siblings (same game and seq, pending, not locked elsewhere) go
    out in the same transaction: each is sent and marked exactly as its own task would have,
    except that a temporary failure of a sibling leaves it untouched for its own task.

    Whatever the row raises (a message that cannot be built, a game that no longer loads) is
    written on the row by ``fault`` and not raised: the sweep, ``tick`` and the worker go on
    with the next row."""
    transport = transport or transport_for(settings)
    return guarded(db, OutboxRow, outbox_id, now,
                   lambda: _deliver(db, settings, outbox_id, now, transport))


def guarded(db: Database, model, row_id: int, now: datetime, attempt_delivery) -> str:
    """``attempt_delivery()``, whose transaction a failure of its own row's has undone; that
    failure is then recorded on the row in a transaction of its own (``fault``).  A race lost
    to another writer (``Conflict``) is no fault of the row: it stays as it was; nor is a
    database that fails (``DatabaseFailure``: a lost connection), which is raised."""
    try:
        return attempt_delivery()
    except Conflict:
        log.info("%s %s lost a race with another writer; left for the sweep", model.__name__,
                 row_id)
        return "pending"
    except DatabaseFailure:
        raise
    except Exception as error:  # noqa: BLE001 - one row's failure must not stop the rest
        with db.unit_of_work() as session:
            row = mail_reads.lock_for_delivery(session, model, row_id)
            if row is None or row.status != "pending":
                log.exception("%s %s failed", model.__name__, row_id)
                return "locked-or-missing" if row is None else row.status
            return fault(row, error, now)


def fault(row, error: BaseException, now: datetime) -> str:
    """A mail that could not be built or sent for a reason of its own row (a stored value no
    header can carry, a game that no longer replays, a bug) is written on that row as a relay's
    temporary failure is: the error in ``last_error`` (the game page's mail status shows it
    to its admins), retried after ``backoff`` until ``MAX_ATTEMPTS``, then ``failed``.

    ``last_error`` names the error's kind only, unless it is ``Unmailable`` (whose text names
    no game content): an exception raised while rendering a seat's private view could quote
    it, and the admins' page must show no more than public information.  The log has it all,
    with the row's id."""
    log.error("%s %s could not be built or sent", type(row).__name__, row.id, exc_info=error)
    reason = (str(error) if isinstance(error, Unmailable)
              else f"{type(error).__name__} (the log has the details)")
    return record(row, TemporaryFailure(f"not sent: {reason}"), now)


def _deliver(db: Database, settings, outbox_id: int, now: datetime, transport) -> str:
    with db.unit_of_work() as session:
        row = mail_reads.lock_for_delivery(session, OutboxRow, outbox_id)
        if row is None:
            return "locked-or-missing"
        if row.status != "pending":
            return row.status
        loaded = load(session, row.game_id, upto=row.seq)
        siblings = ([] if row.kind == "digest"
                    else mail_reads.lock_due_siblings(session, row, now, BATCH_LIMIT))
        withdrawn = withdrawn_mails(session, loaded, [row, *siblings])
        if row in withdrawn:
            return row.status
        siblings = [sibling for sibling in siblings if sibling not in withdrawn]
        rows = [row, *siblings]
        zones: dict = {}
        languages = mailkit.languages_for(session, rows, zones)
        deadlines = deadlines_for(session, loaded, rows)
        status = _deliver_row(settings, transport, session, loaded, row, now,
                              languages.get(row.id), deadlines, zones)
        if status != "sent":
            return status
        for sibling in siblings:
            if not _sibling_sent(settings, transport, session, loaded, sibling, now,
                                 languages.get(sibling.id), deadlines, zones):
                break  # the relay is unwell: leave the rest to their own tasks
        return status


def _sibling_sent(settings, transport, session, loaded, sibling: OutboxRow, now: datetime,
                  language: str | None, deadlines: dict, zones: dict) -> bool:
    """Send a sibling along with its row's delivery; False when the rest should wait for
    their own tasks.  A sibling whose message cannot be built is left untouched, as one that
    met a temporary failure is: its own delivery tries it and counts the fault, and the other
    siblings go on."""
    try:
        message = build_message(settings, loaded, sibling, language, deadlines, zones)
    except Exception:  # noqa: BLE001 - its own delivery records it
        log.exception("outbox %s left to its own task: its message could not be built",
                      sibling.id)
        return True
    try:
        return send_and_record(transport, session, sibling, message, now,
                               own_attempt=False) != "pending"
    except Exception:  # noqa: BLE001 - a sibling's bug must not undo the rows sent
        log.exception("outbox %s left to its own task", sibling.id)
        return False


def withdrawn_mails(session, loaded, rows: list[OutboxRow]) -> list[OutboxRow]:
    """The reminders and the turn mails that waited among ``rows`` whose decision closed
    after they were queued, marked ``cancelled`` and not to be sent: both ask for a move that
    is still open, and one that waited must not arrive after the player moved, its links
    already stale.  A reminder may wait behind a broker outage or a relay's 4xx and its
    backoff; a turn mail waits when it was deferred while its player was on the page
    (``games.deferred``) or retried after a temporary failure (``waited``).  Both are also
    withdrawn when the game paused or ended, and a turn mail when a later mail asked its seat
    again (a resume, a rollback: the seat's ``decision_seq`` moved past the row's seq), whose
    links the older mail's would contradict.  ``loaded``: the game at the rows' seq; its row
    and seats are the game as it is now, and the seat's clock holds the decision open now."""
    asking = [row for row in rows
              if row.kind.startswith("reminder") or (row.kind == "turn" and waited(row))]
    if not asking:
        return []
    game, state = loaded.game, loaded.state
    acting = game.to_act(state)
    then = {row.seat: game.decision_key(state, row.seat) for row in asking
            if row.seat in acting}
    now_open = ({} if loaded.row.status != "active"
                else mail_reads.open_decision_keys(session, loaded.row.id, sorted(then)))
    withdrawn = [row for row in asking
                 if row.seat not in then or now_open.get(row.seat) != then[row.seat]
                 or (row.kind == "turn" and loaded.seats[row.seat].decision_seq != row.seq)]
    for row in withdrawn:
        row.status = "cancelled"
        row.last_error = WITHDRAWN if row.kind.startswith("reminder") else ANSWERED
    return withdrawn


def waited(row: OutboxRow) -> bool:
    """Was the row due later than it was written (deferred, or backed off after a temporary
    failure)?  A turn mail handed to its delivery right after its commit was not: it is of
    the decision open now, and needs no look at the seat's clock."""
    return row.next_attempt_at != row.created_at


WITHDRAWN = "not sent: the decision closed before the reminder went out"
ANSWERED = "not sent: the decision closed before the mail went out"


def _deliver_row(settings, transport, session, loaded, row: OutboxRow, now: datetime,
                 language: str | None, deadlines: dict, zones: dict) -> str:
    message = build_message(settings, loaded, row, language, deadlines, zones)
    return send_and_record(transport, session, row, message, now)


def send_and_record(transport, session, row, message, now: datetime,
                    own_attempt: bool = True) -> str:
    """Send one message and write the outcome on its row (any outbox table with status,
    attempts, next_attempt_at, last_error, sent_at): sent; bounced on 5xx, never retried;
    on a temporary failure retried with backoff until MAX_ATTEMPTS, then failed.  A row sent
    along with another row's delivery (``own_attempt=False``) is left untouched by a temporary
    failure: its own task tries it and counts it."""
    return record(row, attempt(transport, message, session, now), now, own_attempt)


def attempt(transport, message, session, now: datetime) -> Exception | None:
    """Hand one message to the transport: None when the relay took it, else the
    ``PermanentFailure`` or ``TemporaryFailure`` it met (anything else propagates)."""
    try:
        transport.send(message, session, now)
    except (PermanentFailure, TemporaryFailure) as error:
        return error
    return None


def record(row, outcome: Exception | None, now: datetime, own_attempt: bool = True) -> str:
    """Write one send's ``attempt`` outcome on its row (see ``send_and_record``)."""
    if isinstance(outcome, PermanentFailure):
        row.attempts += 1
        row.status, row.last_error = "bounced", str(outcome)[:2000]
        log.warning("%s %s bounced: %s", type(row).__name__, row.id, outcome)
    elif isinstance(outcome, TemporaryFailure):
        if not own_attempt:
            log.info("%s %s left to its own task: %s", type(row).__name__, row.id, outcome)
            return "pending"
        row.attempts += 1
        row.last_error = str(outcome)[:2000]
        if row.attempts >= MAX_ATTEMPTS:
            row.status = "failed"
        else:
            row.next_attempt_at = now + backoff(row.attempts)
        log.info("%s %s will be retried: %s", type(row).__name__, row.id, outcome)
    else:
        for name, value in _sent(row, now):
            setattr(row, name, value)
    return row.status


def _sent(row, now: datetime) -> tuple:
    """What a send the relay took writes on its row: (column, value) pairs (``record``, and
    ``_write_sent`` for a batch, whose UPDATE ``mail_reads.mark_sent`` writes the same)."""
    return (("attempts", row.attempts + 1), ("status", "sent"), ("sent_at", now),
            ("last_error", None))


class _Sends:
    """A batch's sends, each overlapped with building the next message when the transport
    allows it (``SmtpTransport.overlapping``: thread-safe, no session): while the relay
    answers one mail's four SMTP round trips, the worker renders the next.  Still one mail
    at a time on the wire, in order, and a row is recorded only from its own send's outcome:
    ``submit`` first waits for the previous send and records it, so a temporary failure
    still stops the batch before the next mail goes out.  A send the relay took is noted, and
    written by ``_write_sent`` (``_noted``)."""

    def __init__(self, transport, session, now: datetime):
        self.transport, self.session, self.now = transport, session, now
        self.overlapping = bool(getattr(transport, "overlapping", False))
        self.in_flight = None  # the row whose send the sender thread has
        self.answers = queue.SimpleQueue() if self.overlapping else None  # (outcome, error)

    def submit(self, row, message) -> list[tuple]:
        """Send ``message`` for ``row``.  Returns the sends recorded meanwhile, as (row,
        status): the previous one's, and this one's when not overlapping.  When the last of
        them is "pending" (the relay is unwell), ``message`` was not sent."""
        done = self.finish()
        if done and done[-1][1] == "pending":
            return done
        if not self.overlapping:
            outcome = attempt(self.transport, message, self.session, self.now)
            return done + [(row, _noted(row, outcome, self.now))]
        _sender().put((self.answers, self.transport, message, self.now))
        self.in_flight = row
        return done

    def finish(self) -> list[tuple]:
        """Wait for the send in flight and record it: [(row, status)], or [] if none.  An
        error of no known kind in the send is raised here, as the transport raised it."""
        if self.in_flight is None:
            return []
        row, self.in_flight = self.in_flight, None
        outcome, error = self.answers.get()
        if error is not None:
            raise error
        return [(row, _noted(row, outcome, self.now))]

    def wait_quietly(self) -> None:
        """Leaving early (an error): let the send in flight end, record nothing (the
        transaction is not committed, so the row stays pending and is sent again)."""
        if self.in_flight is not None:
            self.in_flight = None
            self.answers.get()


def _noted(row, outcome: Exception | None, now: datetime) -> str:
    """``record`` for a row of ``deliver_many``, but a send the relay took is only noted here
    ("sent"): the batch's ``_write_sent`` writes those rows with one UPDATE and then gives
    their objects the written values.  ``record`` set them through the ORM's instrumentation
    and the rows then left the session (``expunge``): work per mail, for values
    the database had anyway.  A bounce or a temporary failure is
    ``record``'s, written by the commit's flush."""
    if outcome is None:
        return "sent"
    return record(row, outcome, now)


_SENDER: tuple[int, queue.SimpleQueue] | None = None  # (the process's id, its jobs)


def _sender() -> queue.SimpleQueue:
    """The queue of the one thread per process that talks to the relay (made on first use in
    each process: a child forked after it was made has no such thread, so it makes its own).
    Each job is (answers, transport, message, now); the thread puts ``attempt``'s (outcome,
    None), or (None, the error it raised), on the job's ``answers``.

    A plain queue and a daemon thread, not a ``ThreadPoolExecutor``: its
    ``submit`` took two locks, made a future and a work item and probed its idle semaphore (a
    Python ``Semaphore``: a condition and a lock), and ``result`` waited on the future's
    condition.  Here a send is
    one C-level ``put`` and ``get`` each way.  The order and the one-at-a-time rule are
    ``_Sends``' (it puts a send only after the previous one's answer was taken)."""
    global _SENDER
    if _SENDER is None or _SENDER[0] != os.getpid():
        jobs: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=_send_forever, args=(jobs,), name="chasqui-smtp",
                         daemon=True).start()
        _SENDER = (os.getpid(), jobs)
    return _SENDER[1]


def _send_forever(jobs: queue.SimpleQueue) -> None:
    while True:
        answers, transport, message, now = jobs.get()
        try:
            answer = (attempt(transport, message, None, now), None)
        except BaseException as error:  # noqa: BLE001 - handed to the batch, which raises it
            answer = (None, error)
        answers.put(answer)
        del answers, transport, message, answer  # hold no mail while waiting for the next


def deliver_many(db: Database, settings, outbox_ids, now: datetime,
                 transport=None) -> dict[int, str]:
    """Deliver the rows of one dispatch (one event's mails, a deadline sweep's, the digests)
    in one task, one transaction and one replay per (game, seq); returns {id: status after}.

    One task per row cost a Celery round trip and a lock transaction for every mail, though
    one delivery already sent the siblings of its (game, seq).  Here every row is this
    task's own: it is locked (``SKIP LOCKED``: a row another worker holds is that worker's),
    sent, and marked as ``deliver`` would mark it, in the same transaction, so a crash
    before the commit leaves every row of the batch pending, to be sent again (same bytes,
    same Message-ID) by the sweep.  A temporary failure is counted on the row that met it and
    ends the batch: the relay is unwell, and the rows not tried stay pending, untouched, for
    the sweep.  A row whose message cannot be built, or whose game cannot be loaded, is its
    own ``fault`` (the others still go).  The sends overlap the building of the next message
    when the transport allows it (``_Sends``); nothing else changes: the next mail goes out
    only after the previous one's answer was recorded.

    Anything else that fails the batch's transaction (a relay error of no known kind, the
    database) reaches the task and commits nothing: the sweep then delivers each row on its
    own (``deliver``), where only the row at fault records a fault."""
    transport = transport or transport_for(settings)
    ids = sorted({int(i) for i in outbox_ids})
    statuses = {i: "locked-or-missing" for i in ids}
    if not ids:
        return statuses
    with db.unit_of_work() as session, session.no_autoflush:
        # No autoflush: the rows marked sent are written by one UPDATE at the end
        # (``_write_sent``), the others' outcomes by the flush at commit (the reads in between
        # never look at the outbox), not by one UPDATE before every later query.
        # PostgreSQL: the lock also brings the games and seats and relaxes the commit.
        batch = mail_reads.lock_batch(session, ids)
        statuses.update((row.id, row.status) for row in batch.rows)
        owed = [row for row in batch.rows if row.status == "pending"]
        if not owed:
            return statuses
        groups: dict[tuple, list[OutboxRow]] = {}
        for row in owed:  # digests are built from their own list of games, one by one
            key = ("digest", row.id) if row.kind == "digest" else (row.game_id, row.seq)
            groups.setdefault(key, []).append(row)
        games: dict[tuple, tuple] = {}
        for key, group in groups.items():
            try:
                loaded = None if key[0] == "digest" else load(session, key[0], upto=key[1],
                                                                seats=batch.seats.get(key[0]))
                if loaded is not None:
                    withdrawn = withdrawn_mails(session, loaded, group)
                    statuses.update((row.id, row.status) for row in withdrawn)
                    group = groups[key] = [row for row in group if row not in withdrawn]
                deadlines = {} if loaded is None else deadlines_for(session, loaded, group)
            except Exception as error:  # noqa: BLE001 - one broken game must not hold back the others
                statuses.update((row.id, fault(row, error, now)) for row in group)
                continue
            games[key] = (loaded, deadlines)
        # After the loads: their seats are known, so this reads no seat again.
        zones: dict = {}
        languages = mailkit.languages_for(session, owed, zones, {
            (loaded.row.id, seat.seat): seat
            for loaded, _ in games.values() if loaded is not None for seat in loaded.seats})
        recorded: set[int] = set()
        sends = _Sends(transport, session, now)

        def unwell(done: list[tuple]) -> bool:
            for row, status in done:
                statuses[row.id] = status
                recorded.add(row.id)
                if status == "pending":
                    log.info("the relay is unwell: outbox %s left to the sweep",
                             [r.id for r in owed if r.id not in recorded])
                    return True
            return False

        def send_all() -> None:
            for key, (loaded, deadlines) in games.items():
                for row in groups[key]:
                    try:
                        message = build_message(settings, loaded, row,
                                                languages.get(row.id), deadlines, zones)
                    except Exception as error:  # noqa: BLE001 - a bug in one mail must not stop the rest
                        statuses[row.id] = fault(row, error, now)
                        continue
                    if unwell(sends.submit(row, message)):
                        return
            unwell(sends.finish())

        try:
            send_all()
        finally:
            sends.wait_quietly()
        _write_sent(session, [row for row in owed
                              if row.id in recorded and statuses[row.id] == "sent"], now)
    return statuses


def _write_sent(session, rows: list[OutboxRow], now: datetime) -> None:
    """Write the rows a batch sent with one UPDATE, in the batch's transaction, before its
    commit, so a crash before the commit still leaves them pending.

    The commit's flush wrote them through the unit of work (a visible share of a worker's CPU per mail
    in a profile).  Here the same values go out in one statement: each row's attempts
    plus one (read and locked in this transaction), "sent", ``now``, no error, as ``record``
    writes a send the relay took.  The rows' objects were left unchanged (``_noted``), so the
    flush has nothing to write for them; they are then given the written values as the
    database's own (``mail_reads.as_written``: no change for the flush).  As the
    flush would (``StaleDataError``), a row the UPDATE did not find fails the batch, which then
    commits nothing."""
    if not rows:
        return
    ids = [row.id for row in rows]
    marked = mail_reads.mark_sent(session, ids, now)
    if marked != len(rows):
        raise RuntimeError(f"outbox: {len(rows)} rows sent, {marked} marked")
    for row in rows:
        mail_reads.as_written(row, _sent(row, now))


def due_ids(db: Database, now: datetime, grace: timedelta = timedelta(seconds=60),
            limit: int = 200) -> list[int]:
    """Rows still owed whose time has come: the sweep that makes a lost task harmless.
    The grace keeps the sweep from racing the task that was queued right after commit."""
    with db.reading() as session:
        return mail_reads.owed_ids(session, OutboxRow, now - grace, limit)
