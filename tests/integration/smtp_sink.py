"""A real SMTP server (aiosmtpd) that keeps what it receives, deduped by Message-ID,
and can be told to answer with a failure code, or to be slow (``delay``): a slow server keeps
a sender busy mid-send, so a test can kill the sender while it waits for the final reply.
With ``delay_only_new`` it is slow only on a Message-ID it has not kept before, so a sender
that resends a killed mail gets past it and stalls on the next new one."""
from __future__ import annotations

import asyncio
import email
import socket
import threading
import time
from email import policy

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sink:
    def __init__(self):
        self.lock = threading.Lock()
        self.messages: dict[str, email.message.EmailMessage] = {}
        self.raw_by_id: dict[str, list[bytes]] = {}
        self.order: list[str] = []
        self.reply_code: str | None = None  # e.g. "451 try later" or "550 no such user"
        self.delay: float = 0.0  # seconds between keeping a message and answering 250
        self.delay_only_new = False  # True: a Message-ID kept before is answered at once
        self.stalled: list[str] = []  # Message-IDs whose 250 was delayed, in order
        self.entered = 0         # DATA commands seen (whatever the answer)
        self.refused = 0         # DATA commands answered with ``reply_code``
        self.arrived = threading.Condition()  # notified whenever a DATA command was handled

    def _notify(self) -> None:
        with self.arrived:
            self.arrived.notify_all()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.entered += 1
        if self.reply_code:
            with self.lock:
                self.refused += 1
            self._notify()
            return self.reply_code
        message = email.message_from_bytes(envelope.content, policy=policy.default)
        mid = message["Message-ID"]
        with self.lock:
            first_copy = mid not in self.messages
            self.raw_by_id.setdefault(mid, []).append(envelope.content)
            if first_copy:
                self.messages[mid] = message
                self.order.append(mid)
            stall = bool(self.delay) and (first_copy or not self.delay_only_new)
            if stall:
                self.stalled.append(mid)
        self._notify()
        if stall:
            # kept first, answered later: a sender killed now never hears the 250, retries,
            # and the retry must be the very same bytes under the same Message-ID
            await asyncio.sleep(self.delay)
        return "250 OK"

    def duplicates(self) -> dict[str, list[bytes]]:
        """Message-IDs received more than once (a retry after a lost 250), with their bytes."""
        with self.lock:
            return {mid: list(raws) for mid, raws in self.raw_by_id.items() if len(raws) > 1}

    def received(self, to: str | None = None):
        with self.lock:
            msgs = [self.messages[m] for m in self.order]
        return [m for m in msgs if to is None or to in m["To"]]

    def wait_for(self, predicate, timeout=30.0, what="mail"):
        """``predicate()``'s first true answer, looked at again each time a mail arrives (the
        predicate must depend only on what the sink holds); fails after ``timeout`` seconds.
        Holding ``arrived`` while looking means no arrival can slip in unnoticed."""
        deadline = time.monotonic() + timeout
        with self.arrived:
            while not (result := predicate()):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {what}")
                self.arrived.wait(left)
        return result


class SmtpServer:
    def __init__(self):
        self.sink = Sink()
        self.port = free_port()
        self.controller = Controller(self.sink, hostname="127.0.0.1", port=self.port)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def __enter__(self):
        self.controller.start()
        return self

    def __exit__(self, *exc):
        self.controller.stop()
