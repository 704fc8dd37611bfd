"""Commands on games: the only place that calls the engine to change anything.

Each command runs inside one unit of work (a transaction handed in by the caller): it loads
the events, replays them, validates through the engine, appends the new event and writes the
outbox rows for the mail that event makes owed.  The caller commits, then dispatches."""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from engine import IllegalAction, find_legal, get_game
from engine.core import without_label
from engine.search import EASY, STRONG
from engine.text import Phrase, phrase, term
from service.store import fairness
from service.store import randomness
from service.store import move_writes
from service.store import preferences
from service.store import events as store
from service.store import timekeeping
from service.store import webhooks
from service.store.history import INFO_EVENTS, REVEAL_EVENT
from service.store.db import Session
from service.store.models import GameRow, OutboxRow, SeatRow
from service.store.events import Event
from service.store.loading import Loaded, load
from service.store.seats import reread_seats_and_game
from service.mail.message_ids import message_id
from service.core.pace import parse_pace
from service.core.tokens import new_game_id


class StaleMove(store.Conflict):
    """The player saw an older state than the current one."""


@dataclass
class Owed:
    """What a command made owed, for its dispatch after commit: the mail's outbox ids and
    the chat channel's webhook post ids, each list for its own delivery."""
    mail: list[int] = field(default_factory=list)
    posts: list[int] = field(default_factory=list)

    def __add__(self, other: "Owed") -> "Owed":
        return Owed(self.mail + other.mail, self.posts + other.posts)


@dataclass
class Outcome:
    """What a command did: the new head, what to dispatch after commit, and the game as the
    command left it (so an answer needs no second replay)."""
    seq: int
    owed: Owed = field(default_factory=Owed)
    loaded: "Loaded | None" = None
    seat: int | None = None


def create_game(session: Session, name: str, players: list[dict], seed: int | None,
                options: dict | None, actor: str, now: datetime, domain: str,
                clock: dict | None = None, pace: str | None = None,
                secret: str | None = None) -> tuple[str, Outcome]:
    """Validate with the engine, then record GameCreated and mail every seat its start.

    ``players``: ``{"name", "email"}`` per seat, in seat order, each with the ``contribution``
    its player gave when taking the seat (``fairness.contribution``); a seat without one gets
    the service's (``fairness.defaults``).  ``secret``: the service's secret whose commitment
    the players saw before giving theirs (an invitation, the lobby); None draws one now (a
    game whose seats were all taken at once).  GameCreated publishes the commitment and the
    contributions; the secret and the seed derived from them stay sealed with the event
    until the game ends.  ``seed``: a site admin's (tests, the admin API), recorded as given.
    ``pace``: the organiser's pace code (``service.core.pace``), shown to players, kept on
    the game row."""
    game = get_game(name)
    pace = parse_pace(pace)
    clock_settings = timekeeping.parse_clock(clock)
    options = options or {}
    if not isinstance(options, dict):
        raise IllegalAction(phrase("options must be a JSON object"))
    options, mail_options = _split_mail_options(options)  # the service's, not the engine's
    if seed is not None and not fairness.is_seed(seed):
        raise IllegalAction(phrase("seed must be a whole number from 0 to 2**256 - 1"))
    public, sealed, seed = _chance(players, seed, secret)
    names = [p["name"] for p in players]
    state = game.setup(names, seed, options)  # raises IllegalAction on a bad count or option
    game_id = new_game_id()
    session.add(GameRow(id=game_id, game=name, status="active", created_at=now,
                        updated_at=now, head_seq=1, pace=pace))
    seats = [SeatRow(game_id=game_id, seat=i, name=p["name"], email=p["email"],
                     nonce=secrets.token_urlsafe(12)) for i, p in enumerate(players)]
    session.add_all(seats)
    session.flush()
    event = store.append(session, game_id, 1, store.GENESIS, "GameCreated", {
        "game": name, "rules_version": game.rules_version, **public,
        "players": names, "options": options, "clock": clock_settings.to_json(),
        **({"mail": mail_options} if mail_options is not None else {}),
    }, actor, now, sealed=sealed)
    loaded = Loaded(session.get(GameRow, game_id), seats, [event], game, state)
    _seat_bots(session, loaded, players, actor, now)
    return game_id, Outcome(loaded.seq, queue_mail(session, loaded, None, now, domain,
                                                   start=True))


def _seat_bots(session: Session, loaded: Loaded, players: list[dict], actor: str,
               now: datetime) -> None:
    """Seats that are bots from the start (``bot_level`` in their player entry: the seats an
    organiser filled at the start): each is handed over by a SeatBotted of the game's creator
    right after GameCreated, so the record shows they were bots from the first move, and the
    bots whose turn it is play at once."""
    bots = [(i, p["bot_level"]) for i, p in enumerate(players) if p.get("bot_level")]
    for seat, level in bots:
        seat_row = loaded.seats[seat]
        event = store.append(session, loaded.row.id, loaded.seq + 1, loaded.head_hash,
                             "SeatBotted", {"seat": seat, "name": seat_row.name, "level": level},
                             actor, now)
        loaded.events.append(event)
        seat_row.bot, seat_row.bot_level = True, level
    if bots:
        play_bots(session, loaded, now)


def _chance(players: list[dict], seed: int | None,
            secret: str | None) -> tuple[dict, dict, int]:
    """(GameCreated's public randomness, what it seals, the seed): a given seed as given,
    else the seed derived from the service's secret and every seat's contribution."""
    if seed is not None:
        public, sealed = fairness.commit(seed)
        return public, sealed, seed
    drawn = fairness.defaults(len(players))
    shares = [p.get("contribution") or default for p, default in zip(players, drawn)]
    return fairness.commit_shares(secret or randomness.new_secret(), shares)


def submit_move(session: Session, game_id: str, seat: int, action, seq_seen, actor: str,
                now: datetime, domain: str, seats: list[SeatRow] | None = None,
                clocks: dict | None = None, modes: dict[int, str] | None = None,
                on_page: timedelta | None = None) -> Outcome:
    """A player's move: refused unless it is fresh (seq seen == head) and legal.
    ``seats``: the game's seat rows, when the caller has just read them (``load``); ``clocks``
    (``timekeeping.read_clocks``) and ``modes`` (seat -> turn-mail mode): read in the same
    query as the seats, so ``queue_mail`` needs no query of its own.  ``on_page``: the player
    moved on the page, which shows what comes next; their mail about it waits that long.

    The seats, clocks and modes are read before the events.  They are projections that every
    command updates in the transaction of its event, together with ``games.head_seq``; so if
    the game row read with them says the head the events say, they are what that head left.
    If not (a command committed in between), the seats and the game row are read again and
    the clocks and modes are read after the append, as without them."""
    loaded = load(session, game_id, seats=seats)
    if seats is not None and loaded.row.head_seq != loaded.seq:
        reread_seats_and_game(session, game_id)  # refreshes loaded.seats and .row
        clocks = modes = None
    if not isinstance(seq_seen, int) or isinstance(seq_seen, bool):
        raise IllegalAction(phrase("seq must be an integer: the seq of the state you saw"))
    game, state = loaded.game, loaded.state
    if not is_fresh(loaded, seat, seq_seen):
        raise StaleMove(_stale_message(loaded, seat, action, seq_seen))
    if loaded.row.status != "active":
        raise IllegalAction(phrase("the game is {status}; no moves are taken",
                                    status=term(loaded.row.status)))
    if seat not in game.to_act(state):
        raise IllegalAction(phrase("it is not your turn to act"))
    chosen = game.find_legal_action(state, seat, action)
    record_move(session, loaded, "MoveMade", seat, chosen, actor, now, seq_seen=seq_seen)
    play_bots(session, loaded, now)
    owed = queue_mail(session, loaded, seat, now, domain, clocks=clocks, modes=modes,
                      on_page=on_page)
    return Outcome(loaded.seq, owed, loaded, seat)  # the head after a reveal, if any


BOT_ACTOR = "bot"
MAX_BOT_MOVES = 10_000  # per command: a guard against a game that never stops asking a bot
# Per command, the strong bots' decisions (each may think for seconds): the chain of strong
# bot turns goes on at the next deadline sweep (``deadlines.play_waiting_bots``), so no request
# waits for a whole game of strong bots.
MAX_STRONG_BOT_MOVES = 4       # per command: a request answers within a few seconds
SWEEP_STRONG_BOT_MOVES = 30    # per game and sweep: the worker may think longer


def play_bots(session: Session, loaded: Loaded, now: datetime,
              strong_limit: int = MAX_STRONG_BOT_MOVES) -> None:
    """Seats handed to a bot (``SeatRow.bot``, set by a SeatBotted) act at once whenever they
    must: each bot move is a MoveMade with actor "bot", chosen by the engine's ``bot_action``
    at the seat's level.  Called after every command that can change whose turn it is.

    It runs inline, in the request of the move that handed a bot its turn: a strong bot's
    decision takes up to about a second, so one command makes at most ``strong_limit`` of them
    (and ``MAX_BOT_MOVES`` in all); the deadline sweep plays the bot turns left waiting
    (``deadlines.play_waiting_bots``, up to ``SWEEP_STRONG_BOT_MOVES`` a game each time)."""
    game, state = loaded.game, loaded.state
    strong = 0
    for _ in range(MAX_BOT_MOVES):
        if loaded.row.status != "active" or game.outcome(state) is not None:
            return
        bots = [s for s in game.to_act(state) if loaded.seats[s].bot]
        if not bots:
            return
        seat = bots[0]
        level = level_of(loaded.seats[seat])
        if level == STRONG:
            if strong == strong_limit:
                return
            strong += 1
        chosen = listed_or_first(game.legal_actions(state, seat),
                                 game.bot_action(state, seat, level=level))
        if chosen is None:
            return
        record_move(session, loaded, "MoveMade", seat, chosen, BOT_ACTOR, now, seq_seen=loaded.seq)


def level_of(seat_row: SeatRow) -> str:
    """The level a bot seat plays at: none recorded (a seat handed over before levels) is
    "easy", the one bot there was then."""
    return seat_row.bot_level or EASY


def record_move(session: Session, loaded: Loaded, kind: str, seat: int, chosen: dict,
                actor: str, now: datetime, **extra) -> Event:
    """The one way any move (a player's, a bot's, a timeout's) enters the log: apply the
    listed legal action to the working copy, then append it with its label for the audit.

    The English label is what the audit shows; the engine's phrase (``say``, when it gives one)
    lets a page or mail name the move in its reader's language later ("take back …", "the game
    played … for them") without replaying to the state the action was listed in.

    The event is written by the command's ``queue_mail``, with the rest of its rows
    (``move_writes``), which every command that records a move ends with."""
    action = without_label(chosen)
    loaded.game.apply_in_place(loaded.state, seat, action)
    payload = {"seat": seat, "action": action, "label": chosen.get("label", ""), **extra}
    if "_say" in chosen:
        payload["say"] = chosen["_say"]
    return _append_event(loaded, kind, payload, actor, now)


def _append_event(loaded: Loaded, kind: str, payload: dict, actor: str, now: datetime) -> Event:
    """The next event of the loaded game, for the command's write (``Loaded.add``)."""
    event, values = store.new_event(loaded.row.id, loaded.seq + 1, loaded.head_hash, kind,
                                    payload, actor, now)
    loaded.add(event, values)
    return event


def reveal_if_over(loaded: Loaded, status: str, now: datetime) -> None:
    """When the game has just ended (finished or abandoned), its sealed seed and salt are
    published as ``SeedRevealed``, in the same transaction as the event that ended it, so
    anyone holding the finished game's record can check the commitment GameCreated made and
    replay every move (``service.store.fairness``).  A game from before fair play has nothing
    sealed; a game revealed already is not revealed twice."""
    if status not in fairness.ENDED:
        return
    payload = fairness.reveal_payload(loaded.first)
    if payload is None or fairness.revealed(loaded.events):
        return
    _append_event(loaded, REVEAL_EVENT, payload, fairness.REVEALER, now)


def listed_or_first(legal: list[dict], proposed: dict) -> dict | None:
    """The listed action equal to an engine's suggestion (bot, default), else the first
    legal one: a suggestion the engine itself got wrong must never stall a game."""
    try:
        return find_legal(legal, proposed)
    except IllegalAction:
        return legal[0] if legal else None


def is_fresh(loaded: Loaded, seat: int, seq_seen: int) -> bool:
    """Did this seat decide on what is still true?

    The head seq is always fresh.  An older seq is still fresh while the seat is answering the
    same decision it was asked at or before that seq, and since then only *other* seats made
    moves (their secret choices in a simultaneous decision).  So a mail's links survive the
    others choosing first, while a double click, a stale tab after one's own move, a rollback
    or a new decision is refused."""
    if seq_seen == loaded.seq:
        return True
    seat_row = loaded.seats[seat]
    if not (0 < seq_seen < loaded.seq) or seat_row.decision_seq is None:
        return False
    if seat_row.decision_seq > seq_seen or seat not in loaded.game.to_act(loaded.state):
        return False
    if seat_row.notified_key != loaded.game.decision_key(loaded.state, seat):
        return False
    later = loaded.since(seq_seen)
    return all(e.kind in INFO_EVENTS or (e.kind == "MoveMade" and e.payload.get("seat") != seat)
               for e in later)


# A move or undo decided on a state that is no longer the game's: said without event
# numbers, which mean nothing to a player (the JSON answer carries the seq for programs).
MOVED_ON = phrase("the game moved on since you looked at it: reload to see it as it is now")


def _stale_message(loaded: Loaded, seat: int, action, seq_seen) -> Phrase:
    for event in loaded.since(max(seq_seen, 0)):
        if (event.kind == "MoveMade" and event.payload.get("seat") == seat
                and event.payload.get("seq_seen") == seq_seen and isinstance(action, dict)
                and event.payload.get("action") == without_label(action)):
            return phrase("this move was already recorded (double submit); nothing more was done")
    return MOVED_ON


def queue_mail(session: Session, loaded: Loaded, actor_seat: int | None, now: datetime,
                domain: str, start: bool = False, clocks: dict | None = None,
                modes: dict[int, str] | None = None, on_page: timedelta | None = None) -> Owed:
    """Outbox rows for what this event made owed (and the posts to the game's chat channel,
    when it has one), and the status projection.

    A seat is mailed when it must act on a decision it has not been mailed about yet (the
    engine's ``decision_key``), so sub-steps of one's own turn and other seats' secret choices
    in a simultaneous decision make no extra mail.  The end of a game is mailed to all, and
    reveals the game's seed (``reveal_if_over``).

    ``on_page``: the acting seat moved on the play page, which now shows it the decision its
    own move opened (the next step of its turn, or the next turn when its answer was the last
    one awaited).  Its mail about that decision waits ``on_page`` (``deferred``) instead of
    going out at once, where it would be dead on arrival as soon as the player answers on the
    page; the delivery drops it if the decision closed meanwhile.  Other seats are mailed at
    once.

    Everything the command writes from here on, with the events it appended
    (``Loaded.unstored``), is one write (``move_writes``: one statement on PostgreSQL); the
    game and seat objects take the new values as their loaded state.  ``clocks``/``modes``:
    the game's clocks and turn-mail modes when the caller has read them (``submit_move``)."""
    session.flush()  # a caller's pending ORM changes first (a paused game row, a done deadline)
    game, state, row = loaded.game, loaded.state, loaded.row
    result = game.outcome(state)
    status = row.status
    outbox: list[dict] = []
    notified: list[tuple[SeatRow, str]] = []
    if result is not None:
        status = "finished"
        outbox = [_outbox_values(loaded, s, "game_over", now, domain) for s in loaded.seats]
    else:
        to_act = set(game.to_act(state))
        wants_turn_mail = _turn_mail_preferences(session, loaded, modes)
        for seat_row in loaded.seats:
            owed = seat_row.seat in to_act
            key = game.decision_key(state, seat_row.seat) if owed else None
            if owed and seat_row.notified_key != key:
                notified.append((seat_row, key))
                if start or wants_turn_mail(seat_row):
                    values = _outbox_values(loaded, seat_row, "start" if start else "turn",
                                            now, domain)
                    if on_page is not None and seat_row.seat == actor_seat:
                        values = deferred(values, now + on_page)
                    outbox.append(values)
            elif start:
                outbox.append(_outbox_values(loaded, seat_row, "start", now, domain))
    outbox = [values for values in outbox if values["to_addr"]]  # a bot's seat has no address
    # The mail above is of the event that ended the game (its seq); the reveal follows it.
    reveal_if_over(loaded, status, now)
    seq = loaded.seq
    decisions = {} if result is not None else {
        s: game.decision_key(state, s) for s in game.to_act(state)}
    clock_changes = timekeeping.update_clocks(
        session, row.id, timekeeping.clock_of(loaded.first.payload), decisions, now,
        finished=result is not None or status != "active", mover=actor_seat, clocks=clocks)
    first_seq = row.head_seq + 1  # the stored head until this write: the command's events follow
    topic = channel_topic(loaded, first_seq, status, bool(notified)) if row.webhooks else None
    ids = move_writes.execute(session, move_writes.Write(
        row.id, (row, status, seq, now), loaded.take_unstored(), clock_changes,
        [(seat_row, key, seq) for seat_row, key in notified], outbox))
    due = [row_id for row_id, values in zip(ids, outbox) if values["next_attempt_at"] <= now]
    if topic is None:
        return Owed(due)
    return Owed(due, webhooks.queue(session, row, first_seq, seq, topic, now))


def deferred(values: dict, not_before: datetime) -> dict:
    """An outbox row's values that wait until ``not_before``: no delivery is handed it after
    the commit, and the sweep (``delivery.due_ids``), which takes a pending row once its next
    attempt is due, sends it then, unless its decision closed meanwhile
    (``delivery.withdrawn_mails``)."""
    return {**values, "next_attempt_at": not_before}


def channel_topic(loaded: Loaded, first_seq: int, status: str, new_decision: bool) -> str | None:
    """What the game's chat channel is told of the command's events (``first_seq`` on):
    a rollback or undo, the game's end, a pause or resume, a timeout, else a new decision;
    None when there is nothing for it (another seat's secret choice in a simultaneous
    decision asks nobody anything new)."""
    kinds = {event.kind for event in loaded.since(first_seq - 1)}
    if kinds & {"RolledBack", "Undone"}:
        return "rollback"
    if status in fairness.ENDED:
        return "end"
    for kind, topic in (("GamePaused", "paused"), ("GameResumed", "resumed"),
                        ("TurnTimedOut", "timeout")):
        if kind in kinds:
            return topic
    return "turn" if new_decision else None


def has_address(seat_row: SeatRow) -> bool:
    """Whether the seat can be mailed: a bot seated from the start has no address (a seat
    handed to a bot later keeps its player's, who goes on being told how the game goes)."""
    return bool(seat_row.email)


def outbox_row(loaded: Loaded, seat_row: SeatRow, kind: str, now: datetime, domain: str) -> OutboxRow:
    return OutboxRow(**_outbox_values(loaded, seat_row, kind, now, domain))


def _outbox_values(loaded: Loaded, seat_row: SeatRow, kind: str, now: datetime,
                   domain: str) -> dict:
    return dict(
        game_id=loaded.row.id, seat=seat_row.seat, kind=kind, seq=loaded.seq,
        to_addr=seat_row.email, status="pending", attempts=0, next_attempt_at=now,
        created_at=now, message_id=message_id(loaded.row.id, loaded.seq, seat_row.seat, kind, domain))




# --- Mail options and preferences ------------------------------------------------------

MAIL_OPTIONS = {"accept_any_sender": False}


def _split_mail_options(options: dict) -> tuple[dict, dict | None]:
    """``options["mail"]`` belongs to the service (who may answer by mail), not to the engine,
    which refuses unknown options: it is taken out and recorded as ``GameCreated.mail``."""
    if "mail" not in options:
        return options, None
    options = dict(options)
    mail = options.pop("mail")
    if not isinstance(mail, dict) or set(mail) - set(MAIL_OPTIONS):
        raise IllegalAction(phrase("options.mail must be an object with only: {known}",
                                   known=list(MAIL_OPTIONS)))
    if any(not isinstance(v, bool) for v in mail.values()):
        raise IllegalAction(phrase("options.mail values must be true or false"))
    return options, {**MAIL_OPTIONS, **mail}


def _turn_mail_preferences(session: Session, loaded: Loaded, modes: dict[int, str] | None = None):
    """``wants_turn_mail`` for many seats of one game: the game's preference rows are read
    once (one query, on the first seat asked about) instead of one ``get`` per seat, or not at
    all when the caller already has them (``modes``: seat -> mode)."""
    rows = modes

    def wants(seat_row: SeatRow) -> bool:
        nonlocal rows
        if rows is None:
            rows = preferences.modes_of_game(session, loaded.row.id)
        mode = rows.get(seat_row.seat)
        # as preferences.wants_turn_mail: no row (or an unknown mode) means every turn
        return (mode if mode in preferences.MODES else "every") == "every"
    return wants


def wants_turn_mail(session: Session, loaded: Loaded, seat_row: SeatRow) -> bool:
    """Seats whose mail preference is "digest" or "off" get no turn mail (the decision is
    still recorded as notified, so links and freshness work the same)."""
    return preferences.wants_turn_mail(session, loaded.row.id, seat_row.seat)
