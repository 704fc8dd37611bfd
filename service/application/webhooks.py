"""A game's chat channel: adding and removing its webhooks, and who may.

The organiser of a game (and its admins) may add and remove its hooks, and may let its
seated players add them too; a player may remove only the hooks they added.  A URL is
checked when it is saved (``webhook_guard.checked``: https, public addresses only) and again
before every post.  A "json" hook gets a secret for its signature, shown once: to the one who
added it, in the answer to the form that added it."""
from __future__ import annotations

import secrets
from datetime import datetime
from urllib.parse import urlsplit

from engine import IllegalAction
from engine.text import phrase
from service.mail.webhook_guard import checked
from service.store import webhooks as store
from service.store.db import Session
from service.store.loading import NotFound, game_row
from service.store.models import WebhookRow

ORGANISER = "organiser"


def seat_actor(seat: int) -> str:
    return f"seat:{seat}"


def add(session: Session, settings, game_id: str, style: str, url: str, talk: bool,
        language: str, added_by: str, now: datetime) -> tuple[WebhookRow, str | None]:
    """A new hook, and its secret when it has one (the only time it is shown)."""
    game = game_row(session, game_id)
    if style not in store.STYLES:
        raise IllegalAction(phrase("the webhook's format must be one of: {styles}",
                                   styles=list(store.STYLES)))
    if game.status in ("finished", "abandoned"):
        raise IllegalAction(phrase("the game is over; its channel gets no more news"))
    checked(url, settings.webhook_http_hosts)  # UnsafeTarget: a 400, nothing stored
    if game.webhooks >= store.MOST_HOOKS:
        raise IllegalAction(phrase("a game has at most {n} webhooks", n=store.MOST_HOOKS))
    secret = secrets.token_urlsafe(32) if style == "json" else None
    return store.add(session, game, style, url, secret, bool(talk), language, added_by,
                     now), secret


def remove(session: Session, game_id: str, hook_id: int, by: str) -> None:
    """Remove a hook of the game: any by the organiser (``by`` "organiser"), a player's own
    only by that seat."""
    hook = session.get(WebhookRow, hook_id)
    if hook is None or hook.game_id != game_id or hook.status == "removed":
        raise NotFound(phrase("no such webhook"))
    if by != ORGANISER and hook.added_by != by:
        raise IllegalAction(phrase("only the organiser or the player who added a webhook may "
                                   "remove it"))
    store.remove(session, hook)


def shown(session: Session, game_id: str) -> list[dict]:
    """The game's hooks as a page lists them: never a secret, and of the URL only its host
    (a Discord or Slack webhook URL is itself a credential)."""
    return [{"id": h.id, "style": h.style, "host": urlsplit(h.url).hostname or "?",
             "talk": h.talk, "status": h.status, "added_by": h.added_by,
             "failures": h.failures}
            for h in store.hooks_of(session, game_id) if h.status != "removed"]
