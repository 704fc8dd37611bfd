"""Every kind of mail Chasqui sends, named once: what the mail is (its label) and, for a game's
mail, the sentence it opens with (its intro).

The subject of a game's mail never changes (mail clients thread by it as well as by
References), so an inbox could not tell a turn from table talk or a rollback.  The label says
it instead, where an inbox looks: the first line of the text part, a hidden preheader at the
top of the HTML part, and the local mailbox's list (the admin pages name the outbox's kinds
with it too).  A label names the kind and nothing else, so the preview shows no more than the
recipient's own mail does.

The codes are the outbox rows' ``kind`` (``outbox`` and ``account_outbox``); a reminder's code
carries its hours (``reminder-24``) and is found by the part before the dash."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.text import Phrase, phrase
from service.view.i18n import N_, translate


@dataclass(frozen=True)
class MailKind:
    label: str  # a catalog msgid, lower case as it reads inside a sentence
    intro: str = ""  # a game mail's first sentence (a catalog msgid), "" for none


KINDS: dict[str, MailKind] = {
    # A game's mail to a seat (service/mail/compose.py).
    "start": MailKind(N_("game start"), N_("A new game has started.")),
    "turn": MailKind(N_("your turn"), N_("It is your turn.")),
    "game_over": MailKind(N_("game over"), N_("The game is over.")),
    "timeout": MailKind(N_("time ran out"), N_("A player's time ran out.")),
    "reminder": MailKind(N_("reminder")),
    "vacation_auto": MailKind(N_("vacation started by itself"), N_(
        "Your time ran out, so your vacation started by itself: your clock is stopped.")),
    "vacation_over": MailKind(N_("vacation used up"),
                              N_("Your vacation days are used up: your clock runs again.")),
    # Admin and undo notices.  Each of these events makes every earlier link stale.
    # "{who}": who acted, as ``view.actors`` names them (``view.notices.acted_by``).
    "rollback": MailKind(N_("rolled back"), N_(
        "The game was rolled back by {who}. Links in earlier mails no longer work; use these.")),
    "rollback_proposed": MailKind(N_("rollback proposed"), N_(
        "A rollback of the game is proposed. The moves it would take back showed "
        "something, so it happens only if every player agrees.")),
    "rollback_declined": MailKind(N_("rollback declined"), N_(
        "A player declined the proposed rollback: the game goes on as it is.")),
    "undone": MailKind(N_("move taken back"), N_(
        "A player took back a move. Links in earlier mails no longer work; use these.")),
    "seat": MailKind(N_("new seat"), N_("You now have a seat in this game.")),
    "links": MailKind(N_("new links")),
    "paused": MailKind(N_("paused"),
                       N_("The game was paused by {who}: no moves are taken until it resumes.")),
    "resumed": MailKind(N_("resumed"), N_("The game was resumed by {who}: it goes on again. "
                                          "Links in earlier mails no longer work; use these.")),
    "abandoned": MailKind(N_("abandoned"),
                          N_("The game was ended by {who}: no more moves are taken.")),
    # Table talk and answers to a player's own reply (service/mail/kit.py).
    "talk": MailKind(N_("table talk"), N_("A message to the table.")),
    "reply_ok": MailKind(N_("reply recorded"), N_("Your move by mail was recorded.")),
    "reply_error": MailKind(N_("reply not used"), N_("Your reply could not be used.")),
    # An address's daily list of waiting games (service/mail/digest.py).
    "digest": MailKind(N_("digest"), N_("Your games that are waiting for you.")),
    # Mail of no game yet, or to no seat (service/mail/mailer.py, seat_offer_mail.py).
    "sign_in": MailKind(N_("link to sign in")),
    "invitation": MailKind(N_("invitation")),
    "join": MailKind(N_("seat to confirm")),
    "admin_paused": MailKind(N_("paused, waiting for an admin")),
    "webhook_off": MailKind(N_("chat channel switched off")),
    "seat_invite": MailKind(N_("seat offered to you")),
    "seat_offered": MailKind(N_("your seat offered")),
    "seat_taken": MailKind(N_("your seat taken over")),
}

_NONE = MailKind("")


def kind_of(code: str | None) -> MailKind:
    """The kind of an outbox row's ``kind`` code; an unknown code has no label and no intro."""
    code = code or ""
    return KINDS.get(code) or KINDS.get(code.partition("-")[0], _NONE)


def label(code: str | None) -> str:
    """The label's msgid, or the code itself when it names no known kind (shown as stored)."""
    return kind_of(code).label or (code or "")


@lru_cache(maxsize=256)  # a pure function of two short strings, asked once per mail
def preview(language: str, code: str | None) -> str:
    """The preview line of a mail of kind ``code`` in ``language``: its label, begun with a
    capital letter as the first words of a mail are ("Your turn", "轮到你")."""
    text = translate(language, kind_of(code).label)
    return text[:1].upper() + text[1:]


def intro(language: str, code: str | None, who: str | Phrase | None = None) -> str:
    """A game mail's first sentence in ``language`` ("" for a kind that has none).  ``who``:
    who did what the mail tells of (``view.notices.acted_by``), for the kinds whose sentence
    names them: an organiser's pause must not read as an admin's."""
    if who is None:
        return _intro(language, code)
    return translate(language, phrase(kind_of(code).intro, who=who))


@lru_cache(maxsize=256)
def _intro(language: str, code: str | None) -> str:
    return translate(language, kind_of(code).intro)
