"""What the mail after an admin event (or a player's undo) says beyond its intro line.

A pure function of the events up to the outbox row's seq, like the rest of the message, so a
retried delivery renders the same words.  It never names what another seat chose: a move that
was undone may have been a secret choice, so only its seat and seq are told, and the
recipient's own undone moves by their label."""
from __future__ import annotations

from engine.text import render
from service.store.history import effective_moves
from service.store.organisers import Organiser
from service.view.actors import actor_name

REWIND_KINDS = {"rollback": "RolledBack", "undone": "Undone"}
REASON_KINDS = {"paused": "GamePaused", "abandoned": "GameAbandoned", "resumed": "GameResumed"}
# The notices that name an admin's (or the organiser's) act: they need ``notice_for``'s
# ``organiser`` to name the organiser as the players know them.
BY_ADMIN_KINDS = frozenset({"rollback", "seat", *REASON_KINDS})


def undone_moves(events, rewind_seq: int) -> list:
    """The moves that the rewind event at ``rewind_seq`` took out of the effective history."""
    before = effective_moves(events[:rewind_seq - 1])
    after = {e.seq for e in effective_moves(events[:rewind_seq])}
    return [e for e in before if e.seq not in after]


def _last(events, kind: str, upto: int):
    for event in reversed(events):
        if event.seq <= upto and event.kind == kind:
            return event
    return None


def notice_for(loaded, kind: str, seat: int | None, organiser: Organiser | None = None) -> str:
    """``organiser``: the game's (``organisers.organiser_of``), so the players read who acted
    by the name they know; anyone else who acted is named by role, never by address."""
    names = [s.name for s in loaded.seats]

    def who_did(event) -> str:
        return render(actor_name(event.actor, names, organiser))

    events = loaded.events
    if kind in REWIND_KINDS:
        event = _last(events, REWIND_KINDS[kind], loaded.seq)
        if event is None:
            return ""
        undone = undone_moves(events, event.seq)
        who = who_did(event)
        parts = [f"The game was taken back to seq {event.payload['to_seq']} by {who}."]
        if undone:
            listed = ", ".join(f"{names[e.payload['seat']]} (seq {e.seq})" for e in undone
                               if 0 <= e.payload.get("seat", -1) < len(names))
            parts.append(f"Undone: {len(undone)} move{'s' if len(undone) != 1 else ''} by {listed}.")
            own = [e.payload.get("label") or "a move" for e in undone
                   if e.payload.get("seat") == seat]
            if own:
                parts.append("Your undone move: " + "; ".join(own) + ".")
        if event.payload.get("reason"):
            parts.append(f"Reason: {event.payload['reason']}")
        return " ".join(parts)
    if kind in REASON_KINDS:
        event = _last(events, REASON_KINDS[kind], loaded.seq)
        if event is None:
            return ""
        text = f"By {who_did(event)}."
        if event.payload.get("reason"):
            text += f" Reason: {event.payload['reason']}"
        return text
    if kind == "seat":
        event = _last(events, "SeatReplaced", loaded.seq)
        if event is not None and event.payload.get("seat") == seat:
            return (f"You take over from {event.payload.get('previous_name', 'another player')} "
                    f"(set by {who_did(event)}).")
    return ""
