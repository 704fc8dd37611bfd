"""One bad row never stops the rest: a mail that cannot be built or sent is counted on its own
outbox row (the error shown to the game's admins, retried with backoff up to a bound, then
failed), and ``tick``, ``sweep``, ``sweep-deadlines``, the batch delivery, the digests and the
deadline sweep go on with every other row and game.  The bad rows are written directly, as
rows from before input validation existed would be."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update

from service.application import deadlines

from service.mail import delivery

from service.mail import digest
from service.mail import mailer
from service.application import sign_in
from service.web.cli import tick_once
from service.mail.delivery import MAX_ATTEMPTS, backoff, deliver_many
from service.store.models import (AccountMailRow, DeadlineRow, EventRow, GameRow, MailPreferenceRow,
                            OutboxRow, SeatRow)
from service.store.events import utc
from tests.service.test_admin_support import site_admin, svc
from tests.service.test_mail import mails
from tests.service.test_mail_batch import queued, rows  # noqa: F401  (queued: a fixture)

BROKEN = "p1@example.com\r\nBcc: everyone@example.net"
GRACE = timedelta(seconds=61)  # the sweep leaves a row this long to the task queued for it
NO_VACATION = {"vacation_days": 0}


def poison_address(app, game_id: str, seat: int) -> None:
    with svc(app).db.unit_of_work() as session:
        session.execute(update(OutboxRow).where(OutboxRow.game_id == game_id,
                                                OutboxRow.seat == seat).values(to_addr=BROKEN))


def run(app, *command: str):
    result = app.test_cli_runner().invoke(args=["chasqui", *command])
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def by_game(app) -> dict:
    return {(r.game_id, r.seat): r for r in rows(app)}


def test_a_broken_address_fails_its_own_row_and_the_sweep_sends_every_other(
        app, new_game, queued, clock):
    first, _ = new_game(players=3)
    second, _ = new_game(players=3)
    poison_address(app, first["id"], 1)
    clock.advance(GRACE)
    assert "swept 6 rows" in run(app, "sweep").output
    outbox = by_game(app)
    bad = outbox.pop((first["id"], 1))
    assert {r.status for r in outbox.values()} == {"sent"}
    assert (bad.status, bad.attempts) == ("pending", 1)
    assert bad.last_error.startswith("not sent: the stored address is not exactly one mail address")
    assert utc(bad.next_attempt_at) == clock() + backoff(1)
    assert not [m for m in mails(app) if "everyone@example.net" in str(m)]


def test_the_game_page_shows_its_admins_why_a_mail_was_not_sent(app, client, new_game, queued,
                                                                 clock):
    data, _ = new_game(players=3)
    poison_address(app, data["id"], 1)
    clock.advance(GRACE)
    run(app, "sweep")
    site_admin(app, client)
    page = client.get(f"/admin/games/{data['id']}").get_data(as_text=True)
    assert "the stored address is not exactly one mail address" in page
    assert "1 attempt" in page


def test_a_row_that_keeps_failing_is_retried_with_growing_backoff_then_failed(
        app, new_game, queued, clock):
    data, _ = new_game(players=3)
    poison_address(app, data["id"], 1)
    waits = []
    for _ in range(MAX_ATTEMPTS):
        clock.advance(GRACE)
        run(app, "sweep")
        [bad] = [r for r in rows(app) if r.seat == 1]
        waits.append(utc(bad.next_attempt_at) - clock())
        clock.advance(waits[-1])
    assert (bad.status, bad.attempts) == ("failed", MAX_ATTEMPTS)
    assert waits[:MAX_ATTEMPTS - 1] == [backoff(n) for n in range(1, MAX_ATTEMPTS)]
    clock.advance(timedelta(days=2))
    assert "swept 0 rows" in run(app, "sweep").output  # a failed row is left alone


def mail_to_renamed_seat(app, new_game, clock, name: str):
    """Seat 1 of a new game renamed to ``name`` (written directly), its start mail swept out:
    the one mail to p1@example.com."""
    data, _ = new_game(players=3)
    with svc(app).db.unit_of_work() as session:
        session.execute(update(SeatRow).where(SeatRow.game_id == data["id"], SeatRow.seat == 1)
                        .values(name=name))
    clock.advance(GRACE)
    run(app, "sweep")
    assert {r.status for r in rows(app)} == {"sent"}
    [mail] = mails(app, "p1@example.com")
    return mail


def test_a_name_with_line_breaks_and_a_nul_is_mailed_on_one_line(app, new_game, queued, clock):
    mail = mail_to_renamed_seat(app, new_game, clock, "Eve\r\nBcc: everyone@example.net\x00")
    [to] = mail["To"].addresses  # one recipient, the name quoted on one line
    assert (to.display_name, to.addr_spec) == ("Eve  Bcc: everyone@example.net ", "p1@example.com")
    assert "Eve  Bcc" in mail["Subject"] and "\x00" not in mail.as_string()
    assert not [m for m in mails(app) if "Bcc" in m or "everyone" in m["To"].addresses[0].addr_spec]


def test_a_name_with_a_comma_and_an_address_stays_one_recipient(app, new_game, queued, clock):
    mail = mail_to_renamed_seat(app, new_game, clock, "Ana, everyone@example.net")
    assert [a.addr_spec for a in mail["To"].addresses] == ["p1@example.com"]


def test_the_batch_delivery_counts_a_broken_address_on_its_row_and_sends_the_rest(
        app, new_game, queued, clock):
    data, _ = new_game(players=3)
    [batch] = queued
    poison_address(app, data["id"], 1)
    with app.app_context():
        statuses = deliver_many(svc(app).db, svc(app).settings, batch, clock())
    assert [statuses[i] for i in batch] == ["sent", "pending", "sent"]
    assert [r.attempts for r in rows(app)] == [1, 1, 1]


def test_a_game_that_cannot_be_loaded_fails_only_its_own_rows(app, new_game, queued, clock,
                                                                monkeypatch):
    first, _ = new_game(players=3)
    second, _ = new_game(players=3)
    real = delivery.load

    def broken_first(session, game_id, *args, **kwargs):
        if game_id == first["id"]:
            raise KeyError("a game the code no longer knows")
        return real(session, game_id, *args, **kwargs)
    monkeypatch.setattr(delivery, "load", broken_first)
    with app.app_context():
        statuses = deliver_many(svc(app).db, svc(app).settings, queued[0] + queued[1], clock())
    outbox = rows(app)
    assert [statuses[r.id] for r in outbox] == ["pending"] * 3 + ["sent"] * 3
    assert all(r.last_error == "not sent: KeyError (the log has the details)"
               for r in outbox[:3])
    clock.advance(backoff(1) + GRACE)
    run(app, "sweep")  # one by one, each row of the broken game counts its own attempt
    assert [(r.status, r.attempts) for r in rows(app)[:3]] == [("pending", 2)] * 3


def test_an_account_mail_to_a_broken_address_fails_alone(app, clock):
    with svc(app).db.unit_of_work() as session:
        for address in ("ana@example.org", "ben@example.org"):
            sign_in.request_link(session, svc(app).settings, address, None, clock())
        session.execute(update(AccountMailRow).where(AccountMailRow.to_addr == "ana@example.org")
                        .values(to_addr="ana@example.org\nBcc: everyone@example.net"))
    clock.advance(GRACE)
    run(app, "sweep")
    with svc(app).db.reading() as session:
        bad, good = session.scalars(select(AccountMailRow).order_by(AccountMailRow.id))
    assert (bad.status, bad.attempts) == ("pending", 1) and "not exactly one" in bad.last_error
    assert good.status == "sent"
    with app.app_context():  # delivered directly (the embedded dispatch), it is not raised
        assert mailer.deliver(svc(app).db, svc(app).settings, bad.id, clock()) == "pending"


def timeouts_due(app, new_game, clock, games: int) -> list[str]:
    ids = [new_game(players=3, clock=NO_VACATION)[0]["id"] for _ in range(games)]
    clock.advance(timedelta(hours=48, minutes=1))
    return ids


def test_a_deadline_that_raises_is_left_pending_and_every_other_fires(app, new_game, clock,
                                                                      monkeypatch):
    broken, *healthy = timeouts_due(app, new_game, clock, 3)
    real = deadlines.fire

    def fire(session, deadline, now, domain):
        if deadline.game_id == broken:
            raise RuntimeError("a rules bug")
        return real(session, deadline, now, domain)
    monkeypatch.setattr(deadlines, "fire", fire)
    run(app, "sweep-deadlines")
    assert timed_out(app) == {broken: 0, **{game: 3 for game in healthy}}
    with svc(app).db.reading() as session:
        assert {d.status for d in session.scalars(
            select(DeadlineRow).where(DeadlineRow.game_id == broken))} == {"pending"}


def timed_out(app) -> dict[str, int]:
    """TurnTimedOut events per game (every game listed)."""
    with svc(app).db.reading() as session:
        counts = {game: 0 for game in session.scalars(select(GameRow.id))}
        for game in session.scalars(select(EventRow.game_id)
                                    .where(EventRow.kind == "TurnTimedOut")):
            counts[game] += 1
    return counts


def test_a_sweep_whose_whole_batch_raises_still_reaches_the_deadlines_behind_it(
        app, new_game, clock, monkeypatch):
    *broken, healthy = timeouts_due(app, new_game, clock, 2)
    real = deadlines.fire
    calls = []

    def fire(session, deadline, now, domain):
        calls.append(deadline.id)
        if deadline.game_id in broken:
            raise RuntimeError("a rules bug")
        return real(session, deadline, now, domain)
    monkeypatch.setattr(deadlines, "fire", fire)
    with app.app_context():
        deadlines.sweep(svc(app).db, clock(), svc(app).settings.mail_domain, batch=2)
    assert timed_out(app)[healthy] == 3 and timed_out(app)[broken[0]] == 0
    assert len(calls) == len(set(calls))  # each broken deadline was tried once, not forever


def test_the_digest_goes_on_past_an_address_whose_games_cannot_be_read(app, new_game, clock,
                                                                      monkeypatch):
    games = [new_game(players=3)[0]["id"] for _ in range(2)]
    with svc(app).db.unit_of_work() as session:
        for game_id in games:
            session.add(MailPreferenceRow(game_id=game_id, seat=0, mode="digest",
                                          updated_at=clock()))
            session.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == 0)
                            .values(email=f"{game_id}@example.com"))
    real = digest.seat_games

    def seat_games(session, address):
        if address.startswith(games[0].lower()):
            raise RuntimeError("a broken game")
        return real(session, address)
    monkeypatch.setattr(digest, "seat_games", seat_games)
    with app.app_context():
        ids = digest.plan(svc(app).db, clock(), svc(app).settings.mail_domain)
    assert [r.to_addr for r in rows(app, ids)] == [f"{games[1].lower()}@example.com"]


def test_a_tick_goes_on_with_its_other_steps_when_one_raises(app, new_game, clock, monkeypatch):
    timeouts_due(app, new_game, clock, 1)

    def broken(*_args, **_kwargs):
        raise RuntimeError("the digest is broken today")
    monkeypatch.setattr(digest, "plan", broken)
    with app.app_context():
        tick_once(svc(app))
    assert list(timed_out(app).values()) == [3]
    assert {r.status for r in rows(app)} == {"sent"}
