"""Card tables for Incan Gold, as data (sources: incan_gold.ja.txt, incan_gold.notes.md).

Cards live in the state as short string ids (``"t5"``, ``"h:fire"``, ``"a7"``) so the deck is
cheap to clone and to shuffle; ``CARDS`` turns an id back into what the card shows.  Duplicate
cards (the two 5s, three of each hazard) share one id because they are interchangeable."""
from __future__ import annotations

ROUNDS = 5
MIN_PLAYERS = 3
MAX_PLAYERS = 8

# notes: "15 treasure cards worth 1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17 (124 gems)".
TREASURE_VALUES = (1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17)
# notes / ja: 15 hazards, 5 kinds x 3.
HAZARD_KINDS = ("spiders", "mummies", "fire", "snakes", "rockfall")
HAZARD_COPIES = 3

# Artifact editions.  ``values``: worth printed on each card, in the order they enter the deck
# (None = worth decided when claimed).  ``claim_values``: worth of the 1st, 2nd, ... artifact
# claimed in the game (None = printed value).  ``shuffle``: whether the order of entry is random.
EDITIONS = {
    # ja: artifacts 5, 7, 8, 10, 12 under temple cards 1..5, one added per round, worth their number.
    "2018": {"cards": ("a5", "a7", "a8", "a10", "a12"), "shuffle": False, "claim_values": None},
    # notes: 2006 edition: added at random; first three claimed worth 5 each, 4th and 5th 10 each.
    "classic": {"cards": ("x1", "x2", "x3", "x4", "x5"), "shuffle": True,
                "claim_values": (5, 5, 5, 10, 10)},
}
DEFAULT_OPTIONS = {"artifacts": "2018"}


def _build_cards() -> dict[str, dict]:
    cards: dict[str, dict] = {}
    for value in TREASURE_VALUES:
        cards[f"t{value}"] = {"type": "treasure", "value": value}
    for kind in HAZARD_KINDS:
        cards[f"h:{kind}"] = {"type": "hazard", "hazard": kind}
    for edition in EDITIONS.values():
        for card in edition["cards"]:
            printed = int(card[1:]) if edition["claim_values"] is None else None
            cards[card] = {"type": "artifact", "value": printed}
    return cards


CARDS: dict[str, dict] = _build_cards()
HAZARD_CARD = {kind: f"h:{kind}" for kind in HAZARD_KINDS}

# The 30 quest cards every round starts from, before removed hazards are taken out.
QUEST_DECK: tuple[str, ...] = (
    tuple(f"t{v}" for v in TREASURE_VALUES)
    + tuple(HAZARD_CARD[k] for k in HAZARD_KINDS for _ in range(HAZARD_COPIES)))

TOTAL_TREASURE = sum(TREASURE_VALUES)  # 124

ACTIONS = {
    "stay": {"type": "stay", "label": "Stay in the temple"},
    "leave": {"type": "leave", "label": "Leave for camp"},
}
