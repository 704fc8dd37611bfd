"""A rollback that needs every seated person's consent.

A reshuffle hides what nobody has seen, but not what the rolled-back moves showed: a card
played from a hand (back in that hand after the rollback), a secret choice that was revealed.
So in a game that reshuffles at rewinds, an admin's rollback whose span made something known
(the engine's ``epoch`` differs between the target and the head) is only a proposal,
``RollbackProposed{to_seq, reason, proposal}`` with ``proposal`` its own seq.  Each seat held
by a person answers: ``RollbackConsented{proposal, seat}`` or ``RollbackDeclined{proposal,
seat}``, by ``seat:N``.  The last consent appends ``RolledBack{to_seq, reason, proposal}`` by
the proposing admin, in the same unit of work.  None of these events changes the state, so
the game goes on meanwhile; a proposal is stale (no answer is taken) once anything but table
talk, a vacation or a consent to it was recorded after it: a move, a timeout, a rollback, an
undo, a seat change, a pause, the end, or a decline."""
from __future__ import annotations

from datetime import datetime

from engine import IllegalAction
from engine.text import phrase
from service.application import admin_commands
from service.application.games import Outcome, Owed, outbox_row, queue_mail
from service.store.db import Session
from service.store.events import Conflict, Event
from service.store.history import consents_to, reshuffles
from service.store.loading import Loaded, load

PROPOSED, CONSENTED, DECLINED = "RollbackProposed", "RollbackConsented", "RollbackDeclined"


def rollback(session: Session, game_id: str, to_seq, reason, actor: str, now: datetime,
             domain: str, expected_seq=None) -> Outcome:
    """An admin's rollback to ``to_seq``: at once (``admin_commands.roll_back``), or, when
    its span made something known in a game that reshuffles, as a proposal."""
    loaded, text = admin_commands.checked_rollback(session, game_id, to_seq, reason,
                                                   expected_seq)
    if needs_consent(session, loaded, to_seq):
        return propose(session, loaded, to_seq, text, actor, now, domain)
    return admin_commands.roll_back(session, loaded, {"to_seq": to_seq, "reason": text}, actor,
                                    now, domain)


def needs_consent(session: Session, loaded: Loaded, to_seq: int) -> bool:
    """Whether rolling back to ``to_seq`` would take back moves that made something known."""
    if not reshuffles(loaded.first):
        return False
    target = load(session, loaded.row.id, upto=to_seq, seats=loaded.seats)
    return target.state.get("epoch") != loaded.state.get("epoch")


def people(loaded: Loaded) -> list[int]:
    """The seats held by a person (not a bot): those whose consent a proposal needs."""
    return [row.seat for row in loaded.seats if not row.bot]


def propose(session: Session, loaded: Loaded, to_seq: int, reason: str, actor: str,
            now: datetime, domain: str) -> Outcome:
    """Record the proposal and mail each seated person the question."""
    payload = {"to_seq": to_seq, "reason": reason, "proposal": loaded.seq + 1}
    admin_commands.append_event(session, loaded, PROPOSED, payload, actor, now)
    return Outcome(loaded.seq, _tell(session, loaded, "rollback_proposed", now, domain), loaded)


def proposed(outcome: Outcome) -> bool:
    """Whether a rollback command only proposed (its last event is the proposal)."""
    return outcome.loaded is not None and outcome.loaded.head.kind == PROPOSED


def answer(session: Session, game_id: str, proposal, seat: int, agree: bool, now: datetime,
           domain: str) -> Outcome:
    """Record seat ``seat``'s answer to ``proposal``; the last consent rolls the game back."""
    loaded = load(session, game_id)
    proposed, consents = open_proposal(loaded, proposal)
    if seat not in people(loaded):
        raise IllegalAction(phrase("only a seated player is asked about this rollback"))
    if seat in consents:
        raise Conflict(phrase("you already agreed to this rollback"))
    if not agree:
        admin_commands.append_event(session, loaded, DECLINED,
                                    {"proposal": proposal, "seat": seat}, f"seat:{seat}", now)
        return Outcome(loaded.seq, _tell(session, loaded, "rollback_declined", now, domain))
    admin_commands.append_event(session, loaded, CONSENTED, {"proposal": proposal, "seat": seat},
                                f"seat:{seat}", now)
    if set(people(loaded)) - consents - {seat}:
        return Outcome(loaded.seq, queue_mail(session, loaded, None, now, domain))
    payload = {"to_seq": proposed.payload["to_seq"], "reason": proposed.payload["reason"],
               "proposal": proposal}
    return admin_commands.roll_back(session, loaded, payload, proposed.actor, now, domain)


def open_proposal(loaded: Loaded, proposal) -> tuple[Event, set[int]]:
    """The proposal event and the seats that agreed so far; 409 when it is stale."""
    if not isinstance(proposal, int) or isinstance(proposal, bool) \
            or not 1 < proposal <= loaded.seq:
        raise IllegalAction(phrase("no such rollback proposal in this game"))
    since = loaded.events.since(proposal - 1)
    if since[0].kind != PROPOSED:
        raise IllegalAction(phrase("no such rollback proposal in this game"))
    consents = consents_to(proposal, since[1:])
    if consents is None:
        raise Conflict(phrase("this rollback proposal is closed: the game moved on, or a "
                              "player declined, after it was made"))
    return since[0], consents


def _tell(session: Session, loaded: Loaded, kind: str, now: datetime, domain: str) -> Owed:
    """Mail every seated person ``kind``; links stay fresh (nothing changed the state)."""
    rows = [outbox_row(loaded, loaded.seats[seat], kind, now, domain) for seat in people(loaded)]
    session.add_all(rows)
    session.flush()
    return Owed([row.id for row in rows]) + queue_mail(session, loaded, None, now, domain)
