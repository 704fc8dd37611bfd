"""Who did an event, in words its reader may be told.

Events name who acted by a code ("seat:2", "admin:3", "organiser:5", "system", "bot"): an
event's actor is hashed into the chain and published with a finished game's record, so it
holds no address.  A reader is told a name instead: a player's seat name, the organiser's
name as the invitations gave it, or a role ("a Chasqui admin").  Only the admin pages, which
already list the admins' and players' addresses, are given ``addresses``; a player's mail or
page never shows an admin's or an organiser's address."""
from __future__ import annotations

from engine.text import N_, Phrase, phrase, term
from service.store.organisers import Organiser

SYSTEM = "system"  # the sweeps' actor: timeouts, automatic vacations, the seed's reveal
BOT = "bot"

# A name at the start of a sentence: the role's own capitalised msgid (a case the Chinese and
# Japanese catalogs do not have).
_OPENING = {"a Chasqui admin": N_("A Chasqui admin"),
            "the game's organiser": N_("The game's organiser"),
            "a bot": N_("A bot"), "someone": N_("Someone")}


def actor_name(actor: str, names: list[str], organiser: Organiser | None = None,
               addresses: dict[str, str] | None = None) -> str | Phrase:
    """The reader's words for ``actor``: a seat name (a plain string), or a phrase to
    translate.  ``organiser``: the game's (``organisers.organiser_of``), to name them as the
    players know them; ``addresses``: ``{"admin:<id>": address}`` for an admin page, which may
    name an admin by address (and an admin recorded by address, before admins had ids)."""
    kind, _, rest = actor.partition(":")
    if kind == "seat" and rest.isdigit() and int(rest) < len(names):
        return names[int(rest)]
    if organiser is not None and actor in organiser.actors:
        return phrase("{name}, the game's organiser", name=organiser.name)
    if actor == BOT:
        return term("a bot")
    if actor == SYSTEM:
        return term("Chasqui (automatic)")
    if kind == "admin" and addresses is not None and (actor in addresses or "@" in rest):
        return addresses.get(actor, rest)
    if kind == "admin":
        return term("a Chasqui admin")
    if kind == "organiser":
        return term("the game's organiser")
    return actor if addresses is not None else term("someone")


def address_of(actor: str, organiser: Organiser | None) -> str | None:
    """The address behind ``actor`` for an admin page (shown under the name), if it has one
    that the name does not already say."""
    if organiser is not None and actor in organiser.actors:
        return organiser.email
    return None


def opening(name: str | Phrase) -> str | Phrase:
    """A name that opens a sentence ("a Chasqui admin" → "A Chasqui admin"): the offer's texts
    begin with who made it."""
    if type(name) is dict:
        return term(_OPENING[name["t"]]) if name["t"] in _OPENING else name
    return name[:1].upper() + name[1:]
