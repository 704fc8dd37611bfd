"""What a webhook post says: the public news of its events, whom the game waits for and
until when, and the spectator link.

Built from the public view only, as the game's Atom feed is (``service.view.feeds``): a move
is told by what the public view shows it did ("Dee left the temple with 7 gems"), never by
what a seat chose in secret; no seat's link, secret or private view.  Table
talk (for a hook that asked for it) and vacations are told too: every seat reads them, and
the channel is the table's.  A pure function of the post's row and the game at its seq, so a
retry says the same."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.text import phrase, term
from service.core.tokens import spectate_token
from service.mail.compose import deadlines_for
from service.store.events import utc
from service.store.loading import Loaded
from service.view.feeds import game_news
from service.view.i18n import translate

MOST_NEWS = 10  # lines of one post; a long catch-up keeps its newest


@dataclass(frozen=True)
class Notice:
    """One post's content, in the hook's language."""
    game_id: str
    seq: int
    topic: str
    game_title: str
    news: list[str]
    standing: str
    waiting: list[dict]  # {"player", "due" (UTC datetime or None), "due_text"}
    finished: bool
    watch_url: str
    at: datetime


def _seat_news(event, names: list[str], topic: str):
    """The table's own events the feed does not tell: talk (when the hook wants it) and
    vacations."""
    seat = event.payload.get("seat")
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    if event.kind == "MessagePosted" and topic == "talk":
        return phrase("{player} said: {text}", player=name, text=event.payload.get("text", ""))
    if event.kind == "VacationStarted":
        return phrase("{player} is on vacation: their clock is stopped.", player=name)
    if event.kind == "VacationEnded":
        return phrase("{player} is back from vacation: their clock runs again.", player=name)
    return None


def notice(session, settings, loaded: Loaded, first_seq: int, topic: str,
           language: str) -> Notice:
    """The notice of ``loaded`` (the game at the post's seq) for its events from
    ``first_seq``."""
    names = [s.name for s in loaded.seats]
    news = game_news(loaded, loaded.seq)  # newest first; GameCreated's at least
    feed = {item.seq: item.title for item in news}
    lines = []
    for event in loaded.since(first_seq - 1):
        said = feed.get(event.seq) or _seat_news(event, names, topic)
        if said is not None:
            lines.append(translate(language, said))
    standing, waiting = news[0].summary, news[0].waiting_for  # talk and vacations change neither
    due = {seat: utc(moment) for seat, moment in
           deadlines_for(session, loaded, [loaded.seats[s] for s in waiting]).items()
           if moment is not None}
    return Notice(
        game_id=loaded.row.id, seq=loaded.seq, topic=topic,
        game_title=translate(language, term(loaded.game.title)), news=lines[-MOST_NEWS:],
        standing=translate(language, standing),
        waiting=[{"player": names[s], "due": due.get(s),
                  "due_text": None if due.get(s) is None else
                  translate(language, phrase("{player} has until {when}", player=names[s],
                                             when=utc(due[s]).strftime("%Y-%m-%d %H:%M UTC")))}
                 for s in waiting],
        finished=loaded.game.outcome(loaded.state) is not None,
        watch_url=f"{settings.base_url}/watch/{spectate_token(settings.secret_key, loaded.row.id)}",
        at=utc(loaded.head.recorded_at))
