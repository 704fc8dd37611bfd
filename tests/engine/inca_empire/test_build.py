"""4a. Build a City or Colca; Examples of Legal Connections; Machu Picchu; Route Restrictions."""
from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.games.inca_empire import actions, board
from engine.games.inca_empire.data import CARDS, ERA_CARDS, MACHU_PICCHU

from .helpers import act, cards_where, in_actions, legal_of, legal_types, put, tokens_of

STARTS = ["S-NAZCA", "S-CAJAMARCA", "S-TIWANAKU", "S-VILCABAMBA"]


def spread_table(state, owner=0):
    """Cusco with all four Start cities built by ``owner``."""
    for s in STARTS:
        put(state, s, *board.START_SPOTS[s], owner=owner, road_from=board.CUSCO_KEY)


def test_start_city_goes_to_its_own_spot_beside_cusco():
    """4a: ONLY Starting Cities connect orthogonally to Cusco; Nazca only to its left."""
    state = in_actions(4, hands=[["S-NAZCA"], None, None, None], active=[10])
    act(state, 0, type="build", card="S-NAZCA")
    assert legal_of(state, 0, "place") == [{"type": "place", "at": "0,0", "via": "1,0"}]


def test_no_other_card_orthogonally_next_to_cusco():
    """4a: no cards other than Start cards may be placed orthogonally next to Cusco."""
    state = in_actions(4, active=[99])
    net = {board.CUSCO_KEY}
    for c in ERA_CARDS:
        if c["type"] in ("city", "colca"):
            for at, via, _ in board.placements(state, c["id"], net, 0, 99):
                assert not board.orth_next_to_cusco(*board.pos(at))


def test_start_card_cannot_be_a_terrace():
    """4a/4d: Starting City cards may NOT be turned into Terraces."""
    state = in_actions(2, hands=[["S-NAZCA"], None])
    assert {a.get("card") for a in legal_of(state, 0, "terrace")} == set()
    with pytest.raises(IllegalAction):
        act(state, 0, type="terrace", card="S-NAZCA")


def test_cards_go_to_their_region_column_wild_colcas_anywhere():
    """4a: Coastal cards in the left column, plateau in the centre, mountain on the right;
    a Wild Colca may be played in ANY region."""
    state = in_actions(4, active=[99])
    spread_table(state)
    state["active"][0] = 99
    net = actions.my_network(state, 0)
    wild_columns = set()
    for c in ERA_CARDS:
        if c["type"] not in ("city", "colca"):
            continue
        for at, _, _ in board.placements(state, c["id"], net, 0, 99):
            col = board.pos(at)[0]
            if c["region"] == "wild":
                wild_columns.add(col)
            else:
                assert ["coastal", "plateau", "mountain"][col] == c["region"]
    assert len(wild_columns) >= 2


def test_build_only_from_own_road_system():
    """4a: you may only build cards that connect on YOUR road system back to Cusco."""
    state = in_actions(2, active=[99, 99])
    spread_table(state, owner=0)
    net1 = actions.my_network(state, 1)
    assert net1 == {board.CUSCO_KEY}
    for c in ERA_CARDS:
        if c["type"] in ("city", "colca"):
            assert all(via == board.CUSCO_KEY for _, via, _ in board.placements(state, c["id"], net1, 0, 99))


def test_connection_kinds():
    """4a continued + card illustrations: Colcas meet Cities edge to edge; Colcas never meet
    Colcas (except Wild Colcas, at the corners); Cities meet Cities at the corners, at most
    two cards apart."""
    city, colca, wild = (CARDS[cards_where(type="city")[0]], CARDS[cards_where(type="colca", region="coastal")[0]],
                         CARDS[cards_where(type="colca", region="wild")[0]])
    lk = board.link_kind
    assert lk(city, colca, "N", 1) and lk(colca, city, "E", 1)
    assert not lk(colca, colca, "N", 1) and not lk(wild, colca, "N", 1)
    assert not lk(city, city, "E", 1)
    assert lk(city, city, "NE", 1) and lk(city, city, "NE", 2)
    assert not lk(city, colca, "NE", 1)
    assert not lk(colca, colca, "NE", 1) and lk(wild, colca, "SW", 1) and lk(colca, wild, "NE", 1)
    assert not lk(wild, colca, "SW", 2)
    assert lk(CARDS["CUSCO"], CARDS["S-NAZCA"], "W", 1)


def test_cities_no_more_than_two_cards_apart():
    """Card illustration: cities connect from the corners, no more than two cards apart."""
    a = cards_where(type="city", region="coastal")[0]
    b = cards_where(type="city", region="mountain")[0]
    assert board.road_numbers(a, "0,0", b, "3,3") is None  # three apart: never
    matches = [(x, y) for x in cards_where(type="city", region="coastal")
               for y in cards_where(type="city", region="mountain")
               if CARDS[x]["ports"]["SE"][0] == CARDS[y]["ports"]["NW"][0]]
    x, y = matches[0]
    assert board.road_numbers(x, "0,-3", y, "2,-1") == (CARDS[x]["ports"]["SE"][1], CARDS[y]["ports"]["NW"][1])


def test_matching_icons_and_road_cost_is_the_sum():
    """4a continued: cards connect with matching icons; the road costs the sum of the two
    numbers (Examples: Matching icons)."""
    cities = cards_where(type="city")
    good = next((x, y) for x in cities for y in cities if x != y
                and CARDS[x]["ports"]["NE"][0] == CARDS[y]["ports"]["SW"][0])
    bad = next((x, y) for x in cities for y in cities if x != y
               and CARDS[x]["ports"]["NE"][0] != CARDS[y]["ports"]["SW"][0])
    nums = board.road_numbers(good[0], "0,2", good[1], "1,1")
    assert nums == (CARDS[good[0]]["ports"]["NE"][1], CARDS[good[1]]["ports"]["SW"][1])
    assert board.road_numbers(bad[0], "0,2", bad[1], "1,1") is None


def test_build_pays_road_and_fame_from_active_pool():
    """4a: road tokens (sum of the numbers) and fame tokens (the number in the box) come
    from the Active Pool and claim the card."""
    state = in_actions(4, hands=[["S-VILCABAMBA"], None, None, None], active=[10])
    act(state, 0, type="build", card="S-VILCABAMBA")
    act(state, 0, type="place", at="2,0", via="1,0")
    here = state["table"]["2,0"]
    assert here["owner"] == 0 and here["fame"] == 1
    assert state["roads"] == [{"a": "1,0", "b": "2,0", "owner": 0, "cost": 2}]
    assert state["active"][0] == 7 and tokens_of(state, 0) == 70


def test_cannot_build_without_enough_active_tokens():
    """4a: the tokens come from the Active Pool; a build that cannot be paid is not offered."""
    state = in_actions(4, hands=[["S-NAZCA"], None, None, None], active=[2])
    assert "build" not in legal_types(state, 0)


def test_other_players_build_roads_to_claimed_cards():
    """Examples: multiple players may build roads to and from other players' claimed cards."""
    colca = "E1-21"  # coastal Colca whose south edge matches Nazca's north edge
    state = in_actions(2, hands=[None, [colca, "E1-01"]], active=[10, 10])
    put(state, "S-NAZCA", 0, 0, owner=0, road_from="1,0")
    state["turn"] = 1
    assert "build" not in legal_types(state, 1)
    act(state, 1, type="terrace", card="E1-01")
    act(state, 1, type="road", a="0,0", b="1,0")
    assert "0,0" in actions.my_network(state, 1)
    state["turn"] = 1
    state["acted"][1] = 0
    act(state, 1, type="build", card=colca)
    assert {"type": "place", "at": "0,-1", "via": "0,0"} in legal_of(state, 1, "place")


def test_route_restriction_blocks_roads_not_temples_or_huts():
    """Route Restrictions: no additional roads to or from that location; temples and storage
    huts may still be used by a player whose road was built before."""
    restrict = cards_where(type="workforce", era=1)[1]
    assert CARDS[restrict]["action"]["kind"] == "restrict"
    state = in_actions(2, hands=[[restrict, "E1-21"], ["E1-02"]], active=[20, 20])
    put(state, "S-CAJAMARCA", 1, -1, owner=0, road_from="1,0")
    put(state, "S-NAZCA", 0, 0, owner=0, road_from="1,0")
    act(state, 0, type="workforce", card=restrict)
    assert {"type": "restrict", "at": "1,0"} not in legal_of(state, 0, "restrict")  # not Cusco
    act(state, 0, type="restrict", at="0,0")
    assert state["restrictions_left"] == 4
    state["turn"] = 0
    net = actions.my_network(state, 0)
    # the Colca north of Nazca would need a new road from Nazca
    assert all(via != "0,0" for _, via, _ in board.placements(state, "E1-21", net, 0, 20))
    roads = board.road_options(state, 0, net, 0, 20)
    assert not any("0,0" in (a, b) for a, b, _ in roads)
    temples = actions.temple_options(state, 0, net)
    assert any(t["at"] == "1,-1" for t in temples)


def test_machu_picchu_connects_only_to_cusco_with_one_token():
    """Machu Picchu: in its own column right of the mountains, joined directly to Cusco with
    one road token; no City or Colca connections, no Wild Colcas."""
    state = in_actions(5, hands=[[MACHU_PICCHU], None, None, None, None], active=[10])
    act(state, 0, type="build", card=MACHU_PICCHU)
    assert legal_of(state, 0, "place") == [{"type": "place", "at": "3,0", "via": "1,0"}]
    act(state, 0, type="place", at="3,0", via="1,0")
    assert state["roads"][-1]["cost"] == 1 and state["active"][0] == 10 - 1 - 3
    for c in ERA_CARDS:
        if c["type"] in ("city", "colca"):
            assert all(via != "3,0" for _, via, _ in board.placements(state, c["id"], {"1,0", "3,0"}, 0, 99))
    roads = board.road_options(state, 1, {"1,0"}, 0, 10)
    assert [r for r in roads if "3,0" in r[:2]] == [("3,0", "1,0", 1)]


def test_extra_start_city_may_be_reached_by_roads():
    """Setup note: the extra Start city cannot be claimed, but roads may be built to it."""
    state = in_actions(2, seed=3, active=[10, 10])
    extra = next(k for k, v in state["table"].items() if v["card"] != "CUSCO")
    card = next(c for c in state["hands"][0] if CARDS[c]["type"] != "start")
    act(state, 0, type="terrace", card=card)
    road = [r for r in legal_of(state, 0, "road") if extra in (r["a"], r["b"])]
    assert road
    act(state, 0, **road[0])
    assert extra in actions.my_network(state, 0) and state["table"][extra]["owner"] is None
