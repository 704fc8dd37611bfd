"""The Message-IDs of a game's mail: stable, so a retried delivery repeats the same one and
every later mail of a seat threads under its start mail."""
from __future__ import annotations


def message_id(game_id: str, seq: int, seat: int | None, kind: str, domain: str) -> str:
    """Stable per (game, seq, seat, kind): a retried delivery repeats the same Message-ID."""
    return f"<{game_id}.{seq}.{seat}.{kind}@{domain}>"


def thread_root(game_id: str, seat: int, domain: str) -> str:
    """Every seat's first mail of a game is its start mail; all later mail replies to it."""
    return message_id(game_id, 1, seat, "start", domain)
