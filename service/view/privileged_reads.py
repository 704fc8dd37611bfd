"""A finished game's privileged reads in words (``service.store.privileged_reads``): who read
what, and when, for the game's record and its finished play and watch pages.

An admin is named by number, never by address (a record is public), and a seat by its
player's name; the point read is an event of the game's record, which numbers its events.
While the game still keeps secrets nothing is shown: the list would tell the players which
seat an admin looked at."""
from __future__ import annotations

from engine.text import Phrase, phrase, render
from service.store import privileged_reads as reads
from service.store.db import Session
from service.store.loading import Loaded

TIME_FORMAT = "%Y-%m-%d %H:%M UTC"


def who(actor: str) -> Phrase:
    """"a Chasqui admin (admin 3)"; the operator's token has no number."""
    _kind, _, number = actor.partition(":")
    if number.isdigit():
        return phrase("a Chasqui admin (admin {number})", number=number)
    return phrase("a Chasqui admin (with the operator's token)")


def what(read: reads.PrivilegedRead, names: list[str]) -> Phrase:
    seq = str(read.seq)
    if read.what == reads.SEAT_VIEW:
        player = names[read.seat] if read.seat is not None and 0 <= read.seat < len(names) \
            else phrase("a seat")
        return phrase("viewed {player}'s seat as it was after event {seq} of the record",
                      player=player, seq=seq)
    if read.what == reads.LOG:
        return phrase("read every move's content in the game's log, up to event {seq} of the record",
                      seq=seq)
    return phrase("exported the game, with its seed, at event {seq} of the record", seq=seq)


def described(read: reads.PrivilegedRead, names: list[str]) -> dict:
    """{"who", "what", "at"}: two phrases for the reader's language, and the time in UTC."""
    return {"who": who(read.actor), "what": what(read, names),
            "at": read.read_at.strftime(TIME_FORMAT)}


def after_the_end(session: Session, loaded: Loaded) -> list[dict] | None:
    """The reads a finished page lists (``described``, oldest first), or None while the game
    keeps secrets (it runs, or its seed is not revealed yet)."""
    if reads.keeps_secrets(loaded):
        return None
    names = [s.name for s in loaded.seats]
    return [described(r, names) for r in reads.of_game(session, loaded.row.id)]


def in_record(session: Session, loaded: Loaded) -> list[dict]:
    """The record's ``privileged_reads`` section: each read in English, its time in ISO 8601.
    Outside the hash chain: a verifier shows it and trusts nothing in it."""
    names = [s.name for s in loaded.seats]
    return [{"who": render(who(r.actor)), "what": render(what(r, names)),
             "at": r.read_at.isoformat(timespec="seconds")}
            for r in reads.of_game(session, loaded.row.id)]
