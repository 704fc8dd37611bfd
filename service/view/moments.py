"""Points of a game's story told in the words a player uses, never as a bare event number.

Every event of a game is numbered from 1 (its "seq"); machines need that number (a mail's
links and its ``X-Chasqui-Seq`` header carry it), people do not.  So a player is told who did
what ("Bea moved after this mail was sent", "taken back to just after Ana's move"), and where
a precise point is needed (a page's foot, an admin page) it is "step N of the game's record":
the record a finished game publishes and the verifier checks lists its events in that order,
so the number means something a reader can look up.  ``docs/mail.md`` holds the vocabulary."""
from __future__ import annotations

from engine.text import Phrase, counted, phrase, term
from service.store.history import ENGINE_EVENTS, REWIND_EVENTS, effective_moves


def mover(event, names: list[str]) -> str | None:
    """The name of the seat whose move (or timeout) ``event`` is, None for any other event."""
    seat = event.payload.get("seat")
    if event.kind in ENGINE_EVENTS and isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return None


def movers(events, names: list[str], besides: int | None = None) -> list[str]:
    """The names of the seats that moved (or timed out) in ``events``, once each, in order;
    ``besides``: a seat to leave out (the reader's own)."""
    found: list[str] = []
    for event in events:
        name = mover(event, names)
        if name is not None and event.payload.get("seat") != besides and name not in found:
            found.append(name)
    return found


def back_to(events, to_seq: int, names: list[str]) -> Phrase:
    """Where a rewind to ``to_seq`` took the game: "just after Ana's move" (the last move the
    state at ``to_seq`` is made of: a move an earlier rewind undid is not one), or "its start"
    when no move was left.  Reads the events up to the point: a rewind is rare."""
    for event in reversed(effective_moves(events[:to_seq])):
        name = mover(event, names)
        if name is not None:
            return phrase("just after {player}'s move", player=name)
    return term("its start")


def undone_by(moves, names: list[str]) -> Phrase:
    """Whose moves a rewind took out: "3 moves by Ana", or "3 moves: 2 by Ana, 1 by Bea"."""
    tally: dict[str, int] = {}
    for event in moves:
        name = mover(event, names) or "?"
        tally[name] = tally.get(name, 0) + 1
    if len(tally) == 1:
        return counted("Undone: {n} move by {players}.", "Undone: {n} moves by {players}.",
                       len(moves), players=list(tally))
    each = [phrase("{n} by {player}", n=n, player=name) for name, n in tally.items()]
    return phrase("Undone: {n} moves: {moves}.", n=len(moves), moves=each)


def since_sent(loaded, seat: int, seen: int) -> Phrase:
    """What happened in the game after a mail showing event ``seen`` was sent, as the reader
    of that mail (``seat``) may be told it: who moved, never what they chose (a move since may
    be a secret choice); the reader's own move by its phrase."""
    later = loaded.since(seen)
    if any(e.kind in REWIND_EVENTS for e in later):
        return phrase("The game was taken back after this mail was sent.")
    own = [e for e in later if e.kind == "MoveMade" and e.payload.get("seat") == seat
           and e.actor == f"seat:{seat}"]
    if own:
        said = own[-1].payload.get("say") or term(own[-1].payload.get("label") or "a move")
        return phrase("You already moved after this mail was sent: {move}.", move=said)
    if any(e.kind == "TurnTimedOut" and e.payload.get("seat") == seat for e in later):
        return phrase("Your time ran out after this mail was sent, and the game chose for you.")
    names = [s.name for s in loaded.seats]
    moves = [e for e in later if mover(e, names) is not None]
    if moves:
        return counted("{players} moved after this mail was sent.",
                       "{n} moves were made after this mail was sent, by {players}.",
                       len(moves), players=movers(moves, names))
    return phrase("The game went on after this mail was sent.")
