"""Clocks, reminders and timeouts: no game stalls, nobody is nagged after moving.

Each seat has a Fischer-style time bank: when a new decision starts the seat gets
``per_decision`` added (capped at ``bank_max``), and the time spent is taken off when the
decision ends.  Simultaneous decisions therefore run one clock per seat.  A seat's open
decision has one row of ``deadlines`` (indexed by due time): its next alarm, a reminder or the
timeout.  It is written in the same transaction as the event that started the decision and
cancelled in the same transaction as the move that ended it, so a reminder can never arrive
after the player moved; the sweep that sends a reminder moves the same row on to the next
alarm (``next_alarm``).  One row per decision rather than one per reminder and timeout: a
round of four seats wrote twelve rows and every move cancelled three (about a sixth
of a move's PostgreSQL time).

A timeout is an event (``TurnTimedOut``) carrying the engine's safe default action, appended
through the same optimistic seq as a move: a move committed first wins, and the sweep then
finds the deadline's decision gone and cancels it."""
from __future__ import annotations

import functools
import json
import math
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key

from engine import IllegalAction, canonical_json
from engine.search import LEVELS
from engine.text import counted, phrase
from service.store.models import DeadlineRow, GameRow, SeatClockRow, SeatRow
from service.core.validation import BadInput, bot_level, bounded_number

POLICIES = ("default", "standing", "pause", "bot")  # "bot": a bot decides, at timeout_bot_level
CLOCK_FIELDS = ("bank_seconds", "decision_key", "started_at", "due_at", "vacation_since",
                "vacation_used_seconds")


@dataclass(frozen=True)
class ClockSettings:
    per_decision_hours: float = 48
    bank_max_hours: float = 120
    reminder_hours: tuple[float, ...] = (24, 2)
    timeout_policy: str = "default"
    weekend_pause: bool = False
    vacation_days: float = 14
    vacation_period_days: float = 90
    timeout_bot_level: str = "easy"  # the level of the bot that decides under policy "bot"

    @property
    def per_decision(self) -> timedelta:
        return timedelta(hours=self.per_decision_hours)

    @property
    def bank_max(self) -> timedelta:
        return timedelta(hours=self.bank_max_hours)

    def to_json(self) -> dict:
        """As recorded in GameCreated.  The bot's level only with the policy "bot": a game
        under another policy records its clock as it did before levels."""
        data = asdict(self)
        data["reminder_hours"] = list(self.reminder_hours)
        if self.timeout_policy != "bot":
            del data["timeout_bot_level"]
        return data


_DEFAULTS = {**asdict(ClockSettings()),  # read on every event (``clock_of``): built once
             "reminder_hours": list(ClockSettings().reminder_hours)}


# The bounds of every clock number (docs/time.md): far beyond any sensible game, yet within
# what date arithmetic can hold -- 10^9 vacation days overflow a timedelta, and a deadline
# past the year 9999 cannot be written.
CLOCK_BOUNDS = {"per_decision_hours": (0.1, 8760), "bank_max_hours": (0.1, 8760),
                "vacation_days": (0, 365), "vacation_period_days": (1, 3650)}
REMINDER_BOUNDS = (0.1, 8760)
MAX_REMINDERS = 10


def parse_clock(data) -> ClockSettings:
    """Validate a game's clock options (API body ``clock``, the organiser's form): typed,
    finite and within ``CLOCK_BOUNDS``; clear errors, sensible defaults."""
    if data is None:
        return ClockSettings()
    if not isinstance(data, dict):
        raise IllegalAction(phrase("clock must be a JSON object"))
    unknown = set(data) - set(ClockSettings.__dataclass_fields__)
    if unknown:
        raise IllegalAction(counted("unknown clock setting: {unknown}",
                                    "unknown clock settings: {unknown}", len(unknown),
                                    unknown=sorted(map(str, unknown))))
    values = {**_DEFAULTS, **data}
    for key in ("per_decision_hours", "bank_max_hours", "vacation_period_days"):
        if not _number(values[key]) or values[key] <= 0:
            raise IllegalAction(phrase("{setting} must be a positive number", setting=key))
    if not _number(values["vacation_days"]) or values["vacation_days"] < 0:
        raise IllegalAction(phrase("vacation_days must be zero or more"))
    numbers = {key: _within(key, values[key], *CLOCK_BOUNDS[key]) for key in CLOCK_BOUNDS}
    if numbers["per_decision_hours"] > numbers["bank_max_hours"]:
        raise IllegalAction(phrase("per_decision_hours cannot exceed bank_max_hours"))
    if numbers["vacation_days"] > numbers["vacation_period_days"]:
        raise IllegalAction(phrase("vacation_days cannot exceed vacation_period_days"))
    marks = _reminders(values["reminder_hours"])
    if values["timeout_policy"] not in POLICIES:
        raise IllegalAction(phrase("timeout_policy must be one of {choices}",
                                   choices=list(POLICIES)))
    if not isinstance(values["weekend_pause"], bool):
        raise IllegalAction(phrase("weekend_pause must be true or false"))
    try:
        level = bot_level(values["timeout_bot_level"], "timeout_bot_level")
    except BadInput as error:
        raise IllegalAction(error.say) from None
    return ClockSettings(numbers["per_decision_hours"], numbers["bank_max_hours"], marks,
                         values["timeout_policy"], values["weekend_pause"],
                         numbers["vacation_days"], numbers["vacation_period_days"], level)


def _reminders(marks) -> tuple[float, ...]:
    if not isinstance(marks, list) or not all(_number(m) and m > 0 for m in marks):
        raise IllegalAction(phrase("reminder_hours must be a list of positive hours"))
    if len(marks) > MAX_REMINDERS:
        raise IllegalAction(phrase("reminder_hours: at most {count} reminders",
                                   count=MAX_REMINDERS))
    marks = [_within("reminder_hours", m, *REMINDER_BOUNDS) for m in marks]
    return tuple(sorted(set(marks), reverse=True))


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _finite(value) -> bool:
    return _number(value) and not (isinstance(value, float) and not math.isfinite(value))


def _within(key: str, value, low: float, high: float) -> float:
    try:
        return bounded_number(value, key, low, high)
    except BadInput as error:
        raise IllegalAction(error.say) from None


def stored_clock(data) -> ClockSettings:
    """The clock a game (or a pending game) recorded.  A recorded clock passed the rules of its
    day; one that today's bounds refuse (a NaN, 10^9 vacation days, from before the bounds)
    is brought within them here instead of refused, because refusing would stop a running
    game on every page, move and sweep."""
    try:
        return parse_clock(data)
    except IllegalAction:
        return parse_clock(_within_bounds(data if isinstance(data, dict) else {}))


def _within_bounds(data: dict) -> dict:
    """``data``'s settings made valid: a number clamped into its bounds (not a finite number:
    the default), anything else unusable replaced by the default."""
    values = {**_DEFAULTS, **{k: v for k, v in data.items() if k in _DEFAULTS}}
    clean = {key: min(max(values[key], low), high) if _finite(values[key]) else _DEFAULTS[key]
             for key, (low, high) in CLOCK_BOUNDS.items()}
    clean["bank_max_hours"] = max(clean["bank_max_hours"], clean["per_decision_hours"])
    clean["vacation_days"] = min(clean["vacation_days"], clean["vacation_period_days"])
    marks = values["reminder_hours"]
    low, high = REMINDER_BOUNDS
    clean["reminder_hours"] = ([min(max(m, low), high) for m in marks if _finite(m) and m > 0]
                               [:MAX_REMINDERS] if isinstance(marks, list)
                               else _DEFAULTS["reminder_hours"])
    clean["timeout_policy"] = (values["timeout_policy"] if values["timeout_policy"] in POLICIES
                               else _DEFAULTS["timeout_policy"])
    clean["weekend_pause"] = values["weekend_pause"] is True
    clean["timeout_bot_level"] = (values["timeout_bot_level"] if values["timeout_bot_level"]
                                  in LEVELS else _DEFAULTS["timeout_bot_level"])
    return clean


def clock_of(created_payload: dict) -> ClockSettings:
    """The clock settings a game was created with.  Read on every move, from the same few
    option sets over and over (most games keep the defaults), so each set is validated once
    per process, found by its canonical JSON, which
    tells apart what the parser tells apart (``true`` and ``1``, ``[24]`` and ``24``)."""
    return _clock_of_json(canonical_json(created_payload.get("clock")))


@functools.lru_cache(maxsize=256)
def _clock_of_json(text: str) -> ClockSettings:
    return stored_clock(json.loads(text))


# --- clock time: wall time, less Saturdays and Sundays (UTC) when the game pauses weekends ---

def _is_weekend(moment: datetime) -> bool:
    return moment.weekday() >= 5


def _next_midnight(moment: datetime) -> datetime:
    return (moment + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)


def add_clock_time(start: datetime, duration: timedelta, weekend_pause: bool) -> datetime:
    """The moment when ``duration`` of clock time has run from ``start``."""
    if not weekend_pause:
        return start + duration
    moment, left = start, duration
    while True:
        if _is_weekend(moment):
            moment = _next_midnight(moment)
            continue
        day_end = _next_midnight(moment)
        if moment + left <= day_end:
            return moment + left
        left -= day_end - moment
        moment = day_end


def clock_time_between(start: datetime, end: datetime, weekend_pause: bool) -> timedelta:
    """Clock time that ran from ``start`` to ``end`` (zero if end is earlier)."""
    if end <= start:
        return timedelta(0)
    if not weekend_pause:
        return end - start
    total, moment = timedelta(0), start
    while moment < end:
        day_end = min(_next_midnight(moment), end)
        if not _is_weekend(moment):
            total += day_end - moment
        moment = day_end
    return total


# --- opening and closing a seat's clock as decisions start and end ---

VACATION_GRACE = timedelta(hours=24)


class Clock:
    """A ``seat_clocks`` row as plain data.  ``update_clocks`` runs on every event, so it reads
    and writes these with Core statements (one UPDATE for every changed clock) instead of ORM
    objects and a unit-of-work flush, which cost more than the rest of a move put together.
    The vacation commands still use ``SeatClockRow`` objects; the functions below take either."""
    __slots__ = ("game_id", "seat") + CLOCK_FIELDS

    def __init__(self, game_id: str, seat: int, bank_seconds: int | None = 0,
                 decision_key: str | None = None, started_at: datetime | None = None,
                 due_at: datetime | None = None, vacation_since: datetime | None = None,
                 vacation_used_seconds: int | None = 0):
        self.game_id, self.seat = game_id, seat
        self.bank_seconds, self.decision_key = bank_seconds, decision_key
        self.started_at, self.due_at = started_at, due_at
        self.vacation_since, self.vacation_used_seconds = vacation_since, vacation_used_seconds

    def values(self) -> tuple:
        return tuple(getattr(self, name) for name in CLOCK_FIELDS)


_CLOCKS = SeatClockRow.__table__
_DEADLINES = DeadlineRow.__table__
_READ_CLOCKS = select(_CLOCKS).where(_CLOCKS.c.game_id == bindparam("game_id"))


def read_clocks(session: Session, game_id: str) -> dict[int, Clock]:
    """The game's clocks by seat, as plain data (read after any pending ORM change is flushed)."""
    session.flush()
    return {row.seat: Clock(**row._mapping)
            for row in session.execute(_READ_CLOCKS, {"game_id": game_id})}


@dataclass
class ClockChanges:
    """What ``update_clocks`` decided to write, for the command's one write
    (``move_writes``): the seats whose pending deadlines (all but ``vacation_end``) are
    cancelled, the seats whose ``vacation_end`` deadline is, the clocks whose values changed,
    the new clocks, and the new decisions' deadline rows."""
    cancel_seats: list[int] = field(default_factory=list)
    vacations_ended: list[int] = field(default_factory=list)
    changed: list[Clock] = field(default_factory=list)
    added: list[Clock] = field(default_factory=list)
    deadlines: list[dict] = field(default_factory=list)


def update_clocks(session: Session, game_id: str, settings: ClockSettings, decisions: dict[int, str],
                  now: datetime, finished: bool, mover: int | None = None,
                  clocks: dict[int, Clock] | None = None) -> ClockChanges:
    """Close clocks whose decision ended, open clocks for new decisions; what to write.

    ``decisions`` maps each seat that must act to its engine ``decision_key``; ``mover`` is
    the seat whose move this was (moving ends one's own vacation).  ``clocks``: the game's
    clocks as the caller has just read them (``read_clocks``; they are changed in place), to
    save the query.  Nothing is written here: the caller writes the returned changes with its
    own rows, in one write (``move_writes``), which also keeps the session's objects of them
    in step."""
    if clocks is None:
        clocks = read_clocks(session, game_id)
    before = {seat: clock.values() for seat, clock in clocks.items()}
    changes = ClockChanges()
    closing = [clock for seat, clock in clocks.items() if clock.decision_key is not None
               and (finished or decisions.get(seat) != clock.decision_key)]
    changes.cancel_seats = [clock.seat for clock in closing]
    if mover is not None and mover in clocks and clocks[mover].vacation_since is not None:
        end_vacation(session, clocks[mover], settings, now, resume=False,
                     ended=changes.vacations_ended)
    for clock in closing:
        _close(session, clock, settings, now, cancel=False)
    if finished:
        for clock in clocks.values():
            if clock.vacation_since is not None:
                end_vacation(session, clock, settings, now, resume=False,
                             ended=changes.vacations_ended)
    else:
        for seat, key in decisions.items():
            clock = clocks.get(seat)
            if clock is None:
                clock = clocks[seat] = Clock(game_id, seat)
            if clock.decision_key != key:
                _open(session, clock, settings, key, now, changes.deadlines)
    changes.changed = [c for seat, c in clocks.items()
                       if seat in before and c.values() != before[seat]]
    changes.added = [c for seat, c in clocks.items() if seat not in before]
    return changes


def sync_objects(session: Session, model, changes: list[tuple[tuple, dict]]) -> None:
    """Rows written with Core statements: objects of them already in the session take the new
    values as their loaded state (no UPDATE of their own at the next flush, no stale read)."""
    if not session.identity_map:
        return
    for key, values in changes:
        obj = session.identity_map.get(identity_key(model, key))
        if obj is not None:
            for name, value in values.items():
                set_committed_value(obj, name, value)


def _close(session: Session, clock, settings: ClockSettings, now: datetime,
           cancel: bool = True) -> None:
    if clock.due_at is not None:  # a stopped clock (vacation) keeps its bank as it was
        left = clock_time_between(now, _aware(clock.due_at), settings.weekend_pause)
        clock.bank_seconds = int(left.total_seconds())
    clock.decision_key, clock.started_at, clock.due_at = None, None, None
    if cancel:
        _cancel(session, clock, kinds=None)


def _cancel(session: Session, clock, kinds: set[str] | None) -> None:
    _cancel_seats(session, clock.game_id, [clock.seat], kinds)


_CANCEL_ALL = (_DEADLINES.update()
               .where(_DEADLINES.c.game_id == bindparam("key_game"),
                      _DEADLINES.c.seat.in_(bindparam("key_seats", expanding=True)),
                      _DEADLINES.c.status == "pending", _DEADLINES.c.kind != "vacation_end")
               .values(status="cancelled"))
_CANCEL_ONE = (_DEADLINES.update()  # the common case, one seat: no expanding IN to render
               .where(_DEADLINES.c.game_id == bindparam("key_game"),
                      _DEADLINES.c.seat == bindparam("key_seat"),
                      _DEADLINES.c.status == "pending", _DEADLINES.c.kind != "vacation_end")
               .values(status="cancelled"))
_CANCEL_KINDS = (_DEADLINES.update()
                 .where(_DEADLINES.c.game_id == bindparam("key_game"),
                        _DEADLINES.c.seat.in_(bindparam("key_seats", expanding=True)),
                        _DEADLINES.c.status == "pending",
                        _DEADLINES.c.kind.in_(bindparam("key_kinds", expanding=True)))
                 .values(status="cancelled"))


def _cancel_seats(session: Session, game_id: str, seats: list[int], kinds: set[str] | None) -> None:
    """Cancel the seats' pending deadlines of ``kinds`` (None: all but ``vacation_end``) in one
    UPDATE.  Pending ORM changes are flushed first (a fired deadline marked done stays done),
    and ``DeadlineRow`` objects in the session that the UPDATE matched are marked cancelled."""
    session.flush()
    if kinds is None and len(seats) == 1:
        session.execute(_CANCEL_ONE, {"key_game": game_id, "key_seat": seats[0]})
    elif kinds is None:
        session.execute(_CANCEL_ALL, {"key_game": game_id, "key_seats": list(seats)})
    else:
        session.execute(_CANCEL_KINDS, {"key_game": game_id, "key_seats": list(seats),
                                        "key_kinds": sorted(kinds)})
    sync_cancelled(session, game_id, seats, kinds)


def sync_cancelled(session: Session, game_id: str, seats: list[int], kinds: set[str] | None) -> None:
    """``DeadlineRow`` objects in the session that a cancel matched take the new status."""
    for obj in list(session.identity_map.values()) if session.identity_map else ():
        if (isinstance(obj, DeadlineRow) and obj.__dict__.get("status") == "pending"
                and obj.__dict__.get("game_id") == game_id and obj.__dict__.get("seat") in seats
                and (obj.__dict__.get("kind") != "vacation_end" if kinds is None
                     else obj.__dict__.get("kind") in kinds)):
            set_committed_value(obj, "status", "cancelled")


def _open(session: Session, clock, settings: ClockSettings, key: str, now: datetime,
          deadlines: list[dict] | None = None) -> None:
    bank = min(timedelta(seconds=clock.bank_seconds or 0) + settings.per_decision, settings.bank_max)
    clock.decision_key, clock.started_at = key, now
    clock.bank_seconds = int(bank.total_seconds())
    if clock.vacation_since is None:
        _run(session, clock, settings, bank, now, deadlines)


def _run(session: Session, clock, settings: ClockSettings, bank: timedelta, now: datetime,
         deadlines: list[dict] | None = None) -> None:
    """Start the clock: the timeout and the reminders before it.  The deadline rows go to
    ``deadlines`` when given (the caller inserts them in one statement), else to the session."""
    clock.due_at = add_clock_time(now, bank, settings.weekend_pause)
    kind, due = next_alarm(clock.due_at, settings.reminder_hours, now)
    row = {"game_id": clock.game_id, "seat": clock.seat, "kind": kind,
           "decision_key": clock.decision_key, "due_at": due, "status": "pending"}
    if deadlines is not None:
        deadlines.append(row)
    else:
        session.add(DeadlineRow(**row))


def next_alarm(due_at: datetime, reminder_hours: tuple[float, ...], now: datetime) -> tuple[str, datetime]:
    """(kind, when) of a decision's next alarm after ``now``: the earliest reminder still
    ahead (``reminder_hours`` run from most hours to fewest), else the timeout.  A reminder
    whose moment has passed is skipped, so a late sweep sends one reminder, not a burst."""
    for hours in reminder_hours:
        when = due_at - timedelta(hours=hours)
        if when > now:
            return f"reminder:{hours:g}", when
    return "timeout", due_at


def timeout_of(kind: str, due_at: datetime) -> datetime:
    """When the decision whose alarm this is times out: a reminder's moment is the timeout's
    less its hours (``next_alarm``), so a row tells its decision's timeout at any stage."""
    if kind.startswith("reminder:"):
        return due_at + timedelta(hours=float(kind.partition(":")[2]))
    return due_at


# --- vacations: a stopped clock, from a budget that accrues with the game's age ---

def vacation_left(clock: SeatClockRow, settings: ClockSettings, game_started: datetime,
                  now: datetime) -> timedelta:
    """``vacation_days`` for the first period, then accruing at the same rate."""
    periods = max(1.0, (now - _aware(game_started)) / timedelta(days=settings.vacation_period_days))
    allowance = timedelta(days=settings.vacation_days) * periods
    used = timedelta(seconds=clock.vacation_used_seconds or 0)
    if clock.vacation_since is not None:
        used += now - _aware(clock.vacation_since)
    return max(allowance - used, timedelta(0))


def start_vacation(session: Session, clock: SeatClockRow, settings: ClockSettings,
                   game_started: datetime, now: datetime) -> timedelta:
    """Stop the seat's clock; schedule the vacation's end when the budget runs out."""
    left = vacation_left(clock, settings, game_started, now)
    if left <= timedelta(0):
        raise IllegalAction(phrase("no vacation days left in this game"))
    if clock.vacation_since is not None:
        raise IllegalAction(phrase("you are already on vacation"))
    if clock.due_at is not None:
        clock.bank_seconds = int(clock_time_between(now, _aware(clock.due_at),
                                                    settings.weekend_pause).total_seconds())
    clock.due_at = None
    _cancel(session, clock, kinds=None)
    clock.vacation_since = now
    session.add(DeadlineRow(game_id=clock.game_id, seat=clock.seat, kind="vacation_end",
                            decision_key="vacation", due_at=now + left, status="pending"))
    return left


def end_vacation(session: Session, clock: SeatClockRow, settings: ClockSettings, now: datetime,
                 resume: bool = True, ended: list[int] | None = None) -> None:
    """Restart the clock where it stopped (at least a day, so nobody times out on return).
    ``ended`` (``update_clocks``'): the seat goes there, for the caller to cancel the
    vacation's end with its other rows, instead of being cancelled now."""
    if clock.vacation_since is None:
        raise IllegalAction(phrase("you are not on vacation"))
    clock.vacation_used_seconds = (clock.vacation_used_seconds or 0) + int(
        (now - _aware(clock.vacation_since)).total_seconds())
    clock.vacation_since = None
    if ended is not None:
        ended.append(clock.seat)
    else:
        _cancel(session, clock, kinds={"vacation_end"})
    if resume and clock.decision_key is not None:
        bank = max(timedelta(seconds=clock.bank_seconds or 0), VACATION_GRACE)
        _run(session, clock, settings, bank, now)


def _aware(moment: datetime) -> datetime:
    from service.store.events import utc
    return utc(moment)


def games_with_bots_to_act(session: Session, limit: int = 100) -> list[str]:
    """Active games in which a bot seat has an open decision (its clock runs): the bot turns a
    command left waiting.  A bot that plays in its command never leaves its clock running."""
    rows = session.execute(
        select(SeatClockRow.game_id).distinct()
        .join(SeatRow, (SeatRow.game_id == SeatClockRow.game_id) & (SeatRow.seat == SeatClockRow.seat))
        .join(GameRow, GameRow.id == SeatClockRow.game_id)
        .where(SeatRow.bot.is_(True), GameRow.status == "active", SeatClockRow.due_at.is_not(None))
        .order_by(SeatClockRow.game_id).limit(limit))
    return [row[0] for row in rows]


def due_deadlines(session: Session, now: datetime, limit: int = 100) -> list[DeadlineRow]:
    """Due rows, locked so that several sweepers never fire the same one (SKIP LOCKED)."""
    return list(session.scalars(
        select(DeadlineRow)
        .where(DeadlineRow.status == "pending", DeadlineRow.due_at <= now)
        .order_by(DeadlineRow.due_at).limit(limit)
        .with_for_update(skip_locked=True)))


def seat_clock(session: Session, game_id: str, seat: int) -> SeatClockRow | None:
    return session.get(SeatClockRow, (game_id, seat))


@dataclass
class ClockView:
    """What a page or mail shows of a seat's clock."""
    due_at: datetime | None
    bank_seconds: int
    reminders: list[str] = field(default_factory=list)


# How long is left, in each language: data, not branches.  English is the original
# ("in 1 day 3 h"); Chinese and Japanese write the parts without spaces ("1天3小时后", "あと1日3時間").
TIME_LEFT_WORDS = {
    "en": {"now": "now", "day": "{n} day", "days": "{n} days", "h": "{n} h", "min": "{n} min",
           "under_a_minute": "less than a minute", "left": "in {parts}", "join": " "},
    "zh_Hans": {"now": "现在", "day": "{n}天", "days": "{n}天", "h": "{n}小时", "min": "{n}分钟",
                "under_a_minute": "不到一分钟", "left": "{parts}后", "join": ""},
    "ja": {"now": "今", "day": "{n}日", "days": "{n}日", "h": "{n}時間", "min": "{n}分",
           "under_a_minute": "1分未満", "left": "あと{parts}", "join": ""},
}
# An absolute time where the player is, in each language's usual order (Babel patterns).
DUE_PATTERNS = {"zh_Hans": "yyyy年M月d日 EEE HH:mm", "ja": "yyyy年M月d日(EEE) HH:mm"}


def describe_left(due_at: datetime, now: datetime, language: str = "en") -> str:
    """"in 1 day 3 h" — coarse on purpose: mail is read hours after it is sent."""
    words = TIME_LEFT_WORDS.get(language, TIME_LEFT_WORDS["en"])
    seconds = int((_aware(due_at) - now).total_seconds())
    if seconds <= 0:
        return words["now"]
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = []
    if days:
        parts.append(words["day" if days == 1 else "days"].format(n=days))
    if hours:
        parts.append(words["h"].format(n=hours))
    if not days and minutes:
        parts.append(words["min"].format(n=minutes))
    return words["left"].format(parts=words["join"].join(parts or [words["under_a_minute"]]))


def zone_of(session: Session, game_id: str, seat: int | None) -> str:
    """The seat's chosen time zone (a mail preference; none chosen: UTC)."""
    from service.store.models import MailPreferenceRow

    row = session.get(MailPreferenceRow, (game_id, seat)) if seat is not None else None
    return row.timezone if row is not None and row.timezone else "UTC"


def format_due(moment: datetime, zone: str = "UTC", language: str = "en") -> str:
    """"Tue 01 Dec 2026 21:00 JST" — an absolute time where the player is (in Chinese or
    Japanese: "2026年12月1日 周二 21:00 JST", "2026年12月1日(火) 21:00 JST")."""
    from zoneinfo import ZoneInfo

    local = _aware(moment).astimezone(ZoneInfo(zone))
    name = local.tzname() or zone
    pattern = DUE_PATTERNS.get(language)
    if pattern is None:
        return local.strftime("%a %d %b %Y %H:%M ") + name
    from babel.dates import format_datetime

    return f"{format_datetime(local, pattern, tzinfo=local.tzinfo, locale=language)} {name}"


def table(session: Session, loaded, now: datetime, zone: str = "UTC",
          language: str = "en") -> list[dict]:
    """Every seat's clock as the play page shows it (all public: deadlines and vacations)."""
    settings = clock_of(loaded.first.payload)
    rows = {c.seat: c for c in session.scalars(
        select(SeatClockRow).where(SeatClockRow.game_id == loaded.row.id))}
    result = []
    for seat in loaded.seats:
        clock = rows.get(seat.seat)
        entry = {"seat": seat.seat, "name": seat.name, "due": None, "due_in": None,
                 "vacation": False, "vacation_days_left": settings.vacation_days,
                 "bank": _hours(clock.bank_seconds if clock else 0)}
        if clock is not None:
            entry["vacation"] = clock.vacation_since is not None
            entry["vacation_days_left"] = round(vacation_left(
                clock, settings, loaded.first.recorded_at, now).total_seconds() / 86400, 1)
            if clock.due_at is not None:
                due = _aware(clock.due_at)
                entry["due"] = format_due(due, zone, language)
                entry["due_in"] = describe_left(due, now, language)
        result.append(entry)
    return result


def _hours(seconds: int) -> str:
    return f"{(seconds or 0) / 3600:.0f} h"


def other_pending_alarms(session: Session, deadline: DeadlineRow) -> bool:
    """Whether the deadline's decision has pending rows besides this one: rows that code from
    before one row per decision wrote for each reminder and the timeout, which fire by
    themselves."""
    return session.scalar(select(DeadlineRow.id).where(
        DeadlineRow.game_id == deadline.game_id, DeadlineRow.seat == deadline.seat,
        DeadlineRow.decision_key == deadline.decision_key, DeadlineRow.status == "pending",
        DeadlineRow.id != deadline.id).limit(1)) is not None
