"""Who already sits at a table that is filling up, each by name with their record
(``service.store.reliability``): what the lobby and an invitation show a player deciding
whether to join.  Records are looked up by address, but only names leave this module: a
page never learns an address it could show."""
from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from service.application import invitations
from service.store import reliability
from service.store.db import Session
from service.store.models import AccountRow, InvitationRow, PendingGameRow


class Shown(NamedTuple):
    name: str
    record: reliability.Record


class Table(NamedTuple):
    organiser: Shown
    seated: list[Shown]  # accepted seats other than the organiser's own, in seat order


def tables(session: Session, pendings: list[PendingGameRow],
           now: datetime) -> dict[str, Table]:
    """Per pending game id: its organiser and the players who accepted a seat."""
    accepted = {p.id: [i for i in invitations.invitations_of(session, p.id)
                       if invitations.state_of(i, now) == "accepted" and i.via != "organiser"]
                for p in pendings}
    organisers = {p.id: session.get(AccountRow, p.organiser_id).email for p in pendings}
    known = reliability.records(
        session, [*organisers.values(), *(i.email for rows in accepted.values() for i in rows)])
    return {p.id: Table(Shown(p.organiser_name, known[organisers[p.id]]),
                        [Shown(i.name, known[i.email]) for i in accepted[p.id]])
            for p in pendings}


def invited(session: Session, pending: PendingGameRow,
            rows: list[InvitationRow]) -> tuple[Shown, list[reliability.Record]]:
    """An invitation page's organiser, and the record of each of ``rows`` (the others invited),
    in their order."""
    organiser = session.get(AccountRow, pending.organiser_id).email
    known = reliability.records(session, [organiser, *(i.email for i in rows)])
    return Shown(pending.organiser_name, known[organiser]), [known[i.email] for i in rows]
