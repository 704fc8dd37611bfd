"""``flask --app service.wsgi chasqui …``: operations from the command line."""
from __future__ import annotations

import sys

import click
from flask.cli import AppGroup
from sqlalchemy import select

from service import fairness, store
from service.app import services
from service.delivery import due_ids
from service.models import GameRow
from service.store import verify_chain

group = AppGroup("chasqui", help="Chasqui operations.")

DEMO_PLAYERS = [("Ana", "ana@example.com"), ("Ben", "ben@example.com"),
                ("Cai", "cai@example.com"), ("Dee", "dee@example.com")]


@group.command("upgrade")
def upgrade():
    """Apply every Alembic migration (the Procfile's release step)."""
    services().db.upgrade()
    click.echo("schema is at head")


@group.command("demo")
@click.option("--game", default="incan_gold")
@click.option("--if-empty", is_flag=True, help="only when no game exists yet")
@click.option("--accept/--no-accept", default=True,
              help="accept the invitations for the demo players (default), or leave them to you")
def demo(game: str, if_empty: bool, accept: bool):
    """Ana organises a demo game and invites Ben, Cai and Dee (issue 10: the organiser flow);
    mail lands in the local mailbox.  Prints the play links (or, with --no-accept, the
    invitation links)."""
    from service.accounts.demo import create_demo
    from service.models import PendingGameRow

    svc = services()
    base = svc.settings.base_url
    if if_empty:
        with svc.db.reading() as session:
            first = (session.scalars(select(GameRow.id).limit(1)).first()
                     or session.scalars(select(PendingGameRow.id).limit(1)).first())
        if first is not None:
            click.echo(f"games exist already; mailbox: {base}/mailbox/")
            return
    result = create_demo(svc, game, DEMO_PLAYERS, accept=accept)
    click.echo(f"demo: {DEMO_PLAYERS[0][0]} ({result.organiser}) organised a game of {game} "
               f"and invited {', '.join(n for n, _ in DEMO_PLAYERS[1:])}")
    if result.game_id:
        click.echo(f"  the demo players accepted; demo game {result.game_id} ({game}) started")
        for name, url in result.play_links:
            click.echo(f"  {name}: {url}")
    else:
        click.echo("  the game starts when every invitation is accepted; accept them here "
                   "(or from the invitation mails in the mailbox):")
        for name, url in result.invitation_links:
            click.echo(f"  {name}: {url}")
    click.echo(f"  organise your own game: {base}/organise/new (sign in by mail, no password)")
    if svc.settings.local_mailbox:
        click.echo(f"  mailbox: {base}/mailbox/")


@group.command("verify")
@click.argument("game_id", required=False)
def verify(game_id: str | None):
    """Check every event hash chain (or one game's); exit 1 if any is broken, 2 if the game
    asked for does not exist."""
    svc = services()
    broken = 0
    with svc.db.reading() as session:
        if game_id is not None and session.get(GameRow, game_id) is None:
            click.echo(f"{game_id}: no such game", err=True)
            sys.exit(2)
        ids = [game_id] if game_id else list(session.scalars(select(GameRow.id).order_by(GameRow.id)))
        for gid in ids:
            report = verify_chain(gid, store.load(session, gid))
            status = "ok" if report.ok else f"BROKEN at seq {report.broken_at}: {report.reason}"
            click.echo(f"{gid}: {report.events} events, {status}")
            broken += not report.ok
    sys.exit(1 if broken else 0)


@group.command("verify-record")
@click.argument("record", type=click.File("rb"))
def verify_record(record):
    """Check a finished game's public record (the JSON file its players and spectators can
    download): the commitment, the hash chain, and a replay of every move to the recorded
    outcome.  Needs no database.  Exit 0 if every check passes, else 1."""
    verdict = fairness.check_text(record.read())
    for check in verdict.checks:
        click.echo(f"{'ok' if check.ok else 'FAILED'}  {check.name}: {check.detail}")
    click.echo(f"{verdict.game_id or 'the record'}: {'verified' if verdict.ok else 'NOT verified'}")
    sys.exit(0 if verdict.ok else 1)


@group.command("sweep")
def sweep():
    """Deliver outbox rows left unsent (what the beat task does every minute)."""
    svc = services()
    ids = due_ids(svc.db, svc.clock())
    for outbox_id in ids:
        svc.deliver(outbox_id)
    from service.accounts import mailer  # issue 10: sign-in links and invitations

    account_ids = mailer.due_ids(svc.db, svc.clock())
    for mail_id in account_ids:
        mailer.deliver(svc.db, svc.settings, mail_id, svc.clock())
    click.echo(f"swept {len(ids) + len(account_ids)} rows")


@group.command("sweep-deadlines")
def sweep_deadlines_command():
    """Fire due reminders and timeouts (what the beat task does every minute)."""
    from service import deadlines

    svc = services()
    ids = deadlines.sweep(svc.db, svc.clock(), svc.settings.mail_domain)
    svc.dispatch(ids)
    click.echo(f"fired deadlines; {len(ids)} mails queued")


@group.command("tick")
@click.option("--every", default=60.0, help="seconds between sweeps")
def tick(every: float):
    """The embedded default's beat: every minute, deliver owed mail, fire due deadlines and
    send the daily digests (what Celery beat does in production)."""
    import time

    from service import deadlines, digest

    svc = services()
    while True:
        svc.dispatch(deadlines.sweep(svc.db, svc.clock(), svc.settings.mail_domain))
        svc.dispatch(digest.plan(svc.db, svc.clock(), svc.settings.mail_domain))
        for outbox_id in due_ids(svc.db, svc.clock()):
            svc.deliver(outbox_id)
        time.sleep(every)


@group.command("create-admin")
@click.argument("email")
@click.option("--password", help="the password (asked for, hidden, when not given)")
@click.option("--game", "games", multiple=True,
              help="make an admin of this game only (repeatable); without it: a site admin")
def create_admin_command(email: str, password: str | None, games: tuple[str, ...]):
    """Create an admin account, or set a new password for an existing one (issue 6)."""
    from service.admin.auth import AdminError, create_admin

    if password is None:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    svc = services()
    try:
        with svc.db.unit_of_work() as session:
            row = create_admin(session, email, password, svc.clock(), site=not games, games=games)
            kind = "site admin" if row.is_site_admin else f"admin of {', '.join(games)}"
            address = row.email
    except AdminError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"{address} is a {kind}; log in at {svc.settings.base_url}/admin/login")
