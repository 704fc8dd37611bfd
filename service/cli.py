"""``flask --app service.wsgi chasqui …``: operations from the command line."""
from __future__ import annotations

import sys

import click
from flask.cli import AppGroup
from sqlalchemy import select

from service.app import services
from service.delivery import due_ids
from service.games import create_game, load
from service.models import GameRow
from service.presenter import secret_for
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
def demo(game: str, if_empty: bool):
    """Create a demo game whose mail lands in the local mailbox; print the play links."""
    svc = services()
    if if_empty:
        with svc.db.reading() as session:
            first = session.scalars(select(GameRow.id).limit(1)).first()
        if first is not None:
            click.echo(f"games exist already; mailbox: {svc.settings.base_url}/mailbox/")
            return
    with svc.db.unit_of_work() as session:
        game_id, outcome = create_game(
            session, game, [{"name": n, "email": e} for n, e in DEMO_PLAYERS],
            None, {}, "admin", svc.clock(), svc.settings.mail_domain)
        loaded = load(session, game_id)
        links = [(s.name, f"{svc.settings.base_url}/play/{secret_for(svc.settings, loaded, s.seat)}")
                 for s in loaded.seats]
    svc.dispatch(outcome.outbox_ids)
    click.echo(f"demo game {game_id} ({game}) created")
    for name, url in links:
        click.echo(f"  {name}: {url}")
    if svc.settings.local_mailbox:
        click.echo(f"  mailbox: {svc.settings.base_url}/mailbox/")


@group.command("verify")
@click.argument("game_id", required=False)
def verify(game_id: str | None):
    """Check every event hash chain (or one game's); exit 1 if any is broken."""
    svc = services()
    broken = 0
    with svc.db.reading() as session:
        ids = [game_id] if game_id else list(session.scalars(select(GameRow.id).order_by(GameRow.id)))
        for gid in ids:
            from service import store
            report = verify_chain(gid, store.load(session, gid))
            status = "ok" if report.ok else f"BROKEN at seq {report.broken_at}: {report.reason}"
            click.echo(f"{gid}: {report.events} events, {status}")
            broken += not report.ok
    sys.exit(1 if broken else 0)


@group.command("sweep")
def sweep():
    """Deliver outbox rows left unsent (what the beat task does every minute)."""
    svc = services()
    ids = due_ids(svc.db, svc.clock())
    for outbox_id in ids:
        svc.deliver(outbox_id)
    click.echo(f"swept {len(ids)} rows")
