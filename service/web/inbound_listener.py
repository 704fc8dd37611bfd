"""The inbound mail listener: an SMTP (or, with ``--lmtp``, LMTP) server made with aiosmtpd.

    python -m service.web.inbound_listener --host 0.0.0.0 --port 2525 [--lmtp]

Run as the Procfile's ``inbound`` process behind the MX (or fed by the MTA over LMTP).  Only
recipients ``<CHASQUI_INBOUND_ADDRESS>+<token>@…`` are accepted at RCPT; each message is
handed to ``service.application.inbound.handle`` off the event loop, inside the app context (so
inline delivery can render mail).  A message is answered 250 once it was processed (refused
senders too: a forger learns nothing).  Only a database that failed (``DatabaseFailure``: it
is down, a connection was lost) answers 451, so the sending MTA retries and the Message-ID
claim makes the retry act once.  A mail no retry can make usable -- one that cannot be read
(``UnreadableMail``) or that fails for any other reason -- is refused for good with a 554 and
a log line: a temporary refusal would have the sender retry it for days."""
from __future__ import annotations

import argparse
import asyncio
import logging
import re
import signal
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP
from service.core.redaction import redact
from service.mail.inbound_parse import UnreadableMail
from service.mail.reply_address import BadReplyToken, split_token, token_in
from service.store.db import DatabaseFailure
from service.web.extensions import services

log = logging.getLogger("chasqui.inbound")
MAX_SIZE = 1024 * 1024


class InboundHandler:
    def __init__(self, app):
        self.app = app
        self.svc = services(app)
        local = re.escape(self.svc.settings.inbound_address)
        self.accept = re.compile(rf"^{local}\+[0-9a-z-]+@", re.IGNORECASE)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if not self.accept.match(address) or not self._names_a_seat(address):
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    def _names_a_seat(self, address: str) -> bool:
        """The token is spelled as ours (whether it is signed for a seat is checked later,
        when the mail is recorded)."""
        try:
            split_token(token_in([address], self.svc.settings.inbound_address) or "")
        except BadReplyToken:
            return False
        return True

    async def handle_DATA(self, server, session, envelope):
        loop = asyncio.get_running_loop()
        try:
            status = await loop.run_in_executor(None, self._process, envelope.original_content
                                                or envelope.content, list(envelope.rcpt_tos))
        except DatabaseFailure:  # the sender retries; the Message-ID claim dedupes
            log.exception("inbound mail from %s: the database failed", envelope.mail_from)
            return "451 4.3.0 try again later"
        except UnreadableMail as error:
            log.warning("inbound mail from %s refused: %s", envelope.mail_from, error)
            return f"554 5.6.0 {error}"
        except Exception:  # noqa: BLE001  a retry would fail the same way
            log.exception("inbound mail from %s failed", envelope.mail_from)
            return "554 5.3.0 this mail could not be processed"
        log.info("inbound mail from %s to %s: %s", envelope.mail_from,
                 redact(", ".join(envelope.rcpt_tos)), status)
        return "250 OK"

    def _process(self, raw, recipients):
        from service.application.inbound import handle

        if isinstance(raw, str):
            raw = raw.encode()
        with self.app.app_context():
            return handle(self.svc, raw, recipients)


class InboundController(Controller):
    def __init__(self, app, hostname: str, port: int, lmtp: bool = False):
        self.lmtp = lmtp
        super().__init__(InboundHandler(app), hostname=hostname, port=port,
                         data_size_limit=MAX_SIZE)

    def factory(self):
        if self.lmtp:
            return LMTP(self.handler, **self.SMTP_kwargs)
        return SMTP(self.handler, **self.SMTP_kwargs)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="Chasqui inbound mail listener (SMTP/LMTP)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=2525)
    parser.add_argument("--lmtp", action="store_true", help="speak LMTP instead of SMTP")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    from service.web.app import create_app

    app = create_app()
    controller = InboundController(app, args.host, args.port, lmtp=args.lmtp)
    controller.start()
    print(f"chasqui inbound listening on {args.host}:{args.port} "
          f"({'LMTP' if args.lmtp else 'SMTP'})", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()
