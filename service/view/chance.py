"""What a seat's page says about where the game's chance came from: the share given for the
seat when the game began (GameCreated lists every seat's; a page shows a seat only its own,
the others are public in the record once the game ends), whether a site admin gave the seed,
and whether the game was imported (whoever exported it held its seed)."""
from __future__ import annotations

from service.store import randomness


def chance_context(created: dict, seat: int, imported: bool) -> dict:
    """The play page's words on chance, from GameCreated's payload ``created``."""
    chance = created.get("randomness")
    chance = chance if isinstance(chance, dict) else {}
    shares = chance.get("contributions")
    share = shares[seat] if isinstance(shares, list) and 0 <= seat < len(shares) else None
    return {"my_share": share if isinstance(share, dict) else None,
            "seed_given": chance.get("scheme") == randomness.GIVEN,
            "imported": imported}
