"""The trace a privileged read leaves (``service.store.privileged_reads``), written before
the read is answered, so that no read of a running game's secrets leaves without one.

Its own unit of work: the read's loads stay in a reading session, which stores no snapshot,
so the only thing such a GET writes is this append-only row -- never the game, its chain or
its state."""
from __future__ import annotations

from service.store import privileged_reads
from service.store.loading import Loaded
from service.web.extensions import services


def leave_trace(head: Loaded, actor: str, what: str, seat: int | None = None,
                seq: int | None = None) -> None:
    """Note that ``actor`` read ``what`` of the game ``head`` (loaded at its newest event)
    as it was after event ``seq`` (its head when None)."""
    svc = services()
    with svc.db.unit_of_work() as session:
        privileged_reads.note(session, head, actor, what, svc.clock(), seat=seat, seq=seq)
