"""4b Extra Workforce, 4c Trade Agreement, 4d Terrace, 4e no action, and the FAQ."""
from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.games.inca_empire import GAME, actions, board
from engine.games.inca_empire.data import CARDS

from .helpers import act, cards_where, in_actions, legal_of, legal_types, put, tokens_of

WF = {CARDS[c]["action"]["kind"]: c for c in cards_where(type="workforce", era=1)}
TA = {CARDS[c]["effect"]["kind"]: c for c in cards_where(type="trade", era=1)}


def test_workforce_token_from_supply_to_card_to_active_and_terrace():
    """4b: a Supply token goes on the card, the card's action is taken, the token moves to the
    Active Pool and the card becomes a Terrace (face down)."""
    state = in_actions(2, hands=[[WF["activate"]], None])
    supply, active = state["supply"][0], state["active"][0]
    act(state, 0, type="workforce", card=WF["activate"])
    assert state["supply"][0] == supply - 3 and state["active"][0] == active + 3
    assert state["terraces"][0] == [WF["activate"]] and state["acted"][0] == 1
    assert tokens_of(state, 0) == 70 and GAME.to_act(state) == [1]


def test_workforce_draw_cards_raises_epoch():
    """4b: an Extra Workforce card that draws cards reveals new information."""
    state = in_actions(2, hands=[[WF["draw"]], None])
    epoch = state["epoch"]
    act(state, 0, type="workforce", card=WF["draw"])
    assert len(state["hands"][0]) == 2 and state["epoch"] == epoch + 1


def test_workforce_needs_a_supply_token():
    """4b: the token on the card comes from the Supply."""
    state = in_actions(2, hands=[[WF["activate"]], None])
    state["active"][0] += state["supply"][0]
    state["supply"][0] = 0
    assert "workforce" not in legal_types(state, 0)


def test_trade_agreement_between_two_adjacent_players_token_from_supply():
    """4c: the card goes into an empty space between two adjacent players, with one token
    from the Supply (rule text and Sample Play; the illustration's "Active Pool" label is
    overruled); it applies to those two players for the rest of the Era."""
    state = in_actions(4, hands=[[TA["huts2"]], None, None, None])
    spaces = {a["space"] for a in legal_of(state, 0, "trade")}
    assert spaces == {0, 1, 2, 3}
    supply, active = state["supply"][0], state["active"][0]
    act(state, 0, type="trade", card=TA["huts2"], space=3)  # between P3 and P0
    assert state["trades"][3] == {"card": TA["huts2"], "owner": 0, "tokens": 1}
    assert state["supply"][0] == supply - 1 and state["active"][0] == active
    assert actions.effects(state, 3)["huts2"] and actions.effects(state, 0)["huts2"]
    assert not actions.effects(state, 1)["huts2"] and not actions.effects(state, 2)["huts2"]
    assert tokens_of(state, 0) == 70


def test_trade_agreement_space_must_be_empty():
    """4c: an EMPTY space between two adjacent players."""
    state = in_actions(2, hands=[[TA["huts2"], TA["road_discount"]], None])
    act(state, 0, type="trade", card=TA["huts2"], space=0)
    state["turn"] = 0
    assert {a["space"] for a in legal_of(state, 0, "trade")} == {1}


def colca_table(n=2):
    """Seat 0 owns Nazca with the coastal Colca (2 fish huts) north of it, and Vilcabamba
    with the mountain Colca (3 huts) north of it."""
    state = in_actions(n, active=[30] + [10] * (n - 1))
    put(state, "S-NAZCA", 0, 0, owner=0, road_from="1,0")
    put(state, "E1-21", 0, -1, owner=0, road_from="0,0")
    put(state, "S-VILCABAMBA", 2, 0, owner=0, road_from="1,0")
    put(state, "E1-23", 2, -1, owner=0, road_from="2,0")
    return state


def test_faq_two_token_huts_and_stock_three_huts_gives_six_tokens():
    """FAQ: with "Storage Huts may have two tokens" in play, "Stock three storage huts" puts
    six tokens on three huts."""
    state = colca_table()
    state["trades"][0] = {"card": TA["huts2"], "owner": 1, "tokens": 1}
    state["supply"][1] -= 1
    state["hands"][0] = [WF["stock"]]
    act(state, 0, type="workforce", card=WF["stock"])
    placed = 0
    for at, hut in [("0,-1", 0), ("0,-1", 0), ("0,-1", 1), ("0,-1", 1), ("2,-1", 0), ("2,-1", 0)]:
        act(state, 0, type="stock", at=at, hut=hut)
        placed += 1
    assert placed == 6 and GAME.to_act(state) == [1]  # the card's action ended by itself
    assert sum(len(h) for v in state["table"].values() for h in v["huts"]) == 6
    assert tokens_of(state, 0) == 70


def test_stock_three_huts_at_most_three_huts():
    """Workforce "Stock three storage huts": three different huts at most."""
    state = colca_table()
    state["hands"][0] = [WF["stock"]]
    act(state, 0, type="workforce", card=WF["stock"])
    for at, hut in [("0,-1", 0), ("0,-1", 1), ("2,-1", 0)]:
        act(state, 0, type="stock", at=at, hut=hut)
    assert GAME.to_act(state) == [1] and state["pending"] is None


def test_hut_holds_one_token_without_the_agreement():
    """4d: a storage hut is claimed by one token."""
    state = colca_table()
    state["table"]["0,-1"]["huts"][0].append(0)
    state["active"][0] -= 1
    state["hands"][0] = ["E1-02"]
    act(state, 0, type="terrace", card="E1-02")
    assert {"type": "stock", "at": "0,-1", "hut": 0} not in legal_of(state, 0, "stock")
    assert {"type": "stock", "at": "0,-1", "hut": 1} in legal_of(state, 0, "stock")


def test_terrace_token_card_and_four_choices():
    """4d: the card goes face down, a Supply token goes on it; then a road between two
    locations, a temple, stocking a Colca, or nothing; the token then moves to the Active Pool."""
    state = colca_table()
    put(state, "S-CAJAMARCA", 1, -1, owner=0, road_from="1,0")
    state["hands"][0] = ["E1-02"]
    supply, active = state["supply"][0], state["active"][0]
    act(state, 0, type="terrace", card="E1-02")
    assert state["terraces"][0] == ["E1-02"] and state["supply"][0] == supply - 1
    assert state["pending"]["token"] == 1 and tokens_of(state, 0) == 70
    assert legal_types(state, 0) >= {"road", "temple", "stock", "nothing"}
    act(state, 0, type="temple", at="1,-1")
    assert state["table"]["1,-1"]["temple"] == {"owner": 0, "tokens": 2}
    assert state["active"][0] == active - 2 + 1 and tokens_of(state, 0) == 70


def test_temple_only_one_player_per_gold_square():
    """4d: only one player may stack on the gold square."""
    state = colca_table()
    put(state, "S-CAJAMARCA", 1, -1, owner=0, road_from="1,0")
    state["roads"].append({"a": "1,0", "b": "1,-1", "owner": 1, "cost": 2})
    state["active"][1] -= 2
    state["table"]["1,-1"]["temple"] = {"owner": 0, "tokens": 2}
    state["active"][0] -= 2
    state["turn"] = 1
    card = next(c for c in state["hands"][1] if CARDS[c]["type"] != "start")
    act(state, 1, type="terrace", card=card)
    assert "temple" not in legal_types(state, 1)


def test_terrace_actions_only_on_own_road_system():
    """4d: the actions can only be performed on cards connected to Cusco by your roads."""
    state = colca_table()
    state["turn"] = 1
    card = next(c for c in state["hands"][1] if CARDS[c]["type"] != "start")
    act(state, 1, type="terrace", card=card)
    assert "stock" not in legal_types(state, 1)
    for r in legal_of(state, 1, "road"):
        assert "1,0" in (r["a"], r["b"])


def test_terrace_do_nothing_sample_play():
    """4d + Sample Play (player 4): a Terrace with no action moves its token to the Active Pool."""
    state = in_actions(2, hands=[["E1-02"], None])
    supply, active = state["supply"][0], state["active"][0]
    act(state, 0, type="terrace", card="E1-02")
    act(state, 0, type="nothing")
    assert state["supply"][0] == supply - 1 and state["active"][0] == active + 1


def test_road_discount_agreement():
    """4c: an agreement's text applies only to its two players ("roads cost one less")."""
    state = in_actions(4, hands=[["S-NAZCA"], None, None, None], active=[10, 10, 10, 10])
    state["trades"][0] = {"card": TA["road_discount"], "owner": 1, "tokens": 1}
    state["supply"][1] -= 1
    act(state, 0, type="build", card="S-NAZCA")
    act(state, 0, type="place", at="0,0", via="1,0")
    assert state["roads"][-1]["cost"] == 1 and state["active"][0] == 8
    assert actions.effects(state, 2)["road_discount"] == 0


def test_shared_roads_agreement():
    """4c: "use each other's roads": the partner's road system counts as yours this Era."""
    state = colca_table(3)
    assert "0,-1" not in actions.my_network(state, 1)
    state["trades"][0] = {"card": TA["shared_roads"], "owner": 1, "tokens": 1}
    state["supply"][1] -= 1
    assert "0,-1" in actions.my_network(state, 1) and "0,-1" not in actions.my_network(state, 2)


def test_terrace_bonus_agreement():
    """4c: "When you build a Terrace, also move 1 token from Supply to Active Pool"."""
    state = in_actions(2, hands=[["E1-02"], None])
    state["trades"][1] = {"card": TA["terrace_bonus"], "owner": 1, "tokens": 1}
    state["supply"][1] -= 1
    active = state["active"][0]
    act(state, 0, type="terrace", card="E1-02")
    act(state, 0, type="nothing")
    assert state["active"][0] == active + 2 and tokens_of(state, 0) == 70


def test_illegal_action_leaves_state_untouched():
    """Engine contract: a refused action changes nothing and says why."""
    state = in_actions(2, hands=[["E1-02"], None])
    from engine.core import canonical_json
    before = canonical_json(state)
    for bad in ({"type": "terrace", "card": "E4-01"}, {"type": "pass"}, {"type": "build", "card": "E1-02"}):
        with pytest.raises(IllegalAction):
            act(state, 0, **bad)
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 1, type="pass")
    assert canonical_json(state) == before


def test_workforce_temple_and_restrict_actions():
    """4b: the card's own action: "Build a temple" / "Place a Route Limitation token"."""
    state = colca_table()
    put(state, "S-CAJAMARCA", 1, -1, owner=0, road_from="1,0")
    state["hands"][0] = [WF["temple"]]
    act(state, 0, type="workforce", card=WF["temple"])
    assert legal_types(state, 0) == {"temple", "done"}
    act(state, 0, type="temple", at="1,-1")
    assert state["table"]["1,-1"]["temple"]["owner"] == 0 and tokens_of(state, 0) == 70
    state["turn"] = 0
    state["hands"][0] = [WF["restrict"]]
    act(state, 0, type="workforce", card=WF["restrict"])
    assert legal_types(state, 0) == {"restrict"}
    act(state, 0, type="restrict", at="0,-1")
    assert state["table"]["0,-1"]["restricted"] and state["terraces"][0][-1] == WF["restrict"]


def test_route_restriction_tokens_run_out():
    """Contents: 5 Route Restriction tokens; without one the card's action does nothing."""
    state = colca_table()
    state["restrictions_left"] = 0
    state["hands"][0] = [WF["restrict"]]
    act(state, 0, type="workforce", card=WF["restrict"])
    assert state["pending"] is None and GAME.to_act(state) == [1]
    assert not any(v["restricted"] for v in state["table"].values())


def test_terrace_road_follows_building_restrictions():
    """4d: a Terrace road joins two existing locations under the City/Colca rules: matching
    icons, the right kinds of card, never Colca to Colca without a Wild Colca."""
    state = colca_table()
    state["hands"][0] = ["E1-02"]
    act(state, 0, type="terrace", card="E1-02")
    for r in legal_of(state, 0, "road"):
        a, b = state["table"][r["a"]]["card"], state["table"][r["b"]]["card"]
        assert board.road_numbers(a, r["a"], b, r["b"]) is not None
        assert not (CARDS[a]["type"] == CARDS[b]["type"] == "colca"
                    and "wild" not in (CARDS[a]["region"], CARDS[b]["region"]))


def test_view_table_is_drawable_data():
    """View: the table as a grid of placed cards with owners, tokens, roads, temples, huts."""
    import json
    state = colca_table()
    state["table"]["0,-1"]["huts"][0].append(0)
    view = GAME.view(state, 1)
    json.dumps(view)
    cell = next(t for t in view["table"] if (t["column"], t["row"]) == (0, -1))
    assert cell["card"] == "E1-21" and cell["owner"] == 0 and cell["fame_tokens"] == 1
    assert cell["huts"][0] == {"good": "fish", "tokens": [0]} and cell["region"] == "coastal"
    assert {"a": [1, 0], "b": [0, 0], "owner": 0, "cost": 2} in view["roads"]
    assert view["you"]["hand"] == state["hands"][1] and "hands" not in view
