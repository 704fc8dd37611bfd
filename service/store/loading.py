"""Loading a game: its rows and events, replayed from the newest usable snapshot.

Every reader of a game's state comes through ``load`` -- commands, pages, mail and the audit
-- so the state anyone sees is always what a full replay of the events gives."""
from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from engine import Game, get_game
from engine.text import phrase
from service.core.refusals import Refusal
from service.store import events as store
from service.store import snapshots
from service.store.db import in_unit_of_work
from service.store.events import Event, EventLog
from service.store.history import created, reshuffles, seed_of
from service.store.models import GameRow, SeatRow
from service.store.seats import game_seats


class NotFound(Refusal, LookupError):
    """No such game (or seat)."""


@dataclass
class Loaded:
    """A game as a command sees it: rows, the replayed state, and its events.

    ``events`` is an ``EventLog``: indexed by seq - 1 like a list, but a load that starts from
    a snapshot has read only ``first`` (GameCreated) and the events from the snapshot on; older
    ones are read on demand (audit, export, status pages).  The hot paths use ``first``,
    ``head`` and ``since(seq)``, which read nothing more unless they reach before the tail."""
    row: GameRow
    seats: list[SeatRow]
    events: EventLog
    game: Game
    state: dict
    # (seq, epoch): the engine's epoch just before the last move this load applied (see
    # ``snapshots.apply``), so undo needs no second replay; None when it applied none.
    before_last: tuple[int, object] | None = None
    # The rows (``store.new_event``'s values) of the events ``add`` appended and the command
    # has yet to write, with the rest of its rows (``games.queue_mail``, ``move_writes``).
    unstored: list[dict] = field(default_factory=list)

    def __post_init__(self):
        if not isinstance(self.events, EventLog):
            self.events = EventLog(list(self.events))

    @property
    def first(self) -> Event:
        """GameCreated: the game's name, players, seed, options, clock and mail settings."""
        return self.events.first

    @property
    def head(self) -> Event:
        return self.events.head

    @property
    def seq(self) -> int:
        return self.events.head.seq

    @property
    def head_hash(self) -> str:
        return self.events.head.hash

    def since(self, seq: int) -> list[Event]:
        """The events after ``seq``."""
        return self.events.since(seq)

    def add(self, event: Event, values: dict) -> None:
        """Append ``event``, the new head, whose row (``values``) the command writes later."""
        self.events.append(event)
        self.unstored.append(values)

    def take_unstored(self) -> list[dict]:
        """The rows of the events appended since the last take, for the command's write."""
        rows, self.unstored = self.unstored, []
        return rows


def game_row(session: Session, game_id: str) -> GameRow:
    """The game's row, or ``NotFound`` (an id that is not even a string included)."""
    row = session.get(GameRow, game_id) if isinstance(game_id, str) else None
    if row is None:
        raise NotFound(phrase("no game {game}", game=repr(game_id)))
    return row


def load(session: Session, game_id: str, upto: int | None = None,
         seats: list[SeatRow] | None = None) -> Loaded:
    """The game at its head (or at ``upto``), replayed from the newest usable snapshot.

    With a snapshot at seq S only GameCreated and events S.. are read (one query); the state
    is the snapshot plus the moves after it.  Without one, or when a rewind after S goes back
    before it, every event is read and replayed.  A command's load at the head (in a unit of
    work) stores a snapshot when ``snapshots.EVERY`` events have passed since the one it
    started from; a read's never writes (``snapshot_owed``).
    ``seats``: the game's seat rows in seat order, when the caller has just read them."""
    row = game_row(session, game_id)
    if seats is None:
        seats = game_seats(session, game_id)
    write = snapshot_owed(session, upto)
    try:
        game = get_game(row.game)
    except Exception:  # noqa: BLE001  unknown here: the full replay below raises as before
        events = store.load(session, game_id, upto)
        game, state, before = snapshots.rebuild(session, game_id, events, write=write)
        return Loaded(row, seats, EventLog(events), game, state, before)
    read, base, state = snapshots.events_from_newest(session, game_id, game.rules_version, upto)
    return _replayed(session, game_id, upto, row, seats, game, read, base, state)


def _replayed(session: Session, game_id: str, upto: int | None, row, seats, game: Game,
              read: list[Event], base: int | None, state: dict | None) -> Loaded:
    """``load``'s replay of what ``events_from_newest`` read."""
    write = snapshot_owed(session, upto)
    if base is None or base <= 1:  # no snapshot (or one at seq 1): every event was read
        events = read
        game, state, before = snapshots.rebuild(session, game_id, events, write=write,
                                                use=base is not None)
        return Loaded(row, seats, EventLog(events), game, state, before)
    first, tail = read[0], read[1:]
    moves = (snapshots.moves_since(tail[1:], base, reshuffles(first))
             if first.seq == 1 and tail and tail[0].seq == base
             and created([first])["game"] == game.name else None)
    if moves is None:  # a rewind to before the snapshot (or a mismatch): replay in full
        events = store.load(session, game_id, upto)
        game, state, before = snapshots.rebuild(session, game_id, events, write=write)
        return Loaded(row, seats, EventLog(events), game, state, before)
    events = EventLog(tail, first, _fetcher(session, game_id))
    before = snapshots.apply(game, state, moves, seed_of(first))
    if write and events.head.seq - base >= snapshots.EVERY:
        snapshots.save(session, game_id, events.head.seq, game.rules_version, state)
    return Loaded(row, seats, events, game, state, before)


def snapshot_owed(session: Session, upto: int | None) -> bool:
    """Whether this load may store a snapshot: only at the head, and only for a command (a
    unit of work), in the transaction that commits the command.  A page or an API GET only
    reads: on SQLite a write there took the one write lock from the moves, and a GET answered
    "database is locked"."""
    return upto is None and in_unit_of_work(session)


def _fetcher(session: Session, game_id: str):
    """Reads events a snapshot-started load skipped, when something asks for them (an audit,
    an export, a status page), also after the caller's session was closed."""
    def fetch(first: int, last: int) -> list[Event]:
        was_open = session.in_transaction()
        try:
            return store.load_range(session, game_id, first, last)
        finally:
            if not was_open:
                session.close()  # a read after the unit of work: end the transaction it began
    return fetch
