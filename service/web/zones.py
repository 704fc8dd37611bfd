"""Each player's time zone: deadlines are shown as an absolute time where the player lives.

Stored per seat beside the mail preferences (no row: UTC).  Set from the play page with a
POST; any IANA zone name is accepted."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from flask import Blueprint, flash, redirect, request, url_for
from flask_babel import gettext

from engine import IllegalAction
from engine.text import phrase
from service.web.extensions import services
from service.web.errors import told
from service.store.db import Session
from service.store.models import MailPreferenceRow
from service.application.moves import resolve_seat
from service.store.timekeeping import format_due, zone_of

UTC = "UTC"
COMMON = ("UTC", "Europe/London", "Europe/Berlin", "America/New_York", "America/Chicago",
          "America/Denver", "America/Los_Angeles", "America/Lima", "America/Sao_Paulo",
          "Asia/Shanghai", "Asia/Tokyo", "Asia/Kolkata", "Australia/Sydney")

bp = Blueprint("zones", __name__, url_prefix="/play")


def zone_name(session: Session, game_id: str, seat: int) -> str:
    return zone_of(session, game_id, seat)


def valid_zone(name) -> str:
    if not isinstance(name, str) or not name:
        raise IllegalAction(phrase("choose a time zone"))
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise IllegalAction(phrase("unknown time zone {zone}", zone=repr(name))) from None
    return name


def set_zone(session: Session, game_id: str, seat: int, name: str, now: datetime) -> None:
    name = valid_zone(name)
    row = session.get(MailPreferenceRow, (game_id, seat))
    if row is None:
        row = MailPreferenceRow(game_id=game_id, seat=seat, mode="every", updated_at=now)
        session.add(row)
    row.timezone, row.updated_at = name, now


def local_time(moment: datetime, name: str) -> str:
    return format_due(moment, name)


def zone_choices() -> list[str]:
    return list(COMMON) + sorted(available_timezones() - set(COMMON))


@bp.post("/<secret>/timezone")
def choose(secret: str):
    svc = services()
    try:
        with svc.db.unit_of_work() as session:
            game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
            set_zone(session, game_id, seat, request.form.get("timezone"), svc.clock())
    except IllegalAction as error:
        flash(gettext("Not done: %(error)s", error=told(error)), "error")
    else:
        flash(gettext("Your time zone is saved: deadlines are shown in it."), "ok")
    return redirect(url_for("play.page", secret=secret), 303)
