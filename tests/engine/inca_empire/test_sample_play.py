"""The rulebook's Sample Play, replayed move by move with four players (player k = seat k-1)."""
from __future__ import annotations

from engine.games.inca_empire import GAME, actions, era
from engine.games.inca_empire.data import CARDS

from .helpers import act, in_actions, legal_types, tokens_of

WORKFORCE_TWO = "E1-07"   # "Move 2 tokens from your Supply to your Active Pool."
COASTAL_COLCA = "E1-21"   # coastal Colca; its south edge matches Nazca's north edge
TRADE = "E1-04"
TERRACE_CARD = "E1-12"


def test_sample_play():
    """Sample Play: Nazca start city, a Workforce card moving two tokens, a Trade Agreement
    between players 3 and 2, a Terrace with no action, a Colca north of Nazca, player 2's
    start city, everybody passes, player 3 cashes in the agreement."""
    assert CARDS[WORKFORCE_TWO]["action"] == {"kind": "activate", "n": 2,
                                              "text": "Move 2 tokens from your Supply to your Active Pool."}
    assert CARDS[COASTAL_COLCA]["region"] == "coastal" and CARDS[TRADE]["type"] == "trade"
    state = in_actions(4, hands=[["S-NAZCA", COASTAL_COLCA], [WORKFORCE_TWO, "S-CAJAMARCA"],
                                 [TRADE], [TERRACE_CARD]])
    assert state["active"] == [6, 6, 6, 6] and state["supply"] == [64] * 4

    # Player 1 builds Nazca: only left of Cusco; 2 road tokens + 1 fame token (box "1").
    act(state, 0, type="build", card="S-NAZCA")
    act(state, 0, type="place", at="0,0", via="1,0")
    assert state["table"]["0,0"]["owner"] == 0 and state["table"]["0,0"]["fame"] == 1
    assert state["roads"] == [{"a": "1,0", "b": "0,0", "owner": 0, "cost": 2}]
    assert state["active"][0] == 3

    # Player 2: Extra Workforce; 1 Supply token on the card, 2 Supply -> Active, the card's
    # token to the Active Pool, the card face down as a Terrace.
    act(state, 1, type="workforce", card=WORKFORCE_TWO)
    assert state["supply"][1] == 61 and state["active"][1] == 9
    assert state["terraces"][1] == [WORKFORCE_TWO]

    # Player 3: Trade Agreement between himself and player 2, one token from his Supply.
    assert GAME.to_act(state) == [2]
    act(state, 2, type="trade", card=TRADE, space=1)
    assert state["trades"][1] == {"card": TRADE, "owner": 2, "tokens": 1}
    assert actions.parties(state, 1) == (1, 2) and state["supply"][2] == 63

    # Player 4: a Terrace, doing nothing; the token goes on to her Active Pool.
    act(state, 3, type="terrace", card=TERRACE_CARD)
    act(state, 3, type="nothing")
    assert state["supply"][3] == 63 and state["active"][3] == 7 and state["terraces"][3] == [TERRACE_CARD]

    # Player 1: a coastal Colca north of Nazca: 2 road tokens + 1 fame token.
    act(state, 0, type="build", card=COASTAL_COLCA)
    act(state, 0, type="place", at="0,-1", via="0,0")
    assert state["active"][0] == 0
    assert {"1,0", "0,0", "0,-1"} <= actions.my_network(state, 0)

    # Player 2 builds her starting city.
    act(state, 1, type="build", card="S-CAJAMARCA")
    act(state, 1, type="place", at="1,-1", via="1,0")
    assert state["table"]["1,-1"]["owner"] == 1

    # Play continues until all players have passed.
    for seat in (2, 3, 0, 1):
        assert "pass" in legal_types(state, seat)
        act(state, seat, type="pass")

    # Player 3 terminates the agreement: token to Active, card discarded, one card drawn,
    # any action but a Trade Agreement.
    assert state["phase"] == era.CASH and GAME.to_act(state) == [2]
    assert TRADE in state["discard"] and state["active"][2] == 7 and len(state["hands"][2]) == 1
    assert "trade" not in legal_types(state, 2)
    act(state, 2, type="skip")
    assert state["era"] == 2 and state["first"] == 1
    assert all(tokens_of(state, s) == 70 for s in range(4))
