"""Configuration from the environment, with an embedded default that needs nothing installed."""
from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INSTANCE = ROOT / "instance"


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

    @property
    def embedded_tasks(self) -> bool:
        """No Redis configured: mail is delivered in-process right after each commit."""
        return not self.redis_url

    @property
    def local_mailbox(self) -> bool:
        """No SMTP configured: mail lands in the database and is shown at /mailbox."""
        return not self.smtp_url


def _persistent_secret() -> str:
    """A dev secret that survives restarts, so links in the local mailbox keep working."""
    INSTANCE.mkdir(exist_ok=True)
    path = INSTANCE / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32))
    return path.read_text().strip()


def from_env(env: dict[str, str] | None = None) -> Settings:
    env = os.environ if env is None else env
    database_url = env.get("CHASQUI_DATABASE_URL") or f"sqlite:///{INSTANCE / 'chasqui.sqlite3'}"
    if database_url.startswith("postgres://"):  # the spelling some hosts hand out
        database_url = "postgresql://" + database_url[len("postgres://"):]
    if database_url.startswith("postgresql://"):
        database_url = "postgresql+psycopg://" + database_url[len("postgresql://"):]
    base_url = (env.get("CHASQUI_BASE_URL") or "http://127.0.0.1:5000").rstrip("/")
    domain = env.get("CHASQUI_MAIL_DOMAIN") or base_url.split("//", 1)[-1].split("/")[0].split(":")[0]
    return Settings(
        database_url=database_url,
        redis_url=env.get("CHASQUI_REDIS_URL") or None,
        smtp_url=env.get("CHASQUI_SMTP_URL") or None,
        base_url=base_url,
        secret_key=env.get("CHASQUI_SECRET_KEY") or _persistent_secret(),
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
    )
