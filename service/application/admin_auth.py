"""Admin accounts: passwords (werkzeug scrypt), the login session, and who may see what.

Two kinds of admin: a *site admin* sees and changes every game and may look at any seat's
private view; any other admin is an admin of the games listed for them in ``game_admins``
only, and sees public information only (never a seat's private view, never a move's label,
which may name a secret choice).  The JSON admin API also accepts the operator's
``CHASQUI_ADMIN_TOKEN`` as a Bearer token, as a site admin named "admin".

An admin who sits in the game is a player first (``Admin.seat_in``: their login address, up to
case and a ``+tag``, holds a seat): in that game they may not look at any seat's private view, export it, or replace or
bot any seat but their own -- whether game admin or site admin, since an organiser who plays
could otherwise read the other hands.  Those acts take an admin outside the game (a site
admin, or the operator's token); see docs/admin.md for why not the other players' consent."""
from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import datetime

from flask import request, session as cookie
from werkzeug.security import check_password_hash, generate_password_hash

from engine.text import phrase
from service.store import admins
from service.store.db import Session
from service.store.models import AdminRow, GameAdminRow, GameRow
from service.core.addresses import same_person
from service.core.refusals import Refusal

SESSION_ID = "admin_id"
SESSION_CHECK = "admin_check"
SESSION_GENERATION = "admin_generation"
MIN_PASSWORD = 10
MAX_EMAIL = 70  # the actor column is 80 characters: "admin:" + email

# Checked when the email is unknown, so a wrong email costs the same time as a wrong password.
_DUMMY_HASH = generate_password_hash("not a password of anyone", method="scrypt")


class AdminError(ValueError):
    """Bad input to an account command (the CLI prints it; nothing was changed)."""


class PlayerFirst(Refusal):
    """An admin who sits in the game asked for another seat's secrets or chair (403)."""

    status = 403


@dataclass(frozen=True)
class Admin:
    id: int | None
    email: str
    is_site_admin: bool
    game_ids: frozenset[str]

    @property
    def actor(self) -> str:
        """How events name this admin: "admin:<id>" (the API token is plain "admin").  Not the
        address: an event's actor is hashed into the chain and published with a finished
        game's record, which its spectators may read."""
        return f"admin:{self.id}" if self.id is not None else "admin"

    def may_admin(self, game_id: str) -> bool:
        return self.is_site_admin or game_id in self.game_ids

    @property
    def may_see_seats(self) -> bool:
        """Only a site admin may look at a seat's private view (hidden cards, tents) -- and
        not in a game they play in (``may_see_seats_of``)."""
        return self.is_site_admin

    def seat_in(self, seats) -> int | None:
        """The seat this admin holds in a game (``seats``: its seat rows), if any: one whose
        address names the same person as the admin's login (``addresses.person_key``: case
        and a ``+tag`` fold away), so a second address does not make an organiser an
        outsider of the game they play in."""
        if not self.email.strip():
            return None  # the operator's token sits nowhere
        return next((s.seat for s in seats if same_person(s.email, self.email)), None)

    def may_see_seats_of(self, seats) -> bool:
        """Only a site admin who does not play in this game may look at a seat's private view
        (hidden cards, tents), a move's label, or the export (which holds the seed)."""
        return self.may_see_seats and self.seat_in(seats) is None

    def check_seat_change(self, seats, seat: int) -> None:
        """Replacing a seat or handing it to a bot: an admin who plays may do it to their own
        seat only (PlayerFirst otherwise)."""
        held = self.seat_in(seats)
        if held is not None and held != seat:
            raise PlayerFirst(phrase(
                "you play as {player} in this game, so you may not replace or hand over another "
                "seat; ask a site admin who does not play in it", player=seats[held].name))

    def check_outside(self, seats) -> None:
        """What only someone outside the game may do: see a seat's view or the export (the
        seed), or roll the game back (a player would choose again knowing what was revealed
        since -- what a player's own undo never allows)."""
        held = self.seat_in(seats)
        if held is not None:
            raise PlayerFirst(phrase(
                "you play as {player} in this game, so you may not see other seats' secrets, "
                "export the game or roll it back; ask a site admin who does not play in it",
                player=seats[held].name))


def actor_addresses(session: Session) -> dict[str, str]:
    """{"admin:<id>": address} of every admin, so an admin's page names the admins who acted
    (events name them by id; players' mail says "an admin")."""
    return {f"admin:{admin_id}": email for admin_id, email in admins.admin_addresses(session)}


def hash_password(password: str) -> str:
    return generate_password_hash(password, method="scrypt")


def _check_fingerprint(password_hash: str) -> str:
    """Kept in the session cookie: changing the password ends every session of the account."""
    return password_hash[-16:]


def create_admin(session: Session, email: str, password: str, now: datetime,
                 site: bool = True, games: tuple[str, ...] = ()) -> AdminRow:
    """Create the account, or set a new password (and add game grants) if it exists."""
    email = (email or "").strip().lower()
    if "@" not in email or len(email) > MAX_EMAIL or any(c.isspace() for c in email):
        raise AdminError(f"give a valid email address of at most {MAX_EMAIL} characters")
    if len(password or "") < MIN_PASSWORD:
        raise AdminError(f"the password needs at least {MIN_PASSWORD} characters")
    for game_id in games:
        if session.get(GameRow, game_id) is None:
            raise AdminError(f"no game {game_id!r}")
    row = admins.admin_by_email(session, email)
    if row is None:
        row = AdminRow(email=email, password_hash=hash_password(password),
                       is_site_admin=site and not games, created_at=now)
        session.add(row)
        session.flush()
    else:
        row.password_hash = hash_password(password)
        row.session_generation += 1  # a new password ends every session of the account
        if site and not games:
            row.is_site_admin = True
    for game_id in games:
        grant_game(session, row.id, game_id, now)
    return row


def grant_game(session: Session, admin_id: int, game_id: str, now: datetime) -> None:
    if session.get(GameAdminRow, (admin_id, game_id)) is None:
        session.add(GameAdminRow(admin_id=admin_id, game_id=game_id, created_at=now))
        session.flush()


def authenticate(session: Session, email: str, password: str) -> AdminRow | None:
    email = (email or "").strip().lower()
    row = admins.admin_by_email(session, email)
    if row is None:
        check_password_hash(_DUMMY_HASH, password or "")
        return None
    return row if check_password_hash(row.password_hash, password or "") else None


def log_in(row: AdminRow) -> None:
    cookie.clear()  # a fresh session: no fixation of a cookie set before login
    cookie[SESSION_ID] = row.id
    cookie[SESSION_CHECK] = _check_fingerprint(row.password_hash)
    cookie[SESSION_GENERATION] = row.session_generation


def whole_number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _logged_in_row(session: Session) -> AdminRow | None:
    """The admin row this request's cookie logs in, if the cookie is still good: same
    password, and made in the row's current session generation (not logged out since)."""
    admin_id, generation = cookie.get(SESSION_ID), cookie.get(SESSION_GENERATION)
    if not whole_number(admin_id) or not whole_number(generation):
        return None
    row = session.get(AdminRow, admin_id)
    if row is None or row.session_generation != generation or not hmac.compare_digest(
            str(cookie.get(SESSION_CHECK, "")), _check_fingerprint(row.password_hash)):
        return None
    return row


def end_sessions(session: Session) -> None:
    """Logging out: count the row's session generation up, so that this cookie and every other
    made for the account before -- a saved copy, another browser -- is refused from now on."""
    row = _logged_in_row(session)
    if row is not None:
        admins.count_session_generation(session, row.id, row.session_generation)
    for key in (SESSION_ID, SESSION_CHECK, SESSION_GENERATION):
        cookie.pop(key, None)


def _as_admin(session: Session, row: AdminRow) -> Admin:
    return Admin(row.id, row.email, row.is_site_admin, admins.granted_games(session, row.id))


def from_cookie(session: Session) -> Admin | None:
    """The admin logged in with this request's session cookie (re-read every request, so a
    removed account, a changed password or a logout takes effect at once)."""
    row = _logged_in_row(session)
    return None if row is None else _as_admin(session, row)


def from_bearer(token: str | None) -> Admin | None:
    header = request.headers.get("Authorization", "")
    given = header[7:] if header.startswith("Bearer ") else ""
    if token and given and hmac.compare_digest(token.encode(), given.encode()):
        return Admin(None, "", True, frozenset())
    return None


def visible_ids(admin: Admin) -> frozenset[str] | None:
    """The ids of the games this admin may list: None for a site admin (every game)."""
    return None if admin.is_site_admin else admin.game_ids
