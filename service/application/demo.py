"""The embedded default's demo goes through the organiser flow too: Ana organises a game,
takes a seat and invites Ben, Cai and Dee; the invitation mails land in the local mailbox.

By default the demo then accepts on the demo players' behalf, so ``./chasqui run`` ends
with a started game and its play links -- what a new user wants to see first -- while the
mailbox still shows every invitation and start mail.  ``--no-accept`` leaves the
invitations open and prints their links instead, to try accepting by hand.  ``demo_again``
finds the newest demo and its links once more (``./chasqui links``, a second ``./chasqui run``)."""
from __future__ import annotations

from dataclasses import dataclass, field

from service.application import invitations
from service.core import row_links

from service.mail import mailer

from service.application import sign_in
from service.store.loading import load
from service.store.models import PendingGameRow
from service.store.organisers import newest_pending_of
from service.view.presenter import secret_for


DEMO_PLAYERS = [("Ana", "ana@example.com"), ("Ben", "ben@example.com"),
                ("Cai", "cai@example.com"), ("Dee", "dee@example.com")]


@dataclass
class DemoResult:
    pending_id: str
    organiser: str
    game: str = ""
    game_id: str | None = None
    play_links: list[tuple[str, str]] = field(default_factory=list)
    invitation_links: list[tuple[str, str]] = field(default_factory=list)


def create_demo(svc, game: str, players: list[tuple[str, str]], accept: bool = True) -> DemoResult:
    settings, now = svc.settings, svc.clock()
    (organiser_name, organiser_email), invitees = players[0], players[1:]
    with svc.db.unit_of_work() as session:
        organiser = sign_in.account_for(session, organiser_email, now, organiser_name)
        draft = invitations.Draft(
            game=game, players=len(players), options={}, clock={}, language="en",
            seat_order="as_entered", open=False, organiser_name=organiser_name,
            organiser_seat=True, invitees=list(invitees))
        pending, mail_ids, _ = invitations.create_pending(session, settings, organiser, draft, now)
        rows = [i for i in invitations.invitations_of(session, pending.id) if i.via == "invite"]
        tokens = _links(settings, rows)
        pending_id = pending.id
    mailer.dispatch(svc, mail_ids)
    for token in tokens if accept else ():
        with svc.db.unit_of_work() as session:
            _, outcome = invitations.respond(session, settings, token, True, False, now)
        if outcome is not None:
            svc.dispatch_owed(outcome.owed)
    with svc.db.reading() as session:
        return _with_links(session, settings, session.get(PendingGameRow, pending_id),
                           organiser_email)


def demo_again(svc, organiser_email: str = DEMO_PLAYERS[0][1]) -> DemoResult | None:
    """The newest game the demo's organiser set up, with its links as the demo printed them
    (play links once it started, else the open invitations' links); None without a demo."""
    with svc.db.reading() as session:
        pending = newest_pending_of(session, organiser_email)
        return None if pending is None else _with_links(session, svc.settings, pending,
                                                        organiser_email)


def _with_links(session, settings, pending: PendingGameRow, organiser: str) -> DemoResult:
    result = DemoResult(pending.id, organiser, pending.game, game_id=pending.game_id)
    if pending.game_id is None:
        rows = [i for i in invitations.invitations_of(session, pending.id)
                if i.via == "invite" and i.status == "pending"]
        result.invitation_links = [(i.name, f"{settings.base_url}/invite/{token}")
                                   for i, token in zip(rows, _links(settings, rows))]
        return result
    loaded = load(session, pending.game_id)
    result.play_links = [
        (s.name, f"{settings.base_url}/play/{secret_for(settings, loaded, s.seat)}")
        for s in loaded.seats]
    return result


def _links(settings, rows: list) -> list[str]:
    """The link texts of invitation ``rows``, as each invitee's mail carries them."""
    return [row_links.token(settings.secret_key, row_links.INVITATION_SALT, i) for i in rows]
