"""Configuration from the environment, with an embedded default that needs nothing installed."""
from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
    )
