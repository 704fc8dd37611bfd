"""Pending games and invitations: the commands (no Flask here; the pages are in
``organiser``, ``invitation_pages`` and ``lobby``).

A signed-in organiser describes a game; every invited address gets one invitation mail
(through the account outbox, in the same transaction).  An invitation is accepted or declined
by a POST from its landing page; it expires after 7 days.  The game itself -- its GameRow,
seats and ``GameCreated`` event, through ``service.application.games.create_game`` -- exists only once
every seat has accepted, so no turn mail can ever go to an address that has not accepted.
The organiser may replace a declined, expired or silent invitee; an address that declines
may block further invitations from that organiser.  Open games also take seats from the
lobby: a visitor leaves an address and confirms by the same kind of mail.

The game's chance is fixed before anyone takes a seat: the pending game draws the service's
secret when it is set up and its pages show the commitment to it; each player gives their
own contribution when they accept (made in their browser, or typed; the service's for an
empty field), and the game's seed is derived from all of them when it starts
(``service.store.randomness``).

Every command validates first and raises before writing anything, so bad input changes
nothing (the caller's unit of work rolls back besides)."""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine import IllegalAction, get_game
from engine.text import counted, phrase, term
from service.application import games, shares
from service.store import preferences
from service.store import randomness
from service.store.db import Session
from service.store.invitations import invitations_of, lock_pending, open_pending_games, reread
from service.store.rematches import rematched_game
from service.core import row_links
from service.core.addresses import one_seat_each, same_person
from service.store import timekeeping
from service.core import validation
from service.application import admin_link
from service.mail import mailer
from service.application import quotas
from service.view import bot_levels, presentations
from service.view.i18n import N_
from service.store.models import AccountRow, InvitationBlockRow, InvitationRow, PendingGameRow
from service.core.pace import parse_pace
from service.core.refusals import Refusal
from service.store.events import utc
from service.core.tokens import new_game_id

JOIN_LIFETIME = timedelta(days=1)
SEAT_ORDERS = {"random": "random", "as_entered": "as entered"}
LANGUAGES = preferences.LANGUAGES  # the game's mail language
# Editions and variants offered on the form, per game (the engine validates them again).
OPTION_CHOICES: dict[str, dict[str, list[tuple[str, str]]]] = presentations.option_choices()


class InvitationError(Refusal):
    """Refused; nothing was changed.  ``status`` is the HTTP answer."""

    def __init__(self, status: int, message):
        super().__init__(message)
        self.status = status


@dataclass
class Draft:
    """What the new-game form says."""
    game: str
    players: int
    options: dict
    clock: dict
    language: str
    seat_order: str
    open: bool
    organiser_name: str
    organiser_seat: bool
    invitees: list[tuple[str, str]]  # (name, raw address)
    pace: str | None = None          # a ``service.core.pace`` code; None: not set


def read_link(session: Session, settings, token: str) -> InvitationRow:
    """The invitation a link names; forged, mistyped or unknown → 403."""
    return row_links.read(session, InvitationRow, settings.secret_key,
                          row_links.INVITATION_SALT, token, _refused_link)


def _refused_link(forged: bool) -> InvitationError:
    return InvitationError(403, N_("This invitation link is not valid (forged or mistyped).")
                           if forged else N_("This invitation link is not valid."))


def state_of(invitation: InvitationRow, now: datetime) -> str:
    """pending, accepted, declined, replaced, withdrawn -- or expired (a pending one past its
    time; computed, so nothing has to run at the moment it expires)."""
    if invitation.status == "pending" and utc(invitation.expires_at) <= now:
        return "expired"
    return invitation.status


def live(invitations: list[InvitationRow], now: datetime) -> list[InvitationRow]:
    """The invitations that hold a seat: accepted, or pending and not expired."""
    return [i for i in invitations if state_of(i, now) in ("accepted", "pending")]


def free_seats(session: Session, pending: PendingGameRow, now: datetime) -> int:
    return max(pending.players - len(live(invitations_of(session, pending.id), now)), 0)


def _name(raw, what) -> str:
    """``what``: whose name (a phrase: "you", "player 2"), as the refusal names it."""
    try:
        return validation.person_name(raw, what)
    except validation.BadInput as error:
        raise InvitationError(400, error.say) from None


def _address(raw, what) -> str:
    try:
        return validation.one_address(raw, what)
    except validation.BadInput as error:
        raise InvitationError(400, error.say) from None


def _player(index: int):
    return phrase("player {n}", n=index + 1)


def _blocked(session: Session, organiser_id: int, address: str) -> bool:
    return session.get(InvitationBlockRow, (organiser_id, address)) is not None


def commitment_of(pending: PendingGameRow) -> str | None:
    """The commitment to the service's share of the game's chance, for its pages (None for a
    game set up before, which draws its share when it starts)."""
    return None if pending.secret is None else randomness.service_commitment(pending.secret)


def contribution(raw) -> dict:
    """The share of the chance a player gives on accepting (``shares.given_share``); a bad
    one is refused with 400."""
    try:
        return shares.given_share(raw)
    except validation.BadInput as error:
        raise InvitationError(400, error.say) from None


def validate(draft: Draft) -> tuple[dict, dict]:
    """Game, count, options and clock through the engine and timekeeping; returns the
    (options, clock) to store.  Raises IllegalAction or InvitationError."""
    game = get_game(draft.game)
    if not game.min_players <= draft.players <= game.max_players:
        raise InvitationError(400, phrase("{game} is for {low} to {high} players, not {count}",
                                          game=term(game.title), low=game.min_players,
                                          high=game.max_players, count=draft.players))
    if not isinstance(draft.options, dict):
        raise IllegalAction(phrase("options must be a JSON object"))
    game.setup([f"seat {i}" for i in range(draft.players)], 0, draft.options)  # bad option: raises
    clock = timekeeping.parse_clock(draft.clock).to_json()
    if draft.language not in LANGUAGES:
        raise InvitationError(400, phrase("language must be one of {choices}",
                                          choices=", ".join(LANGUAGES)))
    if draft.seat_order not in SEAT_ORDERS:
        raise InvitationError(400, phrase("seat order must be one of {choices}",
                                          choices=", ".join(SEAT_ORDERS)))
    try:
        draft.pace = parse_pace(draft.pace)
    except validation.BadInput as error:
        raise InvitationError(400, error.say) from None
    return dict(draft.options), clock


def create_pending(session: Session, settings, organiser: AccountRow, draft: Draft,
                   now: datetime) -> tuple[PendingGameRow, list[int], games.Outcome | None]:
    """The organiser's new game: returns (pending game, account mail ids, start outcome)."""
    options, clock = validate(draft)
    organiser_name = _name(draft.organiser_name, term(N_("you")))
    invitees = [(_name(name, _player(i)), _address(email, _player(i)))
                for i, (name, email) in enumerate(draft.invitees)]
    seated = 1 if draft.organiser_seat else 0
    if seated + len(invitees) > draft.players:
        raise InvitationError(400, phrase("{count} players for {seats} seats",
                                          count=seated + len(invitees), seats=draft.players))
    if not draft.open and seated + len(invitees) != draft.players:
        raise InvitationError(400, phrase(
            "{seats} seats need {wanted} invited players, not {count} (or make the game open, "
            "so the lobby fills the other seats)",
            seats=draft.players, wanted=draft.players - seated, count=len(invitees)))
    taken = [organiser.email] if draft.organiser_seat else []
    for name, address in invitees:
        if any(same_person(address, other) for other in taken):
            raise InvitationError(400, one_seat_each(address))
        taken.append(address)
        if _blocked(session, organiser.id, address):
            raise InvitationError(403, phrase("{address} has asked not to get invitations from you",
                                              address=address))
    quotas.check_organiser(session, organiser.id, now, settings.invites_per_day, len(invitees))
    if not organiser.name:
        organiser.name = organiser_name
    pending = PendingGameRow(
        id=new_game_id(), organiser_id=organiser.id, organiser_name=organiser_name,
        game=draft.game, options=options, clock=clock, language=draft.language,
        players=draft.players, seat_order=draft.seat_order, open=draft.open, status="inviting",
        pace=draft.pace, secret=randomness.new_secret(), created_at=now, updated_at=now)
    session.add(pending)
    session.flush()
    if draft.organiser_seat:
        session.add(InvitationRow(
            pending_id=pending.id, position=0, name=organiser_name, email=organiser.email,
            nonce=secrets.token_urlsafe(16), via="organiser", status="accepted", created_at=now,
            expires_at=now, responded_at=now))
    mail_ids = []
    for position, (name, address) in enumerate(invitees, start=seated):
        row = InvitationRow(pending_id=pending.id, position=position, name=name, email=address,
                            nonce=secrets.token_urlsafe(16), via="invite", status="pending",
                            created_at=now, expires_at=now + row_links.INVITATION_LIFETIME)
        session.add(row)
        session.flush()
        mail_ids.append(mailer.queue(session, "invitation", row.id, address, now,
                                     settings.mail_domain).id)
    return pending, mail_ids, maybe_start(session, pending, now, settings.mail_domain)


def _lock(session: Session, pending_id: str) -> PendingGameRow:
    """The pending game, locked (``lock_pending``), or 404."""
    pending = lock_pending(session, pending_id)
    if pending is None:
        raise InvitationError(404, N_("no such game"))
    return pending


def _still_inviting(pending: PendingGameRow) -> None:
    if pending.status == "started":
        raise InvitationError(409, N_("This game has started already; nothing was changed."))
    if pending.status != "inviting":
        raise InvitationError(410, N_("The organiser cancelled this game."))


def respond(session: Session, settings, token: str, accept: bool, block: bool,
            now: datetime, share=None) -> tuple[InvitationRow, games.Outcome | None]:
    """Accept or decline (from the landing page's POST).  The last acceptance starts the game.
    ``share``: the accepting player's contribution to the chance, as the form sent it."""
    given = contribution(share) if accept else None
    invitation = read_link(session, settings, token)
    pending = _lock(session, invitation.pending_id)
    reread(session, invitation)
    state = state_of(invitation, now)
    if state in ("accepted", "declined") and (state == "accepted") == accept:
        return invitation, None  # a double click: the same answer again changes nothing
    _still_inviting(pending)
    if state == "expired":
        raise InvitationError(410, phrase(
            "This invitation expired (invitations last 7 days); ask the organiser, "
            "{organiser}, for a new one.", organiser=pending.organiser_name))
    if state != "pending":
        raise InvitationError(410, {"accepted": N_("You accepted this invitation already."),
                                    "declined": N_("You declined this invitation already."),
                                    }.get(state, N_("This invitation was withdrawn by the organiser.")))
    invitation.status = "accepted" if accept else "declined"
    invitation.responded_at = now
    invitation.contribution = given
    pending.updated_at = now
    if not accept:
        if block and not _blocked(session, pending.organiser_id, invitation.email):
            session.add(InvitationBlockRow(organiser_id=pending.organiser_id,
                                           email=invitation.email, created_at=now))
        session.flush()
        return invitation, None
    session.flush()
    return invitation, maybe_start(session, pending, now, settings.mail_domain)


def maybe_start(session: Session, pending: PendingGameRow, now: datetime,
                domain: str) -> games.Outcome | None:
    """When every seat has accepted: create the game (GameCreated, seats, start mail)."""
    accepted = [i for i in invitations_of(session, pending.id) if i.status == "accepted"]
    if pending.status != "inviting" or len(accepted) < pending.players:
        return None
    return _start(session, pending, accepted[:pending.players], now, domain)


def start_with_accepted(session: Session, organiser: AccountRow, pending_id: str,
                        now: datetime, domain: str, bots=None) -> games.Outcome:
    """The organiser starts the game with the players who have accepted so far, when the
    game can be played by that many; the invitations still open are withdrawn (their links
    then say the game has started).  Otherwise 409, and nothing changes.

    ``bots``: a bot level ("easy", "strong"): the seats no one accepted, up to the planned
    count, are filled with bots of that level (``bot_seats``); None fills none.  An unknown
    level is a 400 that changes nothing."""
    level = _bots_level(bots)
    own_pending(session, organiser, pending_id)
    pending = _lock(session, pending_id)
    _still_inviting(pending)
    accepted = [i for i in invitations_of(session, pending.id) if i.status == "accepted"]
    game = get_game(pending.game)
    filled = max(pending.players - len(accepted), 0) if level is not None and accepted else 0
    if not game.min_players <= len(accepted) + filled <= game.max_players:
        raise InvitationError(409, counted(
            "{game} needs at least {low} players; {n} has accepted so far",
            "{game} needs at least {low} players; {n} have accepted so far", len(accepted),
            game=term(game.title), low=game.min_players))
    for invitation in invitations_of(session, pending.id):
        if invitation.status == "pending":
            invitation.status = "withdrawn"
    pending.players = len(accepted) + filled
    return _start(session, pending, accepted, now, domain,
                  bot_seats([level] * filled, pending.language))


def _bots_level(raw) -> str | None:
    """The level the organiser chose for the empty seats; nothing chosen (or "none") is
    None: no bots."""
    if raw is None or raw in ("", "none"):
        return None
    try:
        return validation.bot_level(raw, "bots")
    except validation.BadInput as error:
        raise InvitationError(400, error.say) from None


def bot_seats(levels: list[str], language: str = "en") -> list[dict]:
    """Player entries for bots seated at the start: a name players read in the game's
    language ("Strong bot", "Easy bot 2"), no address (no mail is ever sent to them), and
    their level."""
    return [{"name": name, "email": "", "bot_level": level}
            for name, level in zip(bot_levels.seat_names(levels, language), levels)]


def _start(session: Session, pending: PendingGameRow, accepted: list[InvitationRow],
           now: datetime, domain: str, bots: list[dict] = ()) -> games.Outcome:
    """Create the game of the accepted players and the ``bots`` filling empty seats
    (GameCreated, seats, a SeatBotted per bot, start mail to the people)."""
    players = [{"name": i.name, "email": i.email, "contribution": i.contribution}
               for i in accepted] + list(bots)
    if pending.seat_order == "random":
        secrets.SystemRandom().shuffle(players)
    # the clock as recorded, brought within today's bounds (``stored_clock``): a pending game
    # recorded before them must still start
    game_id, outcome = games.create_game(
        session, pending.game, players, None, pending.options, f"organiser:{pending.organiser_id}",
        now, domain, clock=timekeeping.stored_clock(pending.clock).to_json(), pace=pending.pace,
        secret=pending.secret)
    pending.status, pending.game_id, pending.updated_at = "started", game_id, now
    if pending.language != preferences.DEFAULT_LANGUAGE:  # players may change it per game later
        for seat in range(len(players)):
            preferences.set_preference(session, game_id, seat, now, language=pending.language)
    previous = rematched_game(session, pending.id)
    if previous is not None:  # a rematch: each player keeps the mail settings they had
        preferences.carry_over(session, previous, game_id, now)
    organiser = session.get(AccountRow, pending.organiser_id)
    admin_link.make_game_admin(session, organiser.email, game_id, now)
    return outcome


def own_pending(session: Session, organiser: AccountRow, pending_id: str) -> PendingGameRow:
    pending = session.get(PendingGameRow, pending_id)
    if pending is None or pending.organiser_id != organiser.id:
        raise InvitationError(404, N_("You have no game with that id."))
    return pending


def replace(session: Session, settings, organiser: AccountRow, pending_id: str,
            invitation_id: int, name: str, email: str, now: datetime) -> int:
    """Invite someone else in place of a declined, expired or silent invitee; the old link
    stops working.  Returns the new invitation's account mail id."""
    own_pending(session, organiser, pending_id)
    pending = _lock(session, pending_id)
    _still_inviting(pending)
    old = session.get(InvitationRow, invitation_id)
    if old is None or old.pending_id != pending.id:
        raise InvitationError(404, N_("no such invitation in this game"))
    if old.via == "organiser" or state_of(old, now) not in ("pending", "expired", "declined"):
        raise InvitationError(409, phrase(
            "{address} has {state}; only a declined, expired or unanswered invitation can be "
            "replaced", address=old.email, state=state_of(old, now)))
    name = _name(name, term(N_("the new player")))
    address = _address(email, term(N_("the new player")))
    others = [i.email for i in live(invitations_of(session, pending.id), now) if i.id != old.id]
    if any(same_person(address, other) for other in others):
        raise InvitationError(400, phrase("{address} is in this game already", address=address))
    if _blocked(session, organiser.id, address):
        raise InvitationError(403, phrase("{address} has asked not to get invitations from you",
                                              address=address))
    quotas.check_organiser(session, organiser.id, now, settings.invites_per_day, 1)
    if old.status == "pending":
        old.status = "replaced"
    row = InvitationRow(pending_id=pending.id, position=old.position, name=name, email=address,
                        nonce=secrets.token_urlsafe(16), via="invite", status="pending",
                        created_at=now, expires_at=now + row_links.INVITATION_LIFETIME)
    session.add(row)
    session.flush()
    pending.updated_at = now  # a declined one stays "declined": the answer stays on record
    return mailer.queue(session, "invitation", row.id, address, now, settings.mail_domain).id


def cancel(session: Session, organiser: AccountRow, pending_id: str, now: datetime) -> None:
    own_pending(session, organiser, pending_id)
    pending = _lock(session, pending_id)
    _still_inviting(pending)
    pending.status, pending.updated_at = "cancelled", now
    for invitation in invitations_of(session, pending.id):
        if invitation.status == "pending":
            invitation.status = "withdrawn"


def open_games(session: Session, now: datetime, limit: int = 100) -> list[tuple[PendingGameRow, int]]:
    listed = [(row, free_seats(session, row, now)) for row in open_pending_games(session, limit)]
    return [(row, free) for row, free in listed if free > 0]


def join(session: Session, settings, pending_id: str, name: str, email: str,
         now: datetime) -> int:
    """A lobby visitor asks for a seat in an open game: one confirmation mail, whose landing
    page is the invitation's.  Returns the account mail id."""
    pending = _lock(session, pending_id)
    if not pending.open:
        raise InvitationError(404, N_("no such open game"))
    _still_inviting(pending)
    name = _name(name, term(N_("you")))
    address = _address(email, term(N_("your address")))
    current = live(invitations_of(session, pending.id), now)
    if len(current) >= pending.players:
        raise InvitationError(409, N_("Every seat of this game is taken."))
    if any(same_person(address, i.email) for i in current):
        raise InvitationError(409, phrase("{address} has a seat (or an open invitation) in this "
                                          "game already", address=address))
    if _blocked(session, pending.organiser_id, address):
        raise InvitationError(403, phrase("{address} has asked not to get invitations from "
                                          "this organiser", address=address))
    quotas.check_address(session, address, now, settings.signin_per_hour)
    position = max([i.position for i in invitations_of(session, pending.id)] or [0]) + 1
    row = InvitationRow(pending_id=pending.id, position=position, name=name, email=address,
                        nonce=secrets.token_urlsafe(16), via="join", status="pending",
                        created_at=now, expires_at=now + JOIN_LIFETIME)
    session.add(row)
    session.flush()
    pending.updated_at = now
    return mailer.queue(session, "join", row.id, address, now, settings.mail_domain).id
