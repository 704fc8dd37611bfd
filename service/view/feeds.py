"""Atom feeds (RFC 4287): a game's public news, and a player's games.

Both are built from the public view only (``seat=None``): a move is told by what the public
view shows it did ("Dee left the temple with 7 gems", ``service.view.told``), never by its
label (which may name a secret choice), a timeout the same way, a rollback by the move it
went back to, table talk and vacations not at all (the spectator page shows
neither).  After each event an entry says whom the game waits for, or that it is over and who
won: the spectator page says the same.  The player's feed is the same news of each of their
games, and says when the game waits for them: less than their seat sees, because a feed reader
keeps its feeds on its own servers, where a secret would not stay one.

An entry's id is a tag URI (RFC 4151) of the service's host, the day the game began, the game
and the event's seq (and the seat, in a player's feed, whose entries say "your turn"): events
never change, so neither does the entry, and its ``updated`` is the event's recorded time.  An
entry links the game's story at its event (``/watch/<token>/history?step=<n>``), where the
board shows what every player could see right after it."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timezone


from engine.text import N_, phrase, term
from service.core.config import Settings
from service.core.tokens import spectate_token
from service.store import private_feeds
from service.store.db import Session
from service.store.events import utc
from service.store.history import REVEAL_EVENT
from service.store.loading import Loaded, NotFound, load
from service.store.preferences import seats_of
from service.view.told import sentences, told_events
from service.view.i18n import translate
from service.view import bot_levels
from service.view.actors import actor_name
from service.view.moments import back_to

log = logging.getLogger(__name__)

LATEST = 50          # entries of a game feed
LATEST_PER_GAME = 10  # entries per game of a player's feed
MOST_ENTRIES = 100    # entries of a player's feed
NO_NEWS = datetime(2026, 1, 1, tzinfo=timezone.utc)  # a feed with no entry was "updated" then


@dataclass(frozen=True)
class News:
    """One public event as a feed entry tells it (phrases: translated when rendered)."""
    game_id: str
    seq: int
    recorded_at: datetime
    title: dict
    summary: dict
    waiting_for: tuple[int, ...]


def _said(kind: str, event, names: list[str], words: list, events) -> dict | None:
    """What happened, in public words; None for an event the spectator is not told of.
    ``words``: what a move did, as ``told.told_events`` tells it; ``events``: the game's, to
    say whose move a rollback went back to."""
    p = event.payload

    def name(seat) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    if kind == "GameCreated":
        return phrase("The game began: {players}.", players=list(names))
    if kind == "MoveMade":
        return sentences(words) if words else phrase("{player} made a move.",
                                                      player=name(p.get("seat")))
    if kind == "TurnTimedOut":
        ran_out = (phrase("{player}'s time ran out; {bot} chose for them.",
                          player=name(p.get("seat")), bot=bot_levels.the_bot(p.get("level")))
                   if p.get("policy") == "bot" else
                   phrase("{player}'s time ran out; the game chose for them.",
                          player=name(p.get("seat"))))
        return sentences([ran_out, *words])
    if kind == "RolledBack":
        return phrase("The game was taken back to {point}.",
                      point=back_to(events, p.get("to_seq", 0), names))
    if kind == "Undone":
        return phrase("{player} took back a move.", player=actor_name(event.actor, names))
    if kind == "SeatReplaced":
        return phrase("{player} took over the seat of {previous}.", player=p.get("name", "?"),
                      previous=p.get("previous_name", "?"))
    if kind == "SeatBotted":
        template = (N_("{player}'s seat is played by {bot} from the start.")
                    if event.actor.startswith("organiser:")  # an empty seat filled at the start
                    else N_("{player}'s seat is now played by {bot}."))
        return phrase(template, player=p.get("name", "?"), bot=bot_levels.the_bot(p.get("level")))
    return EVENT_WORDS.get(kind)


def public_words(event, names: list[str], words: list, events) -> dict | None:
    """What ``event`` did in public words (its feed entry's title), or None for an event the
    feed leaves out; ``words`` as ``told.told_events`` gives them, ``events`` the game's."""
    return _said(event.kind, event, names, words, events)


EVENT_WORDS = {"GamePaused": phrase("The game was paused."),
               "GameResumed": phrase("The game goes on again."),
               "GameAbandoned": phrase("The game was abandoned."),
               REVEAL_EVENT: phrase("The game is over.")}


def _where_it_stands(game, state, names: list[str], active: bool) -> tuple[dict, tuple[int, ...]]:
    outcome = game.outcome(state)
    if outcome is not None:
        winners = [names[s] for s in outcome.get("winners", []) if 0 <= s < len(names)]
        return phrase("The game is over. Won by {names}.", names=winners), ()
    waiting = tuple(game.to_act(state)) if active else ()
    return phrase("Waiting for {names}.", names=[names[s] for s in waiting]), waiting


# A paused or abandoned game waits for nobody, whatever the state's turn says.
STOPS = {"GamePaused": True, "GameAbandoned": True, "GameResumed": False}


def game_news(loaded: Loaded, latest: int) -> list[News]:
    """The game's ``latest`` public news, newest first."""
    game, names = loaded.game, [s.name for s in loaded.seats]
    news: list[News] = []
    stopped = False
    for event, state, words in told_events(loaded):
        stopped = STOPS.get(event.kind, stopped)
        title = _said(event.kind, event, names, words, loaded.events)
        if title is None:
            continue
        summary, waiting = _where_it_stands(game, state, names, not stopped)
        news.append(News(loaded.row.id, event.seq, event.recorded_at, title, summary, waiting))
    return news[::-1][:latest]


def tag(domain: str, began: datetime, *parts) -> str:
    """A tag URI (RFC 4151): ``tag:<host>,<day>:<path>``."""
    return f"tag:{domain},{began.date().isoformat()}:" + "/".join(str(p) for p in parts)


def game_title(loaded: Loaded) -> dict:
    return term(loaded.game.title)


def _rfc3339(moment: datetime) -> str:
    return utc(moment).isoformat().replace("+00:00", "Z")


def _watch_url(settings: Settings, game_id: str) -> str:
    return f"{settings.base_url}/watch/{spectate_token(settings.secret_key, game_id)}"


def _entry(settings: Settings, loaded: Loaded, item: News, language: str, entry_id: str,
           title, extra=None) -> dict:
    summary = translate(language, item.summary)
    if extra is not None:
        summary = f"{summary} {translate(language, extra)}"
    return {"id": entry_id, "title": translate(language, title), "summary": summary,
            "updated": _rfc3339(item.recorded_at),
            "link": f"{_watch_url(settings, loaded.row.id)}/history?step={item.seq}",
            "when": utc(item.recorded_at)}


def _began(loaded: Loaded) -> datetime:
    return utc(loaded.events[0].recorded_at)


def game_feed(settings: Settings, loaded: Loaded, language: str, self_url: str) -> dict:
    """The template's context of a game's feed (``templates/feeds/atom.xml``)."""
    domain, began = settings.mail_domain, _began(loaded)
    entries = [_entry(settings, loaded, item, language,
                      tag(domain, began, "game", loaded.row.id, "event", item.seq), item.title)
               for item in game_news(loaded, LATEST)]
    return {"feed": {"id": tag(domain, began, "game", loaded.row.id),
                     "title": f"{translate(language, game_title(loaded))} — "
                              f"{', '.join(s.name for s in loaded.seats)}",
                     "updated": entries[0]["updated"] if entries else _rfc3339(began),
                     "self_url": self_url, "alternate_url": _watch_url(settings, loaded.row.id)},
            "entries": entries, "language": language}


def loaded_games(session: Session, address: str) -> list[tuple[Loaded, int]]:
    """(game, seat) of every seat of the address whose game loads (one that cannot be
    replayed hides only itself, as in "my games")."""
    found = []
    for seat in seats_of(session, address):
        try:
            found.append((load(session, seat.game_id), seat.seat))
        except (NotFound, ValueError):
            continue
        except Exception:  # noqa: BLE001 - one broken game must not take the feed down
            log.exception("game %s left out of a player's feed: it could not be loaded",
                          seat.game_id)
    return found


def player_feed(settings: Settings, games: list[tuple[Loaded, int]], address: str,
                language: str, self_url: str) -> dict:
    """The template's context of a player's games feed: each game's latest news, newest
    first, with "your turn" where the game waited for the player's seat."""
    entries = []
    for loaded, seat in games:
        began, title = _began(loaded), game_title(loaded)
        for item in game_news(loaded, LATEST_PER_GAME):
            entries.append(_entry(
                settings, loaded, item, language,
                tag(settings.mail_domain, began, "game", loaded.row.id, "seat", seat,
                    "event", item.seq),
                phrase("{game}: {news}", game=title, news=item.title),
                phrase("It is your turn.") if seat in item.waiting_for else None))
    entries.sort(key=lambda e: e["when"], reverse=True)
    feed_id = private_feeds.feed_id(settings.secret_key, address)
    return {"feed": {"id": f"tag:{settings.mail_domain},2026-01-01:player/{feed_id}",
                     "title": translate(language, phrase("Your games — Chasqui")),
                     "updated": entries[0]["updated"] if entries else _rfc3339(NO_NEWS),
                     "self_url": self_url, "alternate_url": settings.base_url + "/"},
            "entries": entries[:MOST_ENTRIES], "language": language}
