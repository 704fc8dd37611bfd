"""The shared services every command needs, made once per process by the app factory (or a
worker) and handed down: nothing below the web room looks them up anywhere."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cached_property
from typing import Callable

from service.core.config import Settings
from service.mail import webhook_delivery
from service.mail.delivery import deliver, transport_for
from service.store.db import Database


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Services:
    settings: Settings
    db: Database
    clock: Callable[[], datetime]
    dispatch: Callable

    def dispatch_owed(self, owed) -> None:
        """After commit: a command's ``games.Owed``, its mail and its chat posts each to their
        own delivery."""
        self.dispatch(owed.mail, owed.posts)

    def deliver(self, outbox_id: int) -> str:
        return deliver(self.db, self.settings, outbox_id, self.clock(), self.transport)

    def deliver_post(self, post_id: int) -> str:
        """One webhook post (``service.mail.webhook_delivery``)."""
        return webhook_delivery.deliver(self.db, self.settings, post_id, self.clock())

    @cached_property
    def transport(self):
        """One per process, so an SMTP connection is reused from mail to mail."""
        return transport_for(self.settings)
