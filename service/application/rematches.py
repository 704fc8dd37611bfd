"""Rematch by consent: a player of a finished game asks for the same game again, and the
others are asked, not drafted.

The one who asks becomes the organiser of a pending game (``invitations``) with the same
players, seats rotated by one (the first player moves to the last chair), the same options,
clock and pace; their own seat is taken at once with the share of the chance they gave when
asking, and every other player gets an invitation mail to accept (with their own share) or
decline.  The game starts when every player has accepted, or when the one who asked starts
it with those who did (``invitations.start_with_accepted``).  A second player asking finds
the same rematch (one ``rematches`` row per finished game).  Each player keeps their mail
settings from the game before when it starts."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine import IllegalAction
from engine.text import phrase
from service.application import invitations
from service.application.games import Outcome, has_address
from service.application.sign_in import account_for
from service.core import row_links
from service.core.addresses import same_person
from service.core.tokens import make_secret
from service.core.validation import one_address
from service.store import preferences, timekeeping
from service.store.db import Session
from service.store.invitations import invitations_of
from service.store.loading import load
from service.store.models import AccountRow, InvitationRow, PendingGameRow, RematchRow
from service.store.rematches import rematch_of
from service.store.seats import game_seats


@dataclass
class Standing:
    """A rematch as one player of the finished game sees it."""
    pending: PendingGameRow | None
    answers: list[tuple[str, str]]       # (name, state) of each seat asked, in seat order
    asked_by_me: bool                    # this player organises it (may start it)
    my_invitation: str | None            # this player's invitation link token, while open
    my_new_seat: str | None              # this player's seat secret, once it has started


def ask(session: Session, settings, game_id: str, seat: int, share,
        now: datetime) -> tuple[RematchRow, list[int]]:
    """The finished game's rematch: asked now (returns the invitation mails owed), or the
    one asked before (no mail)."""
    existing = rematch_of(session, game_id)
    if existing is not None and not _called_off(session, existing):
        return existing, []
    given = invitations.contribution(share)
    loaded = load(session, game_id)
    if loaded.row.status != "finished" or loaded.game.outcome(loaded.state) is None:
        raise IllegalAction(phrase("a rematch can only be asked for when the game is over"))
    if not all(has_address(s) for s in loaded.seats):
        raise IllegalAction(phrase(
            "this game had bots in seats from its start, and a rematch invites the same "
            "people by mail; the organiser can start a new game and fill its empty seats "
            "with bots"))
    asker = loaded.seats[seat]
    rotated = loaded.seats[1:] + loaded.seats[:1]
    start = loaded.first.payload
    organiser = account_for(session, one_address(asker.email), now)
    draft = invitations.Draft(
        game=start["game"], players=len(rotated), options=dict(start.get("options") or {}),
        clock=timekeeping.stored_clock(start.get("clock")).to_json(),
        language=preferences.language_of(session, game_id, seat), seat_order="as_entered",
        open=False, organiser_name=asker.name, organiser_seat=True,
        invitees=[(s.name, s.email) for s in rotated if s.seat != seat], pace=loaded.row.pace)
    pending, mail_ids, _ = invitations.create_pending(session, settings, organiser, draft, now)
    if start.get("mail") is not None:  # the service's mail options, kept beside the engine's
        pending.options = {**pending.options, "mail": start["mail"]}
    _seat_as_before(session, pending, [s.email for s in rotated], given)
    if existing is not None:  # the one called off gives way to this one
        session.delete(existing)
        session.flush()
    row = RematchRow(game_id=game_id, pending_id=pending.id, created_at=now)
    session.add(row)
    session.flush()
    return row, mail_ids


def _seat_as_before(session: Session, pending: PendingGameRow, addresses: list[str],
                    given: dict) -> None:
    """Every invitation in the rotated seat order; the asker's own seat with their share."""
    for invitation in invitations_of(session, pending.id):
        invitation.position = next(i for i, address in enumerate(addresses)
                                   if same_person(address, invitation.email))
        if invitation.via == "organiser":
            invitation.contribution = given
    session.flush()


def standing(session: Session, settings, game_id: str, seat: int, now: datetime) -> Standing | None:
    """Where the finished game's rematch stands for ``seat``'s player (None: nobody asked)."""
    row = _live_rematch(session, game_id)
    if row is None:
        return None
    address = game_seats(session, game_id)[seat].email
    if row.pending_id is None:  # asked before rematches asked anyone: the game started at once
        return Standing(None, [], False, None, _new_seat(session, settings, row.new_game_id, address))
    pending = session.get(PendingGameRow, row.pending_id)
    current = _current(invitations_of(session, pending.id))
    mine = next((i for i in current if same_person(i.email, address)), None)
    open_link = (row_links.token(settings.secret_key, row_links.INVITATION_SALT, mine)
                 if mine is not None and invitations.state_of(mine, now) == "pending"
                 and pending.status == "inviting" else None)
    return Standing(pending, [(i.name, invitations.state_of(i, now)) for i in current],
                    mine is not None and mine.via == "organiser", open_link,
                    _new_seat(session, settings, pending.game_id, address))


def start_now(session: Session, settings, game_id: str, seat: int, now: datetime) -> Outcome:
    """The asker starts the rematch with the players who have accepted (409 when too few)."""
    pending, organiser = _asked_by(session, game_id, seat)
    return invitations.start_with_accepted(session, organiser, pending.id, now, settings.mail_domain)


def call_off(session: Session, game_id: str, seat: int, now: datetime) -> None:
    """The asker calls the rematch off: the open invitations are withdrawn, and any player
    may ask for a rematch again."""
    pending, organiser = _asked_by(session, game_id, seat)
    invitations.cancel(session, organiser, pending.id, now)


def _asked_by(session: Session, game_id: str, seat: int) -> tuple[PendingGameRow, AccountRow]:
    """The rematch's pending game and its organiser, when ``seat``'s player asked for it
    (404 when nobody has, 403 for another player)."""
    row = _live_rematch(session, game_id)
    if row is None or row.pending_id is None:
        raise invitations.InvitationError(404, phrase("nobody has asked for a rematch yet"))
    pending = session.get(PendingGameRow, row.pending_id)
    organiser = session.get(AccountRow, pending.organiser_id)
    if not same_person(organiser.email, game_seats(session, game_id)[seat].email):
        raise invitations.InvitationError(403, phrase(
            "only {name}, who asked for the rematch, can start it or call it off",
            name=pending.organiser_name))
    return pending, organiser


def _live_rematch(session: Session, game_id: str) -> RematchRow | None:
    """The game's rematch row, unless it was called off (then the players may ask again)."""
    row = rematch_of(session, game_id)
    return None if row is None or _called_off(session, row) else row


def _called_off(session: Session, row: RematchRow) -> bool:
    return (row.pending_id is not None
            and session.get(PendingGameRow, row.pending_id).status == "cancelled")


def _current(rows: list[InvitationRow]) -> list[InvitationRow]:
    """The newest invitation of each seat (a replaced one gives way to its replacement)."""
    newest = {row.position: row for row in rows}
    return [newest[position] for position in sorted(newest)]


def _new_seat(session: Session, settings, new_game_id: str | None, address: str) -> str | None:
    """The seat secret of ``address`` in the rematch, once it has started and seats them."""
    if new_game_id is None:
        return None
    for seat in game_seats(session, new_game_id):
        if same_person(seat.email, address):
            return make_secret(settings.secret_key, new_game_id, seat.seat, seat.nonce)
    return None
