"""Limits against abuse.

Two limits are counted in the database, so they hold across every web process and restart:
sign-in (and lobby join) mails per address per hour, and invitations per organiser per day.
Both answer 429 with a message saying which limit and when it frees up.
The rate limits per client address (Flask-Limiter) are in ``service.web.limits``."""
from __future__ import annotations

from datetime import datetime, timedelta

from engine.text import phrase
from service.store.db import Session
from service.store.quotas import invitations_by_since, mails_to_since
from service.core.refusals import Refusal

ADDRESS_WINDOW = timedelta(hours=1)
ORGANISER_WINDOW = timedelta(days=1)
UNSOLICITED_KINDS = ("sign_in", "join")


class TooMany(Refusal):
    """A counted limit is reached; nothing was changed.  Answered with 429."""


def check_address(session: Session, address: str, now: datetime, per_hour: int) -> None:
    """Sign-in links and lobby join confirmations to one address: at most ``per_hour`` an
    hour (both are mail a stranger can make us send to someone)."""
    sent = mails_to_since(session, address, UNSOLICITED_KINDS, now - ADDRESS_WINDOW)
    if sent >= per_hour:
        raise TooMany(phrase("{address} was sent {count} sign-in or confirmation mails in the last "
                             "hour (the limit is {limit}); use one of them or try again in an hour",
                             address=address, count=sent, limit=per_hour))


def check_organiser(session: Session, organiser_id: int, now: datetime, per_day: int,
                    adding: int) -> None:
    """Invitations an organiser sends: at most ``per_day`` in any 24 hours."""
    sent = invitations_by_since(session, organiser_id, now - ORGANISER_WINDOW)
    if sent + adding > per_day:
        raise TooMany(phrase("you sent {count} invitations in the last 24 hours and the limit is "
                             "{limit}; these {adding} would go over it, so none was sent. "
                             "Try again tomorrow", count=sent, limit=per_day, adding=adding))

