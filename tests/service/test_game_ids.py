"""A game id is typed on command lines (``flask chasqui verify <id>``): one starting with "-"
would be read as an option (this made an audit test fail once in a while)."""
from __future__ import annotations

from service.core import tokens
def test_a_game_id_never_starts_with_a_dash(monkeypatch):
    drawn = iter(["-b6szR0aIE36", "--xx", "b6szR0aIE36x"])
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda n: next(drawn))
    assert tokens.new_game_id() == "b6szR0aIE36x"


def test_game_ids_are_twelve_url_safe_characters():
    ids = {tokens.new_game_id() for _ in range(2000)}
    assert len(ids) == 2000
    assert all(len(i) == 12 and not i.startswith("-") for i in ids)
