"""``flask --app service.web.wsgi chasqui …``: operations from the command line.

``./chasqui VERB …`` runs the same commands from the project's own virtualenv, so a newcomer
needs to activate nothing; a deployment (the Procfile) calls ``flask`` itself.  Every URL a
command prints is made from the configured base URL (``service.core.config``: the
environment, then ``instance/chasqui.env``)."""
from __future__ import annotations

import logging
import os
import sys

import click
from flask.cli import AppGroup

from engine import GAMES
from service.mail import witness
from service.store import fairness

from service.store import events as store
from service.web.extensions import services
from service.mail.delivery import due_ids
from service.store.game_lists import all_game_ids, any_game_made
from service.store.models import GameRow
from service.store.events import verify_chain

log = logging.getLogger(__name__)

# Set by the ``chasqui`` script to the name it was run by, so that usage and errors name the
# command a person typed ("./chasqui config --help"), not the flask command inside it.
PROG_VARIABLE = "CHASQUI_PROG"


class ChasquiGroup(AppGroup):
    """The ``chasqui`` verbs; run by the script, their usage lines start with its name."""

    def make_context(self, info_name, args, parent=None, **extra):
        prog = os.environ.get(PROG_VARIABLE)
        if prog and parent is not None:
            parent.info_name = None  # "flask" is an implementation detail of the script
            info_name = prog
        return super().make_context(info_name, args, parent=parent, **extra)


group = ChasquiGroup("chasqui", help="Chasqui operations.")

FILE_LIMIT = 256 * 1024 * 1024  # a record file read by hand: far beyond any game's, still bounded


@group.command("upgrade")
def upgrade():
    """Apply every Alembic migration (the Procfile's release step)."""
    services().db.upgrade()
    click.echo("schema is at head")


@group.command("demo")
@click.option("--game", default=next(iter(GAMES)), show_default=True,
              type=click.Choice(list(GAMES)))
@click.option("--if-empty", is_flag=True,
              help="only when no game exists yet; else print the demo's links again")
@click.option("--accept/--no-accept", default=True,
              help="accept the invitations for the demo players (default), or leave them to you")
def demo(game: str, if_empty: bool, accept: bool):
    """Ana organises a demo game and invites Ben, Cai and Dee (the organiser flow);
    mail lands in the local mailbox.  Prints the play links (or, with --no-accept, the
    invitation links)."""
    from service.application.demo import DEMO_PLAYERS, create_demo

    svc = services()
    if if_empty:
        with svc.db.reading() as session:
            made = any_game_made(session)
        if made:
            click.echo("games exist already; no new demo was made")
            print_demo_links(svc)
            return
    result = create_demo(svc, game, DEMO_PLAYERS, accept=accept)
    click.echo(f"demo: {DEMO_PLAYERS[0][0]} ({result.organiser}) organised a game of {game} "
               f"and invited {', '.join(n for n, _ in DEMO_PLAYERS[1:])}")
    print_links(svc, result)


@group.command("links")
def links():
    """Print the demo's links again: its four play links (or, while its invitations are
    open, their links), the organiser's page and the mailbox."""
    if not print_demo_links(services()):
        raise click.ClickException("there is no demo game yet: ./chasqui run makes one")


def print_demo_links(svc) -> bool:
    from service.application.demo import demo_again

    result = demo_again(svc)
    if result is None:
        print_site_links(svc)
        return False
    print_links(svc, result)
    return True


def print_links(svc, result) -> None:
    if result.game_id:
        click.echo(f"  the demo players accepted; demo game {result.game_id} ({result.game}) started")
        for name, url in result.play_links:
            click.echo(f"  {name}: {url}")
    else:
        click.echo("  the game starts when every invitation is accepted; accept them here "
                   "(or from the invitation mails in the mailbox):")
        for name, url in result.invitation_links:
            click.echo(f"  {name}: {url}")
    print_site_links(svc)


def print_site_links(svc) -> None:
    base = svc.settings.base_url
    click.echo(f"  organise your own game: {base}/organise/new (sign in by mail, no password)")
    if svc.settings.serves_mailbox:
        click.echo(f"  mailbox: {base}/mailbox/")
    warn_if_shell_only()


def warn_if_shell_only() -> None:
    """A base URL (or port) exported in this shell alone is not what another shell's commands
    will print: say where to put it once for all of them."""
    import os

    from service.core import config

    kept = config.file_settings()
    for variable in SHARED_BY_LINKS:
        value = os.environ.get(variable, "")
        if config.origin(variable) == "environment" and kept.get(variable) != value:
            click.echo(f"  note: {variable}={value} is set in this shell only; for every "
                       f"command, put that line in {config.settings_file()}")


SHARED_BY_LINKS = ("CHASQUI_BASE_URL", "PORT")  # the settings every printed URL is made from


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
        ids = [game_id] if game_id else all_game_ids(session)
        for gid in ids:
            report = verify_chain(gid, store.load(session, gid))
            status = "ok" if report.ok else f"BROKEN at event {report.broken_at}: {report.reason}"
            click.echo(f"{gid}: {report.events} events, {status}")
            broken += not report.ok
    sys.exit(1 if broken else 0)


@group.command("verify-record")
@click.argument("record", type=click.File("rb"))
@click.option("--mail", "mails", multiple=True, type=click.File("rb"),
              help="A mail of the game you kept (.eml or its text); the record must hold the "
                   "state it names.  Repeat for several.")
@click.option("--hash", "hashes", multiple=True,
              help="A fingerprint (sha256:<64 hex>) a mail named.  Repeat for several.")
def verify_record(record, mails, hashes):
    """Check a finished game's public record (the JSON file its players and spectators can
    download): the commitment, the hash chain, and a replay of every move to the recorded
    outcome; and, given mails you kept, that the record holds every state they name.
    Needs no database.  Exit 0 if every check passes, else 1."""
    text = record.read()
    verdict = fairness.check_text(text, FILE_LIMIT)
    witness.add_check(verdict, text, [m.read(witness.WITNESS_BYTES) for m in mails] + list(hashes))
    for check in verdict.checks:
        click.echo(f"{'ok' if check.ok else 'FAILED'}  {check.name}: {terminal_safe(check.detail)}")
    click.echo(f"fair play: {verdict.fairness}")
    click.echo(f"{terminal_safe(verdict.game_id or 'the record')}: "
               f"{'verified' if verdict.ok else 'NOT verified'}")
    sys.exit(0 if verdict.ok else 1)


def terminal_safe(text: str) -> str:
    """``text`` with every character a terminal would act on (an escape sequence that hides
    what follows, a carriage return that writes over the line, a bidi control) written as its
    code: a stranger's record, whose game id and names a verdict quotes, cannot make the
    command's own words read otherwise."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


@group.command("sweep")
def sweep():
    """Deliver outbox rows left unsent (what the beat task does every minute)."""
    click.echo(f"swept {sweep_outboxes(services())} rows")


def sweep_outboxes(svc) -> int:
    """Deliver the due rows of the game outbox and of the accounts' (sign-in links,
    invitations) and the webhook posts; returns how many were due.  A row whose delivery raises is logged with its
    id and the next row goes on (a delivery records its own row's faults: ``delivery.fault``)."""
    from service.mail import mailer, webhook_delivery

    ids = due_ids(svc.db, svc.clock())
    each_row("outbox", ids, svc.deliver)
    account_ids = mailer.due_ids(svc.db, svc.clock())
    each_row("account mail", account_ids,
             lambda mail_id: mailer.deliver(svc.db, svc.settings, mail_id, svc.clock()))
    post_ids = webhook_delivery.due_ids(svc.db, svc.clock())
    each_row("webhook post", post_ids, svc.deliver_post)
    return len(ids) + len(account_ids) + len(post_ids)


def each_row(what: str, ids: list[int], deliver_one) -> None:
    for row_id in ids:
        try:
            deliver_one(row_id)
        except Exception:  # noqa: BLE001 - one row must never stop the rest
            log.exception("%s %s could not be delivered; the next sweep tries again", what, row_id)


@group.command("sweep-deadlines")
def sweep_deadlines_command():
    """Fire due reminders and timeouts (what the beat task does every minute)."""
    owed = fire_deadlines(services())
    click.echo(f"fired deadlines; mails queued: {len(owed.mail)}, webhook posts queued: {len(owed.posts)}")


def fire_deadlines(svc):
    """Fire the due deadlines and dispatch what they owe; returns that ``Owed``."""
    from service.application import deadlines
    owed = deadlines.sweep(svc.db, svc.clock(), svc.settings.mail_domain)
    svc.dispatch_owed(owed)
    return owed


def send_digests(svc) -> int:
    from service.mail import digest
    ids = digest.plan(svc.db, svc.clock(), svc.settings.mail_domain)
    svc.dispatch(ids)
    return len(ids)


@group.command("tick")
@click.option("--every", default=60.0, help="seconds between sweeps")
def tick(every: float):
    """The embedded default's beat: every minute, fire due deadlines, send the daily digests
    and deliver owed mail (what Celery beat does in production).  Each step that fails is
    logged and the next one runs; the loop never stops for one bad row or game."""
    import time

    svc = services()
    while True:
        tick_once(svc)
        time.sleep(every)


def tick_once(svc) -> None:
    for step in (fire_deadlines, send_digests, sweep_outboxes):
        try:
            step(svc)
        except Exception:  # noqa: BLE001 - the beat goes on; the next tick tries again
            log.exception("tick: %s failed; the next tick tries again", step.__name__)


admin = AppGroup("admin", help="Admin accounts.")
group.add_command(admin)


@admin.command("create")
@click.argument("email")
@click.option("--password", help="the password (asked for, hidden, when not given)")
@click.option("--game", "games", multiple=True,
              help="make an admin of this game only (repeatable); without it: a site admin")
def create_admin_command(email: str, password: str | None, games: tuple[str, ...]):
    """Create an admin account, or set a new password for an existing one."""
    from service.application.admin_auth import AdminError, create_admin

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


@group.command("config")
@click.argument("name", required=False)
def config_command(name: str | None):
    """Show the settings in effect and where each comes from (the environment, the settings
    file, or the default); with NAME, print that setting's value alone."""
    from service.core import config

    settings = services().settings
    if name is not None:
        if name not in config.VARIABLES:
            raise click.ClickException(f"no setting {name}; known: {', '.join(config.VARIABLES)}")
        click.echo(shown(name, getattr(settings, config.VARIABLES[name])))
        return
    click.echo(f"settings file: {config.settings_file()} (the environment wins over it)")
    for variable, field_name in config.VARIABLES.items():
        click.echo(f"  {variable} = {shown(variable, getattr(settings, field_name))}"
                   f"  ({config.origin(variable)})")
    warning = config.mail_warning(settings)
    if warning:
        click.echo(f"warning: {warning}", err=True)


def shown(variable: str, value) -> str:
    """A setting as ``chasqui config`` prints it: secrets and URL passwords masked."""
    from urllib.parse import urlsplit

    from service.core.config import SECRETS

    if value is None:
        return "(unset)"
    if isinstance(value, bool):  # a switch, as it is written
        return "on" if value else "off"
    if variable in SECRETS:
        return "(set)"
    if isinstance(value, tuple):  # a list setting, as it is written: comma-separated
        return ",".join(value) or "(none)"
    text = str(value)
    parts = urlsplit(text) if "://" in text else None
    if parts is not None and parts.password:
        return text.replace(f":{parts.password}@", ":***@", 1)
    return text
