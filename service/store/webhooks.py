"""A game's webhooks and the posts owed to them (``webhook_outbox``).

A post is owed in the transaction of the events it tells of, as a mail is: ``queue`` writes
one row per hook that is on (and, for table talk, wants it), keyed by (hook, seq), so an
event reaches a hook once.  ``games.webhooks`` counts the hooks that are on; a game whose
count is 0 is not asked about hooks at all (the count is changed in the transaction that adds,
removes or switches off a hook, by ``UPDATE … SET webhooks = webhooks ± 1``, which two
concurrent changes cannot both miscount)."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import insert, literal, select, update
from sqlalchemy.orm import Session

from service.store.models import GameRow, WebhookDeliveryRow, WebhookPolicyRow, WebhookRow
from service.store.models import AccountRow, AdminRow, GameAdminRow, PendingGameRow

STYLES = ("discord", "slack", "matrix", "json")
# What a post tells of; "talk" goes only to the hooks that asked for table talk.
TOPICS = ("turn", "timeout", "vacation", "rollback", "talk", "end", "paused", "resumed")
MOST_HOOKS = 5  # per game: a channel or two, not a fan-out service


def queue(session: Session, game: GameRow, first_seq: int, seq: int, topic: str,
          now: datetime) -> list[int]:
    """The posts owed to the game's hooks for its events ``first_seq``..``seq``, written in
    the caller's transaction; their ids.  Nothing is read when the game has no hook on."""
    if not game.webhooks:
        return []
    hooks = WebhookRow.__table__
    chosen = select(hooks.c.id, literal(game.id), literal(seq), literal(first_seq),
                    literal(topic), literal("pending"), literal(0), literal(now),
                    literal(now)).where(hooks.c.game_id == game.id, hooks.c.status == "active")
    if topic == "talk":
        chosen = chosen.where(hooks.c.talk.is_(True))
    table = WebhookDeliveryRow.__table__
    result = session.execute(
        insert(table).from_select(("hook_id", "game_id", "seq", "first_seq", "topic", "status",
                                   "attempts", "next_attempt_at", "created_at"), chosen)
        .returning(table.c.id))
    return sorted(result.scalars())


def hooks_of(session: Session, game_id: str) -> list[WebhookRow]:
    return list(session.scalars(select(WebhookRow).where(WebhookRow.game_id == game_id)
                                .order_by(WebhookRow.id)))


def add(session: Session, game: GameRow, style: str, url: str, secret: str | None, talk: bool,
        language: str, added_by: str, now: datetime) -> WebhookRow:
    row = WebhookRow(game_id=game.id, style=style, url=url, secret=secret, talk=talk,
                     language=language, added_by=added_by, status="active", failures=0,
                     created_at=now)
    session.add(row)
    session.flush()
    _count(session, game.id, +1)
    return row


def remove(session: Session, hook: WebhookRow) -> None:
    """A removed hook's owed posts go with it: nothing more is sent to its URL."""
    session.execute(update(WebhookDeliveryRow)
                    .where(WebhookDeliveryRow.hook_id == hook.id,
                           WebhookDeliveryRow.status == "pending")
                    .values(status="cancelled", last_error="the hook was removed"))
    if hook.status == "active":
        _count(session, hook.game_id, -1)
    hook.status = "removed"
    session.flush()


def switch_off(session: Session, hook: WebhookRow, now: datetime) -> None:
    if hook.status != "active":
        return
    hook.status, hook.switched_off_at = "off", now
    _count(session, hook.game_id, -1)


def _count(session: Session, game_id: str, step: int) -> None:
    session.execute(update(GameRow).where(GameRow.id == game_id)
                    .values(webhooks=GameRow.webhooks + step)
                    .execution_options(synchronize_session="fetch"))


def players_may_add(session: Session, game_id: str) -> bool:
    row = session.get(WebhookPolicyRow, game_id)
    return bool(row and row.players_may_add)


def set_players_may_add(session: Session, game_id: str, allowed: bool, now: datetime) -> None:
    row = session.get(WebhookPolicyRow, game_id)
    if row is None:
        session.add(WebhookPolicyRow(game_id=game_id, players_may_add=allowed, updated_at=now))
    else:
        row.players_may_add, row.updated_at = allowed, now
    session.flush()


def lock_post(session: Session, post_id: int, wait: bool = False) -> WebhookDeliveryRow | None:
    """The row, locked for this delivery; None when it is gone, or held by another worker
    (``SKIP LOCKED``: that worker is claiming it).  ``wait``: wait for the lock instead, as
    recording a claimed post's outcome must (another worker holds the row only briefly)."""
    return session.scalars(select(WebhookDeliveryRow)
                           .where(WebhookDeliveryRow.id == post_id)
                           .with_for_update(skip_locked=not wait)).first()


def due_ids(session: Session, now: datetime, grace: timedelta = timedelta(seconds=60),
            limit: int = 200) -> list[int]:
    """Posts still owed whose time has come (a lost task, or a retry's backoff over).  The
    grace keeps the sweep from racing the task queued right after the commit, as for mail."""
    return list(session.scalars(
        select(WebhookDeliveryRow.id)
        .where(WebhookDeliveryRow.status == "pending",
               WebhookDeliveryRow.next_attempt_at <= now - grace)
        .order_by(WebhookDeliveryRow.id).limit(limit)))


def cancel_owed_posts(session: Session, hook_id: int, reason: str) -> None:
    """The hook's posts still owed cancelled, ``reason`` on each (its delivery switched the
    hook off): the rows already in the session show it too."""
    session.execute(update(WebhookDeliveryRow)
                    .where(WebhookDeliveryRow.hook_id == hook_id,
                           WebhookDeliveryRow.status == "pending")
                    .values(status="cancelled", last_error=reason)
                    .execution_options(synchronize_session="fetch"))


def last_post_error(session: Session, hook_id: int) -> str:
    """The error of the hook's post that failed most often (the newest of those): what the
    mail telling of a hook switched off quotes; "" when none failed."""
    return session.scalars(select(WebhookDeliveryRow.last_error)
                           .where(WebhookDeliveryRow.hook_id == hook_id,
                                  WebhookDeliveryRow.last_error.is_not(None))
                           .order_by(WebhookDeliveryRow.attempts.desc(),
                                     WebhookDeliveryRow.id.desc())).first() or ""


def told_of_switch_off(session: Session, game_id: str) -> list[str]:
    """Who is told of a hook switched off: the game's organiser, else its game admins."""
    organiser = session.scalars(
        select(AccountRow.email).join(PendingGameRow, PendingGameRow.organiser_id == AccountRow.id)
        .where(PendingGameRow.game_id == game_id)).first()
    if organiser:
        return [organiser]
    return list(session.scalars(
        select(AdminRow.email).join(GameAdminRow, GameAdminRow.admin_id == AdminRow.id)
        .where(GameAdminRow.game_id == game_id).order_by(AdminRow.id)))
