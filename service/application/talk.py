"""Table talk: a player's message to the table is a ``MessagePosted{seat, text}`` event (an
INFO event: it leaves every link fresh) and a "talk" mail to each other seat, in the game's
thread.  It comes from the play page's form or from a mail reply that is not a move code."""
from __future__ import annotations

from datetime import datetime

from engine import IllegalAction
from engine.text import phrase
from service.application.games import Owed, has_address, outbox_row
from service.core.validation import BadInput, bounded_text
from service.store import events as store
from service.store import preferences
from service.store import webhooks
from service.store.db import Session
from service.store.loading import load
from service.store.seats import game_seats
from service.store.table_talk import newest_messages

MAX_TEXT = 2000
RECENT = 20


def message_text(raw) -> str:
    """What a player wrote, as the table will read it: at most ``MAX_TEXT`` characters and no
    control character but line breaks and tabs -- refused with the limit stated, never cut
    (a message cut short says something its writer did not write).  Trailing spaces of each
    line and blank lines around it are dropped ("" is left for ``post_message`` to refuse)."""
    text = bounded_text(raw, phrase("the message"), MAX_TEXT)
    return "\n".join(line.rstrip() for line in text.split("\n")).strip()


def post_message(session: Session, game_id: str, seat: int, text: str, now: datetime,
                 domain: str, actor: str) -> tuple[int, Owed]:
    """Append MessagePosted and owe a "talk" mail to every other seat that has not turned
    its mail off.  Returns (the event's seq, what to dispatch after commit).  A text
    ``message_text`` refuses is an ``IllegalAction``, as every refusal of a command."""
    try:
        text = message_text(text)
    except BadInput as error:
        raise IllegalAction(error.say) from None
    if not text:
        raise IllegalAction(phrase("the message is empty"))
    for _attempt in range(5):  # other writers may take the next seq first: reload and retry
        loaded = load(session, game_id)
        if loaded.row.status == "abandoned":
            raise IllegalAction(phrase("this game was ended; the table is closed"))
        try:
            event = store.append(session, game_id, loaded.seq + 1, loaded.head_hash,
                                 "MessagePosted", {"seat": seat, "text": text}, actor, now)
        except store.Conflict:
            continue
        loaded.events.append(event)
        loaded.row.head_seq, loaded.row.updated_at = event.seq, now
        rows = [outbox_row(loaded, s, "talk", now, domain) for s in loaded.seats
                if s.seat != seat and has_address(s)
                and not preferences.mail_off(session, game_id, s.seat)]
        session.add_all(rows)
        session.flush()
        return event.seq, Owed([r.id for r in rows], webhooks.queue(
            session, loaded.row, event.seq, event.seq, "talk", now))
    raise store.Conflict(phrase("the game is busy; try again"))


def recent(session: Session, game_id: str, upto: int | None = None, limit: int = RECENT) -> list[dict]:
    """The newest messages (oldest first), as {seq, seat, name, text, at}."""
    events = newest_messages(session, game_id, upto, limit)
    names = {s.seat: s.name for s in game_seats(session, game_id)}
    return [{"seq": e.seq, "seat": e.payload.get("seat"), "name": names.get(e.payload.get("seat"), "?"),
             "text": e.payload.get("text", ""), "at": store.utc(e.recorded_at)}
            for e in reversed(events)]
