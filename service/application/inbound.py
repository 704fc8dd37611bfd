"""What a reply does.  One entry point, ``handle``, for the listener and the webhook.

1. The recipient ``play+<token>@…`` names the seat; the token (see ``address.py``) is what
   authorises.  A bad token, or a From that is not the seat's address (unless the game says
   ``options.mail.accept_any_sender``), is refused and recorded, and nobody gets an answer:
   a forger must learn nothing, and we must not mail a stranger.
2. Auto-replies (Auto-Submitted, Precedence: bulk…) are recorded and ignored: no mail loops.
3. The mail's Message-ID is claimed in ``inbound_mail`` first, so the same mail delivered twice
   acts once.
4. The first line of the player's own words (quotes and signature stripped) is matched against
   the actions that the answered mail listed (the mail's seq comes from In-Reply-To /
   References): a code ("B") or a label, case-insensitive.  The move is then made exactly as
   the link makes it, by ``service.application.moves.make_move`` with that seq, so a stale mail, an illegal
   move or a double answer is refused the same way.  Anything else is words for the table.
5. The player gets a "reply_ok" or "reply_error" mail; table talk reaches the other seats."""
from __future__ import annotations

import logging

from engine import IllegalAction
from engine.text import phrase
from service.store import preferences
from service.store.loading import NotFound, load
from service.application.games import StaleMove, is_fresh
from service.application.stale import RACE_LOST, why_stale
from service.view.i18n import N_, translate
from service.mail.reply_address import BadReplyToken, split_token, token_in, token_matches
from service.mail.inbound_parse import Reply, match_action, parse, replied_seq
from service.store.db import Duplicate
from service.store.models import EventRow, GameRow, InboundMailRow, OutboxRow, SeatRow
from service.view.presenter import action_code
from service.store.events import Conflict, last_seq
from service.core.tokens import BadSecret, make_secret

log = logging.getLogger(__name__)


def handle(svc, raw: bytes, envelope_recipients: list[str] | None = None) -> str:
    """Process one received mail; returns what became of it ("moved", "talk", "error",
    "refused", "ignored", "duplicate", "no-recipient")."""
    reply = parse(raw)
    token = token_in(list(envelope_recipients or []) + reply.recipients,
                     svc.settings.inbound_address)
    if token is None:
        return "no-recipient"
    now = svc.clock()
    with svc.db.unit_of_work() as session:
        record = InboundMailRow(message_id=reply.message_id, from_addr=reply.from_addr[:254],
                                status="received", detail="", received_at=now)
        try:
            with session.begin_nested():
                session.add(record)
                session.flush()
        except Duplicate:
            return "duplicate"
        verdict = _authorise(session, svc, record, reply, token)
        if verdict is not None:
            log.info("inbound %s %s: %s", reply.message_id, verdict, record.detail)
            return verdict
        loaded = load(session, record.game_id)
        seat = record.seat
        seat_row = loaded.seats[seat]
        secret = make_secret(svc.settings.secret_key, record.game_id, seat, seat_row.nonce)
        language = preferences.language_of(session, record.game_id, seat)
        seq = replied_seq(reply, record.game_id, seat)
        offered = _offered(session, record.game_id, seat, seq, loaded.seq, language)
        closed = seq is not None and (not 0 < seq <= loaded.seq
                                      or loaded.row.status in ("finished", "abandoned"))
        refused = why_stale(loaded, seat, seq) if closed else None
        inbound_id = record.id
    return _act(svc, inbound_id, record.game_id, seat, secret, reply, seq, offered, refused)


def _authorise(session, svc, record: InboundMailRow, reply: Reply, token: str) -> str | None:
    try:
        game_id, seat, mac = split_token(token)
    except BadReplyToken:
        record.status, record.detail = "refused", "not a reply address of ours"
        return "refused"
    record.game_id, record.seat = game_id[:32], seat
    seat_row = session.get(SeatRow, (game_id, seat))
    if seat_row is None or not token_matches(svc.settings.secret_key, game_id, seat,
                                             seat_row.nonce, mac):
        record.status, record.detail = "refused", "forged or revoked reply address"
        return "refused"
    if reply.automatic:
        record.status, record.detail = "ignored", "an automatic mail (auto-reply or bounce)"
        return "ignored"
    events_created = _game_created(session, game_id)
    accept_any = bool((events_created.get("mail") or {}).get("accept_any_sender", False))
    if not accept_any and reply.from_addr != preferences.normal_address(seat_row.email):
        record.status = "refused"
        record.detail = f"sender {reply.from_addr!r} is not the seat's address"
        return "refused"
    return None


def _game_created(session, game_id: str) -> dict:
    row = session.get(EventRow, (game_id, 1))
    return row.payload if row is not None else {}


def _offered(session, game_id: str, seat: int, seq: int | None, head: int,
             language: str) -> list[tuple[str, list[str], dict]]:
    """The actions the answered mail listed: (code, labels it may be called by, action)."""
    if seq is None or not 1 <= seq <= head:
        return []
    at = load(session, game_id, upto=seq)
    if seat not in at.game.to_act(at.state) or at.game.outcome(at.state) is not None:
        return []
    offered = []
    for index, action in enumerate(at.game.legal_actions(at.state, seat)):
        offered.append((action_code(index), [action.get("label") or "", translate(language, action)],
                        action))
    return offered


def _act(svc, inbound_id: int, game_id: str, seat: int, secret: str, reply: Reply,
         seq: int | None, offered, refused=None) -> str:
    """``refused``: why no move can be taken on the answered mail's seq at all (``why_stale``:
    it is not a seq of this game, or the game is over)."""
    from service.application.moves import make_move
    from service.application.talk import post_message

    if reply.subject.casefold() == "unsubscribe":  # the List-Unsubscribe mailto: form
        with svc.db.unit_of_work() as session:
            preferences.set_preference(session, game_id, seat, svc.clock(), mode="off")
            _mark(session, inbound_id, "unsubscribed", "", None)
        return "unsubscribed"
    line = reply.first_line
    index, looked_like_move = match_action(line, [(code, labels) for code, labels, _ in offered])
    if index is not None or looked_like_move:
        if seq is None:
            return _answer(svc, inbound_id, "reply_error", "error", _told(svc, game_id, seat, phrase(
                N_("we could not tell which mail you answered: reply to the newest mail from "
                   "the game (keep its subject), or use its links"))))
        if index is None and refused is not None:
            return _answer(svc, inbound_id, "reply_error", "error", _told(svc, game_id, seat, refused))
        if index is None:
            codes = ", ".join(code for code, _, _ in offered)
            detail = (phrase(N_("“{line}” is not one of the codes in that mail ({codes})"),
                             line=line[:40], codes=codes) if codes
                      else phrase(N_("the mail you answered asked you for no move")))
            return _answer(svc, inbound_id, "reply_error", "error", _told(svc, game_id, seat, detail))
        action = offered[index][2]
        try:
            make_move(svc, secret, action, seq)
        except (StaleMove, Conflict):
            return _answer(svc, inbound_id, "reply_error", "error",
                           _told(svc, game_id, seat, _why_late(svc, game_id, seat, seq)))
        except (IllegalAction, NotFound, BadSecret) as error:
            return _answer(svc, inbound_id, "reply_error", "error", _told(svc, game_id, seat, error))
        return _answer(svc, inbound_id, "reply_ok", "moved", action.get("label") or offered[index][0])
    if not reply.text.strip():
        return _answer(svc, inbound_id, "reply_error", "error", _told(svc, game_id, seat, phrase(
            N_("your reply was empty: answer with the code of a move (like A) on the first line, "
               "or with words for the table"))))
    try:
        with svc.db.unit_of_work() as session:
            _seq, owed = post_message(session, game_id, seat, reply.text, svc.clock(),
                                      svc.settings.mail_domain, f"seat:{seat}")
            _mark(session, inbound_id, "talk", reply.text[:200], None)
    except (IllegalAction, Conflict) as error:
        return _answer(svc, inbound_id, "reply_error", "error", _told(svc, game_id, seat, error))
    svc.dispatch_owed(owed)
    return "talk"


def _why_late(svc, game_id: str, seat: int, seq: int):
    """A move refused as stale, said as a mail reader understands it (``why_stale``), on the
    game as it is now; a race lost to writers whose moves left this seq fresh may be answered
    again (``RACE_LOST``)."""
    with svc.db.reading() as session:
        loaded = load(session, game_id)
    return RACE_LOST if is_fresh(loaded, seat, seq) else why_stale(loaded, seat, seq)


def _told(svc, game_id: str, seat: int, error) -> str:
    """A reply error (an exception or a phrase) in the seat's language: the error mail shows
    this text as it is."""
    from service.core.refusals import said

    with svc.db.reading() as session:
        language = preferences.language_of(session, game_id, seat)
    return translate(language, error if type(error) is dict else said(error))


def _mark(session, inbound_id: int, status: str, detail: str, outbox_id: int | None) -> None:
    record = session.get(InboundMailRow, inbound_id)
    record.status, record.detail, record.reply_outbox_id = status, detail[:2000], outbox_id


def _answer(svc, inbound_id: int, kind: str, status: str, detail: str) -> str:
    """Owe the seat a confirmation or an error mail, at the game's current seq."""
    now = svc.clock()
    with svc.db.unit_of_work() as session:
        record = session.get(InboundMailRow, inbound_id)
        game = session.get(GameRow, record.game_id)
        seat_row = session.get(SeatRow, (record.game_id, record.seat))
        head = last_seq(session, game.id)
        row = OutboxRow(
            game_id=game.id, seat=record.seat, kind=kind, seq=head, to_addr=seat_row.email,
            status="pending", attempts=0, next_attempt_at=now, created_at=now,
            message_id=f"<{game.id}.{head}.{record.seat}.{kind}.{inbound_id}@{svc.settings.mail_domain}>")
        session.add(row)
        session.flush()
        _mark(session, inbound_id, status, detail, row.id)
        outbox_id = row.id
    svc.dispatch([outbox_id])
    return status

