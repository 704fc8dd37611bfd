"""Configuration from the environment and the instance's settings file, with an embedded
default that needs nothing installed.

A setting is read from the process's environment first, then from ``chasqui.env`` in the
instance folder (``instance/`` beside the code, or ``CHASQUI_INSTANCE``), then the default.
The file is what makes one base URL reach every command: a variable exported in the shell
of ``./chasqui run`` is not seen by ``./chasqui admin create`` in another shell, the file is."""
from __future__ import annotations

import ipaddress
import os
import secrets
import sys
from dataclasses import dataclass
from urllib.parse import urlsplit
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
    # The local mailbox served on purpose whatever the base URL (``CHASQUI_LOCAL_MAILBOX=on``).
    local_mailbox_on: bool = False
    # Seconds a turn mail waits when the player's own move on the page opened the decision it
    # asks about: the page already shows it, so the mail goes out only if it is left unanswered.
    turn_mail_wait: int = 300

    @property
    def embedded_tasks(self) -> bool:
        """No Redis configured: mail is delivered in-process right after each commit."""
        return not self.redis_url

    @property
    def local_mailbox(self) -> bool:
        """No SMTP configured: mail is not sent; it goes to the local mailbox when that is
        served (``serves_mailbox``), else it waits in the outbox."""
        return not self.smtp_url

    @property
    def serves_mailbox(self) -> bool:
        """Mail lands in the database and is shown at /mailbox -- every player's hand and
        every sign-in link, to whoever reaches the address.  So only without SMTP, and only
        for a base URL on this machine (a loopback address) or when a setting turns it on on
        purpose: a public server without SMTP fails closed."""
        return self.local_mailbox and (self.local_mailbox_on or is_loopback_url(self.base_url))


def is_loopback_url(url: str) -> bool:
    """Whether ``url``'s host is this machine: localhost, 127.0.0.0/8 or ::1."""
    return is_loopback_host(urlsplit(url).hostname)


def is_loopback_host(host: str | None) -> bool:
    """Whether ``host`` (a name or an address) is this machine: localhost, 127.0.0.0/8, ::1."""
    host = (host or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def mail_warning(settings: Settings) -> str | None:
    """What an operator must hear when mail has nowhere to go: no SMTP server, and a public
    base URL, so the local mailbox is closed and every mail waits in the outbox."""
    if not settings.local_mailbox or settings.serves_mailbox:
        return None
    return (f"no SMTP server is configured (CHASQUI_SMTP_URL) and the base URL "
            f"{settings.base_url} is not a loopback address: the local mailbox is closed and "
            f"no mail is sent; it waits in the outbox (and fails after its retries). Set "
            f"CHASQUI_SMTP_URL, or CHASQUI_LOCAL_MAILBOX=on to serve every mail at /mailbox/ "
            f"to whoever can reach this server.")


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


class SettingError(ValueError):
    """A setting whose value cannot work, said in one line that names the variable and how to
    fix it: the CLI and the web entry point print it and exit 2, never a traceback."""

    EXIT_CODE = 2

    def __init__(self, env, name: str, rule: str, shown: str | None = None):
        """``shown``: the value as the line may show it (a URL's password left out)."""
        value = env.get(name)
        where = settings_file(env) if value == file_settings(env).get(name) else "the environment"
        super().__init__(f"{name}={shown or repr(value)} is not a valid setting: {rule}. Fix it in "
                         f"{where} (./chasqui config lists every setting).")


# The databases the service can use: the URL's scheme, after the spellings hosts hand out
# are brought to the driver the service installs (``_database_url``).
DATABASE_SCHEMES = ("sqlite", "postgresql+psycopg")


def _database_url(env, folder: Path) -> str:
    database_url = env.get("CHASQUI_DATABASE_URL") or f"sqlite:///{folder / 'chasqui.sqlite3'}"
    if database_url.startswith("postgres://"):  # the spelling some hosts hand out
        database_url = "postgresql://" + database_url[len("postgres://"):]
    if database_url.startswith("postgresql://"):
        database_url = "postgresql+psycopg://" + database_url[len("postgresql://"):]
    if database_url.split("://", 1)[0] not in DATABASE_SCHEMES or "://" not in database_url:
        raise SettingError(env, "CHASQUI_DATABASE_URL",
                           "it must start with sqlite:/// (a file) or postgresql:// "
                           "(user:password@host/database)",
                           shown=repr(database_url.split("://", 1)[0] + "://…"))
    return database_url


def _whole(env, name: str, default: int, low: int = 0, high: int = 10 ** 9) -> int:
    """A whole-number setting within [low, high]; unset or empty: ``default``."""
    raw = (env.get(name) or "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
        raise SettingError(env, name, f"it must be a whole number from {low} to {high}")
    return int(raw)


def from_env(env: dict[str, str] | None = None) -> Settings:
    """Settings from ``env`` alone (tests pass one), or by default from ``configured()``.
    A value that cannot work raises ``SettingError`` here, before anything starts."""
    env = configured() if env is None else env
    folder = instance_folder(env)
    database_url = _database_url(env, folder)
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
        signin_per_hour=_whole(env, "CHASQUI_SIGNIN_PER_HOUR", 5),
        invites_per_day=_whole(env, "CHASQUI_INVITES_PER_DAY", 50),
        rate_limit=env.get("CHASQUI_RATE_LIMIT") or "1000 per minute",
        proxy_hops=_whole(env, "CHASQUI_PROXY_HOPS", 0, high=100),
        port=_whole(env, "PORT", DEFAULT_PORT, low=1, high=65535),
        webhook_http_hosts=tuple(h.strip() for h in (env.get("CHASQUI_WEBHOOK_HTTP_HOSTS") or "")
                                 .split(",") if h.strip()),
        local_mailbox_on=(env.get("CHASQUI_LOCAL_MAILBOX") or "").strip().lower() == "on",
        turn_mail_wait=_whole(env, "CHASQUI_TURN_MAIL_WAIT", 300, high=7 * 24 * 3600),
    )


def settings_or_exit() -> Settings:
    """The process's settings, for an entry point (the web app, the workers): a setting that
    cannot work ends the process with its one line on stderr and exit code 2, no traceback."""
    try:
        return from_env()
    except SettingError as error:
        print(f"Error: {error}", file=sys.stderr)
        raise SystemExit(SettingError.EXIT_CODE) from None


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
    "CHASQUI_LOCAL_MAILBOX": "local_mailbox_on",
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
