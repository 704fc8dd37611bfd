"""What a seat sees, in one place, for both the play page and the mail.

Everything shown to a seat comes from ``engine.view(state, seat)`` and that seat's own legal
actions; nothing else of the state is ever handed to a template."""
from __future__ import annotations

from dataclasses import dataclass

from service.core.config import Settings
from service.core.pace import pace_label
from service.store.loading import Loaded
from service.core.tokens import make_secret


@dataclass(frozen=True)
class ActionLink:
    index: int
    code: str
    label: str | dict   # an engine phrase or an English label: show it with ``| tr``
    action: dict
    url: str


def secret_for(settings: Settings, loaded: Loaded, seat: int) -> str:
    return make_secret(settings.secret_key, loaded.row.id, seat, loaded.seats[seat].nonce)


def action_code(index: int) -> str:
    """Short codes for mail replies: A..Z, then AA, AB, ..."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def seat_context(settings: Settings, loaded: Loaded, seat: int | None) -> dict:
    game, state = loaded.game, loaded.state
    to_act = game.to_act(state)
    context = {
        "game_id": loaded.row.id,
        "game_name": game.name,
        "title": game.title,
        "seq": loaded.seq,
        "view": game.view(state, seat),
        "seat": seat,
        "seat_name": loaded.seats[seat].name if seat is not None else None,
        "players": [s.name for s in loaded.seats],
        "to_act": to_act,
        "to_act_names": [loaded.seats[s].name for s in to_act],
        "outcome": game.outcome(state),
        "breakdown": game.score_breakdown(state),  # where each final score came from
        "status": loaded.row.status,
        "pace": pace_label(loaded.row.pace),  # the organiser's pace, a catalog text or None
        "actions": [],
        "play_url": None,
    }
    if seat is not None:
        secret = secret_for(settings, loaded, seat)
        base = f"{settings.base_url}/play/{secret}"
        context["play_url"] = base
        context["secret"] = secret
        if loaded.row.status == "active" and seat in to_act:
            context["actions"] = [
                ActionLink(i, action_code(i), a.get("_say") or a.get("label") or str(a), a,
                           f"{base}/a/{loaded.seq}/{i}")
                for i, a in enumerate(game.legal_actions(state, seat))]
    return context


def subject(loaded: Loaded, language: str = "en") -> str:
    """Stable per game and reader, so every mail client threads it: "[Chasqui] Incan Gold — Ana,
    Ben" (the game's title in the reader's language: each reader's subject never changes)."""
    from service.view.i18n import translate

    return f"[Chasqui] {translate(language, loaded.game.title)} — {', '.join(s.name for s in loaded.seats)}"
