"""The player's command on their private feeds: a new link, which revokes the old one.

Asked from a play page, so the seat secret says who asks; the link belongs to the seat's
address and serves all of that address's games (``service.store.private_feeds``)."""
from __future__ import annotations

from service.application.moves import resolve_seat
from service.application.services import Services
from service.store import private_feeds
from service.store.models import SeatRow


def new_link(svc: Services, secret: str, kind: str) -> None:
    """Replace the nonce of the secret's address's ``kind`` links (a forged or revoked
    secret is refused by ``resolve_seat`` and changes nothing)."""
    with svc.db.unit_of_work() as session:
        game_id, seat = resolve_seat(session, svc.settings.secret_key, secret)
        address = session.get(SeatRow, (game_id, seat)).email
        private_feeds.renew(session, address, kind, svc.clock())
