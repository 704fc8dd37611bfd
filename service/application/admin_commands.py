"""Commands that change a game on an admin's behalf, and a player's undo of their own move.

Every one of them appends one event (never updates or deletes one), in the caller's unit of
work, then lets bot seats act and writes the mail it makes owed; the caller commits and
dispatches, exactly like ``games.submit_move``.  Any event other than a MoveMade makes every
older action link stale (``games.is_fresh``), so each command resets every seat's
``notified_key`` and mails fresh links to whoever must act now."""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime

from engine import IllegalAction
from engine.text import phrase, term
from service.store import fairness
from service.store import snapshots
from service.store.imports import IMPORT_EVENT
from service.store import events as store
from service.store.db import Session
from service.mail import mailer, seat_offer_mail
from service.application import seat_offers, shares
from service.application.admin_auth import Admin
from service.store.loading import Loaded, load
from service.application.games import (MOVED_ON, Outcome, Owed, StaleMove, has_address,
                                       outbox_row, queue_mail, wants_turn_mail, play_bots)
from service.store.history import INFO_EVENTS, created, effective_moves, rebuild, setup
from service.view.i18n import N_
from service.store.models import GameRow, SeatOfferRow, SeatRow
from service.store.events import Conflict, Event
from service.core.validation import BadInput, bot_level, bounded_text, one_address, person_name

MAX_REASON = 500
LIVE = ("active", "paused")


# --- shared steps ------------------------------------------------------------------------------

def _load_expecting(session: Session, game_id: str, expected_seq) -> Loaded:
    """Load the game; if the admin's form said which seq they looked at, the game must still
    be there (else 409: they decided on something that is no longer true)."""
    loaded = load(session, game_id)
    if expected_seq is not None:
        if not isinstance(expected_seq, int) or isinstance(expected_seq, bool):
            raise IllegalAction(phrase("seq must be an integer: the seq of the state you saw"))
        if expected_seq != loaded.seq:
            raise Conflict(phrase("the game moved on since you looked at it: reload and decide "
                                  "again"))
    return loaded


def _reason(reason, required: bool = True) -> str:
    """The admin's reason, which is stored in the chain and mailed to every player: it passes
    the table talk's text rules (``bounded_text``: no control or bidi character, no lone
    surrogate), so what a player reads is what was written."""
    text = "" if reason is None else bounded_text(reason, phrase("the reason"), MAX_REASON).strip()
    if required and not text:
        raise IllegalAction(phrase("give a reason: it is recorded and mailed to the players"))
    if len(text) > MAX_REASON:
        raise IllegalAction(phrase("the reason may have at most {count} characters",
                                   count=MAX_REASON))
    return text


def _seat(loaded: Loaded, seat) -> SeatRow:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(loaded.seats):
        raise IllegalAction(phrase("no seat {seat} in this game", seat=repr(seat)))
    return loaded.seats[seat]


def append_event(session: Session, loaded: Loaded, kind: str, payload: dict, actor: str,
                 now: datetime, sealed: dict | None = None) -> Event:
    """Append one event at the head, in the caller's unit of work."""
    event = store.append(session, loaded.row.id, loaded.seq + 1, loaded.head_hash, kind,
                         payload, actor, now, sealed=sealed)
    loaded.events.append(event)
    return event


def _replay(loaded: Loaded) -> None:
    """After a rewind the state is rebuilt; a finished game that is no longer over plays on."""
    loaded.game, loaded.state = rebuild(loaded.events)
    if loaded.row.status == "finished" and loaded.game.outcome(loaded.state) is None:
        loaded.row.status = "active"


def _mail(session: Session, loaded: Loaded, now: datetime, domain: str, owed_kind: str | None,
          all_kind: str | None = None, seat_kinds: dict[int, str] | None = None) -> Owed:
    """Fresh links after an event that made every older link stale.

    Every seat's ``notified_key`` is reset and set again for the seats that must act now, so
    later mail follows the usual rule.  ``all_kind`` mails every seat; ``owed_kind`` mails the
    seats that must act (unless their mail preference says no turn mail); ``seat_kinds`` names
    a kind for particular seats.  ``games.queue_mail`` then runs with nothing left owed
    (every seat in turn is marked notified, even in a paused game, whose seats are mailed on
    resume): it does the bookkeeping every event needs (seat clocks, head seq)."""
    game, state, row = loaded.game, loaded.state, loaded.row
    if row.status == "active" and game.outcome(state) is not None:
        return queue_mail(session, loaded, None, now, domain)  # finished: everyone is told
    to_act = set(game.to_act(state))
    rows = []
    for seat_row in loaded.seats:
        in_turn = seat_row.seat in to_act  # marked notified even while paused: see below
        seat_row.notified_key = game.decision_key(state, seat_row.seat) if in_turn else None
        seat_row.decision_seq = loaded.seq if in_turn else None
        owed = in_turn and row.status == "active" and not seat_row.bot
        kind = (seat_kinds or {}).get(seat_row.seat) or all_kind
        if kind is None and owed and owed_kind and wants_turn_mail(session, loaded, seat_row):
            kind = owed_kind
        if kind and has_address(seat_row):
            rows.append(outbox_row(loaded, seat_row, kind, now, domain))
    session.add_all(rows)
    session.flush()
    return Owed([r.id for r in rows]) + queue_mail(session, loaded, None, now, domain)


# --- rollback and undo -------------------------------------------------------------------------

def checked_rollback(session: Session, game_id: str, to_seq, reason,
                     expected_seq=None) -> tuple[Loaded, str]:
    """The game and the admin's reason, for a rollback to ``to_seq`` that may be made: the
    game not abandoned, its seed not revealed, ``to_seq`` an earlier event.  The command
    itself (which may only propose) is ``rollback_consent.rollback``."""
    loaded = _load_expecting(session, game_id, expected_seq)
    if loaded.row.status == "abandoned":
        raise IllegalAction(phrase("the game was abandoned; it cannot be rolled back"))
    if fairness.revealed(loaded.events):
        raise IllegalAction(phrase("the game is over and its seed was revealed; it cannot be "
                                   "rolled back (every future draw is known now)"))
    if not isinstance(to_seq, int) or isinstance(to_seq, bool) or not 1 <= to_seq < loaded.seq:
        raise IllegalAction(phrase("the step to go back to (to_seq) must be from 1 to {last}",
                                   last=loaded.seq - 1))
    return loaded, _reason(reason)


def roll_back(session: Session, loaded: Loaded, payload: dict, actor: str, now: datetime,
              domain: str) -> Outcome:
    """Append ``RolledBack{to_seq, reason}`` (``payload``): the effective history becomes
    what it was right after event ``to_seq`` (moves after it are superseded, never deleted).
    Every player is mailed what was undone, by whom and why, with fresh links.  A rollback
    can itself be rolled back by rolling back to a seq at or after it."""
    append_event(session, loaded, "RolledBack", payload, actor, now)
    _replay(loaded)
    play_bots(session, loaded, now)
    return Outcome(loaded.seq, _mail(session, loaded, now, domain, None, all_kind="rollback"))


def undoable_move(loaded: Loaded, seat: int,
                  session: Session | None = None) -> tuple[Event | None, str]:
    """The seat's own last move, if it may still take it back, else (None, why not).

    Allowed while the game is active, the move is the last one that counts, nobody but this
    seat did anything since (another seat acting, an admin event, a bot move all end it),
    and the engine's ``epoch`` is what it was before the move (nobody learnt anything new).

    This runs on every GET of the play page, so it costs no second replay: the last move is
    found in the events the load read (``_last_move``) and the epoch before it is the one the
    load saw (``Loaded.before_last``); only when the load did not apply that move itself (it
    is at or before the snapshot the load started from) is the state before it loaded, from
    a snapshot too when ``session`` is given (``_epoch_before``)."""
    if loaded.row.status != "active" or loaded.game.outcome(loaded.state) is not None:
        return None, N_("the game is not running")
    last = _last_move(loaded)
    if last is None:
        return None, N_("you have made no move to take back")
    me = f"seat:{seat}"
    if last.kind != "MoveMade" or last.payload.get("seat") != seat or last.actor != me:
        return None, N_("the last move is not yours")
    for later in loaded.since(last.seq):
        if later.kind in INFO_EVENTS:  # a message or a vacation changes nothing decided on
            continue
        if later.actor != me or later.kind not in ("MoveMade", "Undone"):
            return None, N_("the game moved on since your move")
    if _epoch_before(loaded, last, session) != loaded.state.get("epoch"):
        return None, N_("your move revealed something new; it cannot be taken back")
    return last, ""


def _last_move(loaded: Loaded) -> Event | None:
    """The last move that counts, from the events the load read when they show it (a load
    from a snapshot read the events from the snapshot's seq on); else from every event."""
    tail = loaded.events.tail
    if tail[0].seq > 1:
        moves = snapshots.moves_since(tail[1:], tail[0].seq)
        if moves:
            return moves[-1]
    moves = effective_moves(loaded.events)
    return moves[-1] if moves else None


def _epoch_before(loaded: Loaded, last: Event, session: Session | None):
    """The engine's epoch in the state just before ``last`` (the current last move).

    That state is the effective history right after event ``last.seq - 1`` (a move's node
    hangs off the head its seq found), so it is ``load(upto=last.seq - 1)``: a snapshot-started
    load when there is a session.  Without one, the effective moves before it are replayed."""
    if loaded.before_last is not None and loaded.before_last[0] == last.seq:
        return loaded.before_last[1]
    if session is not None:
        return load(session, loaded.row.id, upto=last.seq - 1,
                    seats=loaded.seats).state.get("epoch")
    state = setup(loaded.game, loaded.first)
    for event in effective_moves(loaded.events)[:-1]:
        loaded.game.apply_in_place(state, event.payload["seat"], event.payload["action"])
    return state.get("epoch")


def undo_move(session: Session, game_id: str, seat: int, seq_seen, now: datetime,
              domain: str) -> Outcome:
    """A player takes back their own last move: ``Undone{to_seq}`` by the seat itself."""
    loaded = load(session, game_id)
    if not isinstance(seq_seen, int) or isinstance(seq_seen, bool):
        raise IllegalAction(phrase("seq must be an integer: the seq of the state you saw"))
    if seq_seen != loaded.seq:
        raise StaleMove(MOVED_ON)
    move, why = undoable_move(loaded, seat, session)
    if move is None:
        raise IllegalAction(phrase("nothing to take back: {why}", why=term(why)))
    append_event(session, loaded, "Undone", {"to_seq": move.seq - 1, "seat": seat,
                                             "label": move.payload.get("label", "")},
                 f"seat:{seat}", now)
    _replay(loaded)
    play_bots(session, loaded, now)
    return Outcome(loaded.seq, _mail(session, loaded, now, domain, "undone"))


# --- seats and the game's course ---------------------------------------------------------------

def _live(loaded: Loaded) -> None:
    if loaded.row.status not in LIVE:
        raise IllegalAction(phrase("the game is {status}; its seats can no longer change",
                                   status=term(loaded.row.status)))


@dataclass
class Offered:
    """What a replacement did: an offer waits for the newcomer (the game is unchanged, at
    ``seq``); ``mail_ids``: the account outbox rows to dispatch after commit."""
    offer: SeatOfferRow
    seq: int
    mail_ids: list[int]


def _newcomer(name, email) -> tuple[str, str]:
    """The new player's name and address, by the rules every entry point shares."""
    try:
        return (person_name(name, phrase("the new player")),
                one_address(email, phrase("the new player's address")))
    except BadInput as error:
        raise IllegalAction(error.say) from None


def replace_seat(session: Session, game_id: str, seat, name, email, admin: Admin, now: datetime,
                 domain: str, expected_seq=None) -> Offered:
    """Offer the seat to a new person (``seat_offers``): nothing of the game changes until
    they accept (``accept_seat_offer``).  The newcomer is mailed the invitation; the player in
    the seat is told it was offered.  An admin who plays in the game may offer only their own
    seat; no address may take a second seat of the game."""
    loaded = _load_expecting(session, game_id, expected_seq)
    _live(loaded)
    seat_row = _seat(loaded, seat)
    admin.check_seat_change(loaded.seats, seat)
    name, email = _newcomer(name, email)
    other = seat_offers.seat_holding(loaded.seats, email, besides=seat)
    if other is not None:
        raise IllegalAction(phrase("{address} already plays as {player} in this game; no one "
                                   "may hold two seats", address=email, player=other.name))
    offer = seat_offers.offer(session, seat_row, name, email, admin.actor, now)
    mails = [mailer.queue(session, seat_offer_mail.INVITE, offer.id, email, now, domain)]
    if not seat_offers.same_address(seat_row.email, email):
        mails.append(mailer.queue(session, seat_offer_mail.OFFERED, offer.id, seat_row.email, now,
                                  domain))
    return Offered(offer, loaded.seq, [m.id for m in mails])


def accept_seat_offer(session: Session, secret_key: str, token: str, now: datetime,
                      domain: str, share=None) -> tuple[SeatOfferRow, Outcome, list[int]]:
    """The newcomer accepts (the POST of the offer's page): ``SeatReplaced`` with the offering
    admin as actor, a new nonce (every old link of the seat dies), the seat's view and links
    mailed to the newcomer, fresh links to the others who must act, and a plain notice to the
    replaced player.  Refused (and nothing changes) if the offer is no longer open, the game
    no longer runs, the seat changed hands since, or the address took another seat since.
    ``share``: the newcomer's share of the chance, as the form sent it; recorded in
    ``SeatReplaced`` as every seat's is in GameCreated, though it feeds no draw (the seed was
    fixed when the game began).
    Returns the offer, the game's outcome and the account mail to dispatch."""
    given = _given_share(share)
    offer = seat_offers.read_link(session, secret_key, token)
    seat_offers.usable(offer, now)
    loaded = load(session, offer.game_id)
    if loaded.row.status not in LIVE:
        raise seat_offers.OfferRefused(410, phrase(
            "the game is {status}; its seats can no longer change", status=term(loaded.row.status)))
    seat_row = loaded.seats[offer.seat]
    if not seat_offers.same_address(seat_row.email, offer.previous_email):
        raise seat_offers.OfferRefused(409, N_("The seat changed hands since this offer."))
    if seat_offers.seat_holding(loaded.seats, offer.email, besides=offer.seat) is not None:
        raise seat_offers.OfferRefused(409, N_("Your address holds another seat of this game "
                                               "now; no one may hold two seats."))
    seat_offers.answer(session, offer, "accepted", now)
    seat_offers.withdraw(session, offer.game_id, offer.seat, now, keep=offer.id)
    # the address is sealed with the event: the game's admins read it, a finished game's
    # public record (its players' and spectators') does not
    append_event(session, loaded, "SeatReplaced", {"seat": offer.seat, "name": offer.name,
                                                   "previous_name": seat_row.name,
                                                   "contribution": given},
                 offer.offered_by, now, sealed={"email": offer.email})
    seat_row.name, seat_row.email, seat_row.bot = offer.name, offer.email, False
    seat_row.bot_level = None
    seat_row.nonce = secrets.token_urlsafe(12)
    told = [] if seat_offers.same_address(offer.previous_email, offer.email) else [
        mailer.queue(session, seat_offer_mail.TAKEN, offer.id, offer.previous_email, now, domain).id]
    outcome = Outcome(loaded.seq, _mail(session, loaded, now, domain, "links",
                                        seat_kinds={offer.seat: "seat"}))
    return offer, outcome, told


def _imported_level(seat: dict) -> str | None:
    """An exported bot seat's level; an export from before levels has none (easy)."""
    if not seat.get("bot") or seat.get("bot_level") is None:
        return None
    return _level(seat["bot_level"])


def _given_share(raw) -> dict:
    try:
        return shares.given_share(raw)
    except BadInput as error:
        raise seat_offers.OfferRefused(400, error.say) from None


def bot_seat(session: Session, game_id: str, seat, admin: Admin, now: datetime, domain: str,
             expected_seq=None, level=None) -> Outcome:
    """``SeatBotted``: from now on the engine's ``bot_action`` plays the seat at ``level``
    ("easy" or "strong"; none given is easy) -- its moves are MoveMade events with actor
    "bot".  Replacing the seat gives it back to a person.  An admin who plays in the game may
    hand over only their own seat.  The level is checked before anything is read or written,
    so an unknown one changes nothing."""
    level = _level(level)
    loaded = _load_expecting(session, game_id, expected_seq)
    _live(loaded)
    seat_row = _seat(loaded, seat)
    admin.check_seat_change(loaded.seats, seat)
    if seat_row.bot:
        raise IllegalAction(phrase("{player}'s seat is already played by a bot",
                                   player=seat_row.name))
    append_event(session, loaded, "SeatBotted",
                 {"seat": seat, "name": seat_row.name, "level": level}, admin.actor, now)
    seat_row.bot, seat_row.bot_level = True, level
    play_bots(session, loaded, now)
    return Outcome(loaded.seq, _mail(session, loaded, now, domain, "links"))


def _level(raw) -> str:
    try:
        return bot_level(raw)
    except BadInput as error:
        raise IllegalAction(error.say) from None


def pause(session: Session, game_id: str, reason, actor: str, now: datetime, domain: str,
          expected_seq=None) -> Outcome:
    loaded = _load_expecting(session, game_id, expected_seq)
    if loaded.row.status != "active":
        raise IllegalAction(phrase("the game is {status}; only an active game can pause",
                                   status=term(loaded.row.status)))
    append_event(session, loaded, "GamePaused", {"reason": _reason(reason, required=False)},
                 actor, now)
    loaded.row.status = "paused"
    return Outcome(loaded.seq, _mail(session, loaded, now, domain, None, all_kind="paused"))


def resume(session: Session, game_id: str, actor: str, now: datetime, domain: str,
           expected_seq=None) -> Outcome:
    loaded = _load_expecting(session, game_id, expected_seq)
    if loaded.row.status != "paused":
        raise IllegalAction(phrase("the game is {status}, not paused",
                                   status=term(loaded.row.status)))
    append_event(session, loaded, "GameResumed", {}, actor, now)
    loaded.row.status = "active"
    play_bots(session, loaded, now)
    return Outcome(loaded.seq, _mail(session, loaded, now, domain, "resumed"))


def abandon(session: Session, game_id: str, reason, actor: str, now: datetime, domain: str,
            expected_seq=None) -> Outcome:
    loaded = _load_expecting(session, game_id, expected_seq)
    if loaded.row.status not in LIVE:
        raise IllegalAction(phrase("the game is {status} already", status=term(loaded.row.status)))
    append_event(session, loaded, "GameAbandoned", {"reason": _reason(reason)}, actor, now)
    loaded.row.status = "abandoned"
    return Outcome(loaded.seq, _mail(session, loaded, now, domain, None, all_kind="abandoned"))


# --- export and import -------------------------------------------------------------------------

EXPORT_FORMAT = "chasqui-game"
EXPORT_VERSION = 2
EXPORT_VERSIONS = (1, 2)  # 1: before fair play, events without sealed data


def export_game(session: Session, game_id: str) -> dict:
    """Everything needed to reproduce the game elsewhere: its events with their hashes and
    their sealed data (nonces; GameCreated's seed and salt: a site admin's export holds the
    game's whole hidden future), and the seats' contact data (which the events do not all
    carry).  Seat nonces are not exported: links are bound to one installation's secret key
    anyway."""
    loaded = load(session, game_id)
    return {
        "format": EXPORT_FORMAT, "version": EXPORT_VERSION,
        "game": {"id": loaded.row.id, "game": loaded.row.game, "status": loaded.row.status},
        "seats": [{"seat": s.seat, "name": s.name, "email": s.email, "bot": s.bot,
                   **({"bot_level": s.bot_level} if s.bot_level else {})}
                  for s in loaded.seats],
        "events": [{"seq": e.seq, "kind": e.kind, "payload": e.payload, "actor": e.actor,
                    "recorded_at": e.recorded_at.isoformat(timespec="microseconds"),
                    "prev_hash": e.prev_hash, "hash": e.hash, "sealed": e.sealed}
                   for e in loaded.events],
    }


def status_from_events(events: list[Event], finished: bool) -> str:
    status = "active"
    for event in events:
        if event.kind == "GamePaused":
            status = "paused"
        elif event.kind == "GameResumed":
            status = "active"
        elif event.kind == "GameAbandoned":
            status = "abandoned"
    return "finished" if status == "active" and finished else status


def _parse_events(raw) -> list[Event]:
    if not isinstance(raw, list) or not raw:
        raise IllegalAction(phrase("events must be a non-empty list"))
    events = []
    for i, item in enumerate(raw):
        try:
            events.append(Event(
                seq=item["seq"], kind=item["kind"], payload=item["payload"],
                actor=item["actor"], recorded_at=store.utc(datetime.fromisoformat(item["recorded_at"])),
                prev_hash=item["prev_hash"], hash=item["hash"], sealed=item.get("sealed")))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise IllegalAction(phrase("events[{index}] is malformed ({error})", index=i,
                                       error=str(error))) from None
        if not (isinstance(item["seq"], int) and isinstance(item["kind"], str)
                and isinstance(item["payload"], dict) and isinstance(item["actor"], str)
                and (item.get("sealed") is None or isinstance(item["sealed"], dict))):
            raise IllegalAction(phrase("events[{index}] is malformed", index=i))
    return events


# A game's id as this service makes it (``tokens.new_game_id``): it is part of every page
# address, command line, record and webhook post of the game, so an import keeps no other.
IMPORTED_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def import_game(session: Session, data, now: datetime, actor: str) -> str:
    """Recreate an exported game under its own id, marked imported in its own chain: the
    copied events, then ``GameImported`` by ``actor`` (the importing admin) naming the source
    record's last hash, so every record and page of the game says that whoever exported it
    held its seed.  Refuses a broken hash chain, an id that exists here, events the engine
    cannot replay, a sealed seed other than the one GameCreated committed to (the hash chain
    does not cover what is sealed), and a game whose seed is known (revealed, or in
    GameCreated before fair play) unless it is over: such a game would go on with its future
    public.  Mails nobody (the importer decides)."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise IllegalAction(phrase("not a Chasqui game export (format must be {format})",
                                   format=repr(EXPORT_FORMAT)))
    if data.get("version") not in EXPORT_VERSIONS:
        raise IllegalAction(phrase("unknown export version {version}",
                                   version=repr(data.get("version"))))
    game_id = (data.get("game") or {}).get("id") if isinstance(data.get("game"), dict) else None
    if not isinstance(game_id, str) or not game_id:
        raise IllegalAction(phrase("game.id is missing"))
    if not IMPORTED_ID.fullmatch(game_id):
        raise IllegalAction(phrase("game.id must be 1 to 32 letters, digits, - or _, as this "
                                   "service makes them; nothing was imported"))
    if session.get(GameRow, game_id) is not None:
        raise Conflict(phrase("a game {game} exists here already; nothing was imported",
                              game=repr(game_id)))
    events = _parse_events(data.get("events"))
    report = store.verify_chain(game_id, events)
    if not report.ok:
        raise IllegalAction(phrase("the hash chain is broken at seq {seq}: {why}; nothing was "
                                   "imported", seq=report.broken_at, why=report.reason))
    try:
        game, state = rebuild(events)
    except (IllegalAction, KeyError, TypeError, ValueError) as error:
        raise IllegalAction(phrase("the events do not replay: {error}",
                                   error=getattr(error, "say", None) or str(error))) from None
    sealed = fairness.reveal_payload(events[0])
    if sealed is not None and fairness.revealed_seed(events[0].payload, sealed) is None:
        raise IllegalAction(phrase("GameCreated's sealed seed does not match the commitment it "
                                   "published; nothing was imported"))
    status = status_from_events(events, game.outcome(state) is not None)
    if seed_known(events) and not fairness.is_over(status):
        raise IllegalAction(phrase(
            "this game's seed is known (revealed, or recorded before commitments), so it can "
            "be imported only once it is over; nothing was imported"))
    seats = data.get("seats")
    players = created(events)["players"]
    if not isinstance(seats, list) or len(seats) != len(players):
        raise IllegalAction(phrase("seats must list the game's {count} seats",
                                   count=len(players)))
    for i, s in enumerate(seats):
        if (not isinstance(s, dict) or not isinstance(s.get("name"), str)
                or not isinstance(s.get("email"), str)
                or ("@" not in s["email"] and not (s.get("bot") is True and s["email"] == ""))):
            raise IllegalAction(phrase("seats[{index}] needs a name and an email", index=i))
        _imported_level(s)
    _names_and_addresses(players, seats)
    session.add(GameRow(
        id=game_id, game=game.name, created_at=events[0].recorded_at,
        updated_at=now, head_seq=events[-1].seq + 1, status=status))
    session.add_all(SeatRow(game_id=game_id, seat=i, name=s["name"][:80], email=s["email"][:254],
                            nonce=secrets.token_urlsafe(12), bot=bool(s.get("bot")),
                            bot_level=_imported_level(s))
                    for i, s in enumerate(seats))
    session.flush()
    for event in events:
        stored = store.append(session, game_id, event.seq, event.prev_hash, event.kind,
                              event.payload, event.actor, event.recorded_at, sealed=event.sealed)
        if stored.hash != event.hash:  # cannot happen after verify_chain; never store a fork
            raise IllegalAction(phrase("event {seq} does not reproduce its hash", seq=event.seq))
    store.append(session, game_id, events[-1].seq + 1, events[-1].hash, IMPORT_EVENT,
                 {"source_last_hash": events[-1].hash}, actor, now)
    return game_id


def _names_and_addresses(players: list, seats: list[dict]) -> None:
    """An import's names and addresses pass the rules a form's do (``person_name``,
    ``one_address``): they reach pages, mails and logs as a player's own would.  The seats'
    are kept as those rules spell them."""
    try:
        for name in players:
            person_name(name)
        for seat in seats:
            seat["name"] = person_name(seat["name"])
            if seat["email"] or not seat.get("bot"):  # a bot seated from the start has none
                seat["email"] = one_address(seat["email"])
    except BadInput as error:
        raise IllegalAction(error.say) from None


def seed_known(events: list[Event]) -> bool:
    """Whether a game's seed is public already: revealed, or shown in GameCreated's payload
    (a game recorded before fair play)."""
    return "seed" in events[0].payload or fairness.revealed(events)


def undo_label(loaded: Loaded, seat: int, session: Session | None = None) -> str | dict | None:
    """For the play page: the move the seat may still take back, if any: its phrase (shown in
    the page's language with ``| tr``), else its English label.
    ``session``: the page's open session, for the rare case ``undoable_move`` must load the
    state before the move (without one it replays)."""
    move, _ = undoable_move(loaded, seat, session)
    if move is None:
        return None
    return move.payload.get("say") or move.payload.get("label") or N_("your last move")
