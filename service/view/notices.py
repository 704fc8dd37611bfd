"""What the mail after an admin event (or a player's undo) says beyond its intro line.

A pure function of the events up to the outbox row's seq, like the rest of the message, so a
retried delivery renders the same words.  It never names what another seat chose: a move that
was undone may have been a secret choice, so only whose moves they were is told, and the
recipient's own undone moves by their phrase; where the game went back to is told by the move
it went back to (``moments``), never by an event's number.

The sentences are phrases (``engine.text``), translated where the mail is rendered in its
reader's language; who acted is named as ``actors.actor_name`` names them."""
from __future__ import annotations

from engine.text import Phrase, counted, phrase, term
from service.store.history import effective_moves
from service.store.organisers import Organiser
from service.view.actors import actor_name
from service.view.moments import back_to, undone_by

REWIND_KINDS = {"rollback": "RolledBack", "undone": "Undone"}
REASON_KINDS = {"paused": "GamePaused", "abandoned": "GameAbandoned", "resumed": "GameResumed"}
# The notices that name an admin's (or the organiser's) act: they need ``notice_for``'s
# ``organiser`` to name the organiser as the players know them.
BY_ADMIN_KINDS = frozenset({"rollback", "rollback_proposed", "seat", *REASON_KINDS})
# The notices of a rollback that waits for every seated player's consent.
PROPOSAL_KINDS = {"rollback_proposed": "RollbackProposed", "rollback_declined": "RollbackDeclined"}
# The events whose mail names who acted in its intro (``mail.kinds``' ``{who}``).
_ACTS = {"rollback": "RolledBack", **REASON_KINDS}


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


def _names(loaded) -> list[str]:
    return [s.name for s in loaded.seats]


def acted_by(loaded, kind: str, organiser: Organiser | None = None) -> str | Phrase | None:
    """Who did the act a mail of ``kind`` opens with (its intro's ``{who}``); None for a kind
    whose intro names nobody.  "someone" when the act is not in the events (a mail made up
    for a test), so the intro still reads."""
    if kind not in _ACTS:
        return None
    event = _last(loaded.events, _ACTS[kind], loaded.seq)
    if event is None:
        return term("someone")
    return actor_name(event.actor, _names(loaded), organiser)


def notice_for(loaded, kind: str, seat: int | None,
               organiser: Organiser | None = None) -> list[Phrase]:
    """The notice's sentences for ``seat``, each a phrase to show on a line of its own.
    ``organiser``: the game's (``organisers.organiser_of``), so the players read who acted
    by the name they know; anyone else who acted is named by role, never by address."""
    if kind in REWIND_KINDS:
        event = _last(loaded.events, REWIND_KINDS[kind], loaded.seq)
        return _rewound(loaded, event, seat, organiser) if event else []
    if kind in REASON_KINDS:  # the intro says who acted; the reason is all that is left
        event = _last(loaded.events, REASON_KINDS[kind], loaded.seq)
        return _reason(event) if event else []
    if kind == "seat":
        return _seat_taken(loaded, seat, organiser)
    if kind in PROPOSAL_KINDS:
        event = _last(loaded.events, PROPOSAL_KINDS[kind], loaded.seq)
        return _proposal(loaded, event, organiser) if event else []
    return []


def consent_line(loaded, kind: str, play_url: str | None) -> list[Phrase]:
    """A proposal's mail asks its reader to answer, by the link to the consent page."""
    if kind != "rollback_proposed" or not play_url:
        return []
    event = _last(loaded.events, "RollbackProposed", loaded.seq)
    if event is None:
        return []
    return [phrase("Agree or decline here: {link}", link=f"{play_url}/rollback/{event.seq}")]


def _proposal(loaded, event, organiser: Organiser | None) -> list[Phrase]:
    """Who proposes going back where, whose moves it would take back and why; or, after a
    decline, who declined."""
    names = _names(loaded)
    if event.kind == "RollbackDeclined":
        return [phrase("{player} declined the rollback; nothing was taken back.",
                       player=actor_name(event.actor, names, organiser))]
    to_seq = event.payload["to_seq"]
    parts = [phrase("{who} proposes taking the game back to {point}.",
                    who=actor_name(event.actor, names, organiser),
                    point=back_to(loaded.events, to_seq, names))]
    undone = [e for e in effective_moves(loaded.events) if e.seq > to_seq]
    if undone:
        parts.append(undone_by(undone, names))
    return parts + _reason(event)


def _reason(event) -> list[Phrase]:
    """The reason as it was written (never translated: it is the admin's own words)."""
    reason = event.payload.get("reason")
    return [phrase("Reason: {reason}", reason=reason)] if reason else []


def _rewound(loaded, event, seat: int | None, organiser: Organiser | None) -> list[Phrase]:
    names = _names(loaded)
    who = actor_name(event.actor, names, organiser)
    to_seq = event.payload["to_seq"]
    parts = [phrase("The game was taken back to {point} by {who}.",
                    point=back_to(loaded.events, to_seq, names), who=who)]
    undone = undone_moves(loaded.events, event.seq)
    if undone:
        parts.append(undone_by(undone, names))
    own = [_said(e) for e in undone if e.payload.get("seat") == seat]
    if own:
        parts.append(counted("Your undone move: {moves}.", "Your undone moves: {moves}.",
                             len(own), moves=own))
    return parts + _reason(event)


def _said(move) -> str | Phrase:
    """A recorded move as its seat is shown it: its phrase, else its English label."""
    payload = move.payload
    return payload.get("say") or (term(payload["label"]) if payload.get("label")
                                  else term("a move"))


def _seat_taken(loaded, seat: int | None, organiser: Organiser | None) -> list[Phrase]:
    event = _last(loaded.events, "SeatReplaced", loaded.seq)
    if event is None or event.payload.get("seat") != seat:
        return []
    previous = event.payload.get("previous_name") or term("another player")
    return [phrase("You take over from {player} (set by {who}).", player=previous,
                   who=actor_name(event.actor, _names(loaded), organiser))]
