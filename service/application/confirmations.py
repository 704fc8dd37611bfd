"""What a confirmation names: the move the player themself submitted, never a later event.

A player's command does not stop at the player's move: bot seats act at once after it, in the
same unit of work, and their moves may be secret choices (Incan Gold's stay or leave before the
reveal).  So the newest event of the game is not "your move".  A confirmation -- the play
page's "Done: …", the JSON API's answer -- names the event this seat appended itself, found by
its actor, with the label or phrase the engine gave the action the player chose."""
from __future__ import annotations

from service.store.events import Event


def own_move(loaded, seat: int) -> Event | None:
    """The newest move this seat made itself (actor ``seat:N``) among the events the command
    read and appended; None if there is none (nothing to name)."""
    actor = f"seat:{seat}"
    for event in reversed(loaded.events.tail):
        if event.kind == "MoveMade" and event.actor == actor \
                and event.payload.get("seat") == seat:
            return event
    return None


def named(event: Event | None):
    """The move as a reader is told it: the engine's phrase when it gave one (shown in the
    reader's language), else its English label; None when there is nothing to name."""
    if event is None:
        return None
    return event.payload.get("say") or event.payload.get("label") or None
