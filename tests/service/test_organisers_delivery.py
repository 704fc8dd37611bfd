"""Mail of no game yet goes through its own outbox, at least once, with the same
dispatch: in-process in the embedded default, a Celery task by name with Redis, the sweep."""
from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

from sqlalchemy import select

from service.mail import mailer

from service.application import sign_in
from service.store.models import AccountMailRow
from tests.service.test_organisers_support import mails, svc


def owe_sign_in_mail(app) -> int:
    with svc(app).db.unit_of_work() as session:
        _, mail_id = sign_in.request_link(session, svc(app).settings, "ana@example.org", None,
                                         svc(app).clock())
    return mail_id


def test_the_sweep_delivers_account_mail_whose_dispatch_was_lost(app, clock):
    mail_id = owe_sign_in_mail(app)  # committed, never dispatched (a crash, a broker outage)
    assert mails(app) == []
    clock.advance(timedelta(minutes=2))
    result = app.test_cli_runner().invoke(args=["chasqui", "sweep"])
    assert result.exit_code == 0 and "swept 1 rows" in result.output
    [mail] = mails(app)
    with svc(app).db.reading() as session:
        row = session.get(AccountMailRow, mail_id)
    assert row.status == "sent" and mail["message_id"] == row.message_id
    # delivering again changes nothing: the row is sent, the mailbox dedupes on Message-ID
    with app.app_context():
        assert mailer.deliver(svc(app).db, svc(app).settings, mail_id, clock()) == "sent"
    assert len(mails(app)) == 1


def test_with_redis_each_row_becomes_a_celery_task_by_name(app):
    sent = []

    class Client:
        def send_task(self, name, args, queue, retry):
            sent.append((name, args, queue))

    fake = SimpleNamespace(settings=SimpleNamespace(embedded_tasks=False, queue="chasqui"),
                           dispatch=SimpleNamespace(client=Client()))
    mailer.dispatch(fake, [7, 8])
    assert sent == [("chasqui.deliver_account_mail", [7], "chasqui"),
                    ("chasqui.deliver_account_mail", [8], "chasqui")]


def test_a_broker_outage_leaves_the_rows_to_the_sweep(app):
    class Down:
        calls = 0

        def send_task(self, *args, **kwargs):
            Down.calls += 1
            raise ConnectionError("broker down")

    fake = SimpleNamespace(settings=SimpleNamespace(embedded_tasks=False, queue="chasqui"),
                           dispatch=SimpleNamespace(client=Down()))
    mailer.dispatch(fake, [1, 2, 3])  # logged, not raised; one time-out per batch
    assert Down.calls == 1


def test_a_withdrawn_invitation_is_not_mailed_and_cannot_be_accepted(app, client):
    from tests.service.test_organisers_support import answer, create_game, csrf, sign_in

    sign_in(client, app)
    pending_id = create_game(client)
    client.post(f"/organise/games/{pending_id}/cancel",
                data={"csrf_token": csrf(client, f"/organise/games/{pending_id}")})
    with svc(app).db.unit_of_work() as session:
        row = session.scalars(select(AccountMailRow).where(AccountMailRow.kind == "invitation")).first()
        row.status = "pending"  # as if its delivery had not happened yet
    with app.app_context():
        assert mailer.deliver(svc(app).db, svc(app).settings, row.id, svc(app).clock()) == "cancelled"
    response = answer(app, "ana@example.org")
    assert response.status_code == 410 and "cancelled" in response.get_data(as_text=True)
