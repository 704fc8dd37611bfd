"""Contents and Setup (rulebook "Contents", "Setup" steps 1-7, setup illustration note)."""
from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.games.inca_empire import GAME, board
from engine.games.inca_empire.data import CARDS, CUSCO, ERA_CARDS, GOALS, MACHU_PICCHU, START_CARDS

from .helpers import new, tokens_of


def test_contents_card_counts():
    """Contents: 111 Era cards, 5 Start cards, 26 Goal cards, 1 Cusco card."""
    assert len(ERA_CARDS) == 111 and len(START_CARDS) == 5 and len(GOALS) == 26
    assert CUSCO["id"] == "CUSCO" and len({c["id"] for c in ERA_CARDS}) == 111
    assert {c["era"] for c in ERA_CARDS} == {1, 2, 3, 4}
    assert {c["type"] for c in ERA_CARDS} == {"city", "colca", "workforce", "trade"}
    assert MACHU_PICCHU in {c["id"] for c in START_CARDS}


def test_card_set_follows_the_rules_text():
    """Build a City or Colca: three regions, fame boxes 1-3, wild Colcas, storage huts."""
    for c in ERA_CARDS:
        if c["type"] == "city":
            assert c["region"] in ("coastal", "plateau", "mountain") and 1 <= c["fame"] <= 3
            assert not c["huts"]
        elif c["type"] == "colca":
            assert c["region"] in ("coastal", "plateau", "mountain", "wild") and 1 <= c["fame"] <= 3
            assert c["huts"] and set(c["huts"]) <= {"fish", "corn", "potatoes"}
            assert c["temple"] == 0
        elif c["type"] == "workforce":
            assert c["action"]["kind"] in ("activate", "restrict", "stock", "draw", "temple")
        else:
            assert c["effect"]["kind"] in ("huts2", "road_discount", "shared_roads", "terrace_bonus")
    assert sum(c["type"] == "trade" for c in ERA_CARDS if c["era"] == 1) >= 5


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_decks_shuffled_separately(n):
    """Setup 2: the Era decks are sorted by Era and shuffled separately."""
    state = new(n, 5)
    for era, deck in state["decks"].items():
        assert all(CARDS[c]["era"] == int(era) for c in deck)
    other = new(n, 6)
    assert state["decks"]["2"] != other["decks"]["2"]
    assert sorted(state["decks"]["2"]) == sorted(other["decks"]["2"])


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_seventy_tokens_and_cusco_in_centre(n):
    """Setup 3-4: 70 tokens per player in the Supply; Cusco in the centre (column 1, row 0)."""
    state = new(n)
    assert all(tokens_of(state, s) == 70 for s in range(n))
    assert state["table"][board.CUSCO_KEY]["card"] == "CUSCO"


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_one_trade_agreement_and_one_start_card_each(n):
    """Setup 5-6 and Deal note: each player starts with a Trade Agreement and a Start card."""
    state = new(n)
    for hand in state["hands"]:
        assert sum(CARDS[c]["type"] == "start" for c in hand) == 1
        assert sum(CARDS[c]["type"] == "trade" for c in hand) >= 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_machu_picchu_only_with_five_players(n):
    """Setup 6: with fewer than five players the Machu Picchu Start card is removed."""
    state = new(n)
    everywhere = [c for h in state["hands"] for c in h] + [v["card"] for v in state["table"].values()]
    assert MACHU_PICCHU not in everywhere
    five = new(5)
    assert sum(MACHU_PICCHU in h for h in five["hands"]) == 1


@pytest.mark.parametrize("n", [2, 3])
def test_setup_extra_start_cards_beside_cusco_unclaimed(n):
    """Setup 6 + illustration note: in 2-3 player games the extra Start card(s) lie next to
    Cusco at their own spot; they cannot be claimed."""
    state = new(n)
    extras = [k for k, v in state["table"].items() if CARDS[v["card"]]["type"] == "start"]
    assert len(extras) == 4 - n
    for k in extras:
        here = state["table"][k]
        assert here["owner"] is None and here["fame"] == 0
        assert board.pos(k) == board.START_SPOTS[here["card"]]
        assert board.orth_next_to_cusco(*board.pos(k))
    assert not any(v["card"] in h for h in state["hands"] for v in state["table"].values())


def test_setup_no_extra_start_cards_with_four_or_five():
    """Setup 6: only 2-3 player games set extra Start cards out."""
    for n in (4, 5):
        assert list(new(n)["table"]) == [board.CUSCO_KEY]


@pytest.mark.parametrize("n", [2, 5])
def test_setup_five_goal_cards_each(n):
    """Setup 7: each player is dealt five Goal cards (three will score)."""
    state = new(n)
    assert all(len(g) == 5 for g in state["goals"])
    assert len({g for gs in state["goals"] for g in gs}) == 5 * n


def test_setup_refuses_wrong_counts_and_unknown_options():
    """The game is for 2-5 players and has no options."""
    with pytest.raises(IllegalAction):
        GAME.setup(["a"], 1, {})
    with pytest.raises(IllegalAction):
        GAME.setup(["a"] * 6, 1, {})
    with pytest.raises(IllegalAction, match="unknown option"):
        GAME.setup(["a", "b"], 1, {"variant": 1})


def test_setup_is_deterministic():
    """All chance comes from the seed (engine.core.rng)."""
    assert new(4, 9) == new(4, 9)
