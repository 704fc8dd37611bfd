"""A player's deadlines as an iCalendar feed (RFC 5545), built with ``icalendar``.

One VEVENT per open decision, at its timeout, in UTC.  Its UID is a digest of the game, the
seat, the decision and when it opened, so a calendar app that fetches the feed again updates
the event it has instead of adding another, and drops it once the decision is answered (the
feed is the whole list each time).  The event has no DTEND: RFC 5545 (3.6.1) says an event
whose DTSTART is a date-time and that has neither DTEND nor DURATION ends when it starts,
which is what a deadline is (a DTEND must be later than DTSTART, so it cannot say "at the
deadline" itself).

An alarm per reminder mark of the game's clock (``reminder_hours``), relative to the deadline,
as the reminder mails go out; a mark that falls before the decision opened is left out, as
no mail is sent for it either.

Why the event links the game's public spectator page and never the seat's play page: a
calendar feed is subscribed to by calendar services, which keep it on their servers, and is
often shared (a family calendar, a team's); a play link in it would let any of them move for
the player.  The spectator page shows only what everyone may see."""
from __future__ import annotations

import hashlib
from datetime import timedelta

from icalendar import Alarm, Calendar, Event

from engine import get_game
from engine.text import phrase, term
from service.core.config import Settings
from service.core.tokens import spectate_token
from service.store.private_feeds import OpenDecision
from service.view.i18n import translate

PRODID = "-//Chasqui//deadlines//EN"


def event_uid(decision: OpenDecision, domain: str) -> str:
    """Stable while the decision is open, new for the next one; names nothing of the game's
    state (a decision key may say what is being decided)."""
    text = "\x00".join((decision.game_id, str(decision.seat), decision.decision_key,
                        decision.started_at.isoformat()))
    return f"{hashlib.sha256(text.encode()).hexdigest()[:32]}@{domain}"


def reminder_marks(decision: OpenDecision) -> list[float]:
    """The reminder marks (hours before the deadline) that fall after the decision opened."""
    return [hours for hours in decision.reminder_hours
            if decision.due_at - timedelta(hours=hours) > decision.started_at]


def calendar(settings: Settings, decisions: list[OpenDecision], language: str) -> bytes:
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", translate(language, phrase("Chasqui: your deadlines")))
    for decision in decisions:
        cal.add_component(_event(settings, decision, language))
    return cal.to_ical()


def _event(settings: Settings, decision: OpenDecision, language: str) -> Event:
    title = term(get_game(decision.game).title)
    summary = translate(language, phrase("{game}: your turn", game=title))
    event = Event()
    event.add("uid", event_uid(decision, settings.mail_domain))
    event.add("dtstamp", decision.started_at)
    event.add("dtstart", decision.due_at)
    event.add("summary", summary)
    event.add("description", translate(language, phrase(
        "Your move in {game} is due. Players: {players}. Open your turn mail to move.",
        game=title, players=list(decision.players))))
    event.add("url", f"{settings.base_url}/watch/"
                     f"{spectate_token(settings.secret_key, decision.game_id)}")
    event.add("transp", "TRANSPARENT")  # a deadline does not make the player busy
    for hours in reminder_marks(decision):
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", summary)
        alarm.add("trigger", timedelta(hours=-hours))
        event.add_component(alarm)
    return event
