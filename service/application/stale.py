"""Why a move answered by mail came too late, told as a mail reader understands it.

A refused move's reply mail is read away from the game, often hours later: "the game moved
on: you saw seq 34, it is now at seq 35; reload" (as it once read) says neither what happened nor what to do,
and there is nothing to reload in a mail.  So the reply path asks ``why_stale`` which of the
things that make a seq stale happened since the answered mail -- the player already moved, the
game ended or paused, it was taken back, others moved -- and says that, with what to do next.
It names who moved, never what they chose: a move since may be a secret choice.  (The JSON API
keeps its own refusal, which programs may match.)"""
from __future__ import annotations

from engine.text import Phrase, phrase, term
from service.store.history import REWIND_EVENTS, superseded_seqs
from service.store.loading import Loaded
from service.view.moments import movers

# Other moves were recorded while this one waited, and this answer still fits the game.
RACE_LOST = phrase("Other moves were recorded at the same moment as yours, so yours was not. "
                   "Nothing was done; answer the newest mail from the game again.")


def why_stale(loaded: Loaded, seat: int, seq_seen: int) -> Phrase:
    """The reason a move made on ``seq_seen`` (a seq the seat's answer named) is refused."""
    if not 0 < seq_seen <= loaded.seq:
        return phrase("That mail is not from this game as it is now: it names a point the game "
                      "has not reached. Nothing was done; use the newest mail from the game.")
    if loaded.row.status == "finished" or loaded.game.outcome(loaded.state) is not None:
        return phrase("The game is over, so no more moves are taken. Nothing was done.")
    if loaded.row.status == "abandoned":
        return phrase("This game was ended early, so no more moves are taken. Nothing was done.")
    later = loaded.since(seq_seen)
    undone = superseded_seqs(loaded.events)
    own = [e for e in later if e.kind == "MoveMade" and e.payload.get("seat") == seat
           and e.actor == f"seat:{seat}" and e.seq not in undone]
    if own:
        move = own[-1].payload.get("say") or term(own[-1].payload.get("label") or "")
        return phrase("You already moved since that mail: {move}. This answer was not used, "
                      "so nothing changed.", move=move)
    if any(e.kind == "TurnTimedOut" and e.payload.get("seat") == seat for e in later):
        return phrase("Your time for that move ran out and the game chose for you. "
                      "Nothing was done; the newest mail from the game shows what it asks now.")
    if any(e.kind in REWIND_EVENTS for e in later):
        return phrase("The game was taken back since that mail, so its codes no longer count. "
                      "Nothing was done; the newest mail from the game shows what it asks now.")
    if loaded.row.status == "paused":
        return phrase("The game is paused: no moves are taken until it goes on, and you will "
                      "get a mail when it does. Nothing was done.")
    others = movers(later, [s.name for s in loaded.seats], besides=seat)
    if others:
        return phrase("{players} moved since that mail, so the choice it asked for is over. "
                      "Nothing was done; the newest mail from the game shows what it asks now.",
                      players=others)
    return phrase("The game went on since that mail. Nothing was done; the newest mail from "
                  "the game shows what it asks now.")

