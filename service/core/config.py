"""Configuration from the environment and the instance's settings file, with an embedded
default that needs nothing installed.

A setting is read from the process's environment first, then from ``chasqui.env`` in the
instance folder (``instance/`` beside the code, or ``CHASQUI_INSTANCE``), then the default.
The file is what makes one base URL reach every command: a variable exported in the shell
of ``./chasqui run`` is not seen by ``./chasqui admin create`` in another shell, the file is."""
from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

ROOT = Path(__file__).resolve().parents[2]
INSTANCE = ROOT / "instance"
SETTINGS_FILE = "chasqui.env"
DEFAULT_PORT = 5000


@dataclass(frozen=True)
class Settings:
    database_url: str
    redis_url: str | None
    smtp_url: str | None
    base_url: str
    secret_key: str
    admin_token: str | None
    mail_from: str
    mail_domain: str
    queue: str
    # Mail replies.  ``inbound_token`` guards POST /inbound/mail (unset: closed);
    # ``inbound_address`` is the reply address's local part before "+<token>".
    inbound_token: str | None = None
    inbound_address: str = "play"
    # Organisers.  Mail-counted limits (in the database) and the default rate
    # limit of every endpoint per client address ("off" switches the default limit off).
    signin_per_hour: int = 5
    invites_per_day: int = 50
    rate_limit: str = "1000 per minute"
    # Proxies in front of the app whose X-Forwarded-For/-Proto are trusted (0: none), so
    # that rate limits count per client, not per proxy.
    proxy_hops: int = 0
    # The development server's port (``./chasqui run``; a deployment's web process binds its own).
    port: int = DEFAULT_PORT
    # Hosts (or host:port) a webhook may reach over plain http, trusted as the operator
    # named them (their addresses are not checked); every other hook is https to a public
    # address (``service.mail.webhook_guard``).
    webhook_http_hosts: tuple[str, ...] = ()
    # Seconds a turn mail waits when the player's own move on the page opened the decision it
    # asks about: the page already shows it, so the mail goes out only if it is left unanswered.
    turn_mail_wait: int = 300

    @property
    def embedded_tasks(self) -> bool:
        """No Redis configured: mail is delivered in-process right after each commit."""
        return not self.redis_url

    @property
    def local_mailbox(self) -> bool:
        """No SMTP configured: mail lands in the database and is shown at /mailbox."""
        return not self.smtp_url


def instance_folder(env) -> Path:
    """Where the local database, the dev secret and the settings file live."""
    return Path(env.get("CHASQUI_INSTANCE") or INSTANCE)


def settings_file(env=None) -> Path:
    return instance_folder(os.environ if env is None else env) / SETTINGS_FILE


def file_settings(env=None) -> dict[str, str]:
    """The settings file's variables (none when it does not exist); a line without a value
    (``KEY`` alone) sets nothing."""
    path = settings_file(env)
    if not path.is_file():
        return {}
    return {key: value for key, value in dotenv_values(path).items() if value is not None}


def configured() -> dict[str, str]:
    """The process's settings: the settings file, overridden by the environment."""
    return {**file_settings(), **{key: value for key, value in os.environ.items() if value}}


def _persistent_secret(folder: Path) -> str:
    """A dev secret that survives restarts, so links in the local mailbox keep working."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32))
    return path.read_text().strip()


def default_base_url(env) -> str:
    """The development server's own address: ``./chasqui run`` serves on ``PORT``."""
    return f"http://127.0.0.1:{env.get('PORT') or DEFAULT_PORT}"


def from_env(env: dict[str, str] | None = None) -> Settings:
    """Settings from ``env`` alone (tests pass one), or by default from ``configured()``."""
    env = configured() if env is None else env
    folder = instance_folder(env)
    database_url = env.get("CHASQUI_DATABASE_URL") or f"sqlite:///{folder / 'chasqui.sqlite3'}"
    if database_url.startswith("postgres://"):  # the spelling some hosts hand out
        database_url = "postgresql://" + database_url[len("postgres://"):]
    if database_url.startswith("postgresql://"):
        database_url = "postgresql+psycopg://" + database_url[len("postgresql://"):]
    base_url = (env.get("CHASQUI_BASE_URL") or default_base_url(env)).rstrip("/")
    domain = env.get("CHASQUI_MAIL_DOMAIN") or base_url.split("//", 1)[-1].split("/")[0].split(":")[0]
    return Settings(
        database_url=database_url,
        redis_url=env.get("CHASQUI_REDIS_URL") or None,
        smtp_url=env.get("CHASQUI_SMTP_URL") or None,
        base_url=base_url,
        secret_key=env.get("CHASQUI_SECRET_KEY") or _persistent_secret(folder),
        admin_token=env.get("CHASQUI_ADMIN_TOKEN") or None,
        mail_from=env.get("CHASQUI_MAIL_FROM") or f"Chasqui <chasqui@{domain}>",
        mail_domain=domain,
        queue=env.get("CHASQUI_QUEUE") or "chasqui",
        inbound_token=env.get("CHASQUI_INBOUND_TOKEN") or None,
        inbound_address=env.get("CHASQUI_INBOUND_ADDRESS") or "play",
        signin_per_hour=int(env.get("CHASQUI_SIGNIN_PER_HOUR") or 5),
        invites_per_day=int(env.get("CHASQUI_INVITES_PER_DAY") or 50),
        rate_limit=env.get("CHASQUI_RATE_LIMIT") or "1000 per minute",
        proxy_hops=int(env.get("CHASQUI_PROXY_HOPS") or 0),
        port=int(env.get("PORT") or DEFAULT_PORT),
        webhook_http_hosts=tuple(h.strip() for h in (env.get("CHASQUI_WEBHOOK_HTTP_HOSTS") or "")
                                 .split(",") if h.strip()),
        turn_mail_wait=int(env.get("CHASQUI_TURN_MAIL_WAIT") or 300),
    )


# Each variable and the setting it makes (``chasqui config`` lists them in this order);
# the README's configuration table says what each means.
VARIABLES = {
    "CHASQUI_BASE_URL": "base_url", "PORT": "port", "CHASQUI_DATABASE_URL": "database_url",
    "CHASQUI_REDIS_URL": "redis_url", "CHASQUI_SMTP_URL": "smtp_url",
    "CHASQUI_SECRET_KEY": "secret_key", "CHASQUI_ADMIN_TOKEN": "admin_token",
    "CHASQUI_MAIL_FROM": "mail_from", "CHASQUI_MAIL_DOMAIN": "mail_domain",
    "CHASQUI_QUEUE": "queue", "CHASQUI_INBOUND_TOKEN": "inbound_token",
    "CHASQUI_INBOUND_ADDRESS": "inbound_address", "CHASQUI_SIGNIN_PER_HOUR": "signin_per_hour",
    "CHASQUI_INVITES_PER_DAY": "invites_per_day", "CHASQUI_RATE_LIMIT": "rate_limit",
    "CHASQUI_PROXY_HOPS": "proxy_hops", "CHASQUI_WEBHOOK_HTTP_HOSTS": "webhook_http_hosts",
    "CHASQUI_TURN_MAIL_WAIT": "turn_mail_wait",
}
SECRETS = {"CHASQUI_SECRET_KEY", "CHASQUI_ADMIN_TOKEN", "CHASQUI_INBOUND_TOKEN"}


def origin(name: str) -> str:
    """Where the process's value of ``name`` comes from: "environment", the settings file's
    path, or "default"."""
    if os.environ.get(name):
        return "environment"
    if file_settings().get(name):
        return str(settings_file())
    return "default"
