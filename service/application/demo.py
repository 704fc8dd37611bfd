"""The embedded default's demo goes through the organiser flow too: Ana organises a game,
takes a seat and invites Ben, Cai and Dee; the invitation mails land in the local mailbox.

By default the demo then accepts on the demo players' behalf, so ``./chasqui run`` ends
with a started game and its play links -- what a new user wants to see first -- while the
mailbox still shows every invitation and start mail.  ``--no-accept`` leaves the
invitations open and prints their links instead, to try accepting by hand."""
from __future__ import annotations

from dataclasses import dataclass, field

from service.application import invitations
from service.core import row_links

from service.mail import mailer

from service.application import sign_in
from service.store.loading import load
from service.store.models import PendingGameRow
from service.view.presenter import secret_for


@dataclass
class DemoResult:
    pending_id: str
    organiser: str
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
        tokens = [(i.name, row_links.invitation_token(settings, i)) for i in rows]
        result = DemoResult(pending.id, organiser_email)
    mailer.dispatch(svc, mail_ids)
    if not accept:
        result.invitation_links = [(name, f"{settings.base_url}/invite/{token}")
                                   for name, token in tokens]
        return result
    for _, token in tokens:
        with svc.db.unit_of_work() as session:
            _, outcome = invitations.respond(session, settings, token, True, False, now)
        if outcome is not None:
            svc.dispatch(outcome.outbox_ids)
    with svc.db.reading() as session:
        result.game_id = session.get(PendingGameRow, result.pending_id).game_id
        loaded = load(session, result.game_id)
        result.play_links = [
            (s.name, f"{settings.base_url}/play/{secret_for(settings, loaded, s.seat)}")
            for s in loaded.seats]
    return result
