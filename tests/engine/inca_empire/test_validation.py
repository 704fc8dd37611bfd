"""The fast validator equals the enumerator.

``apply_in_place`` checks the one given action directly (``GAME.find_legal_action``) instead of
looking it up in the whole ``legal_actions`` list (the replay hot path).  On every decision of
random games: every listed action validates (and comes back with its listed label, which the
public log uses); near misses -- a listed action with one field changed, dropped or added --
are rejected exactly when they are not in the list (compared as ``find_legal`` compares:
labels aside, with ``==``); validating never changes the state; a rejected move leaves the
state untouched."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.core import IllegalAction, canonical_json, clone, find_legal, without_label
from engine.games.inca_empire import GAME, actions, board, era, rules

from .helpers import act, put
from .test_card_actions import TA, WF, colca_table

TYPES = ["show", "take", "build", "workforce", "trade", "terrace", "pass", "skip", "place",
         "road", "temple", "stock", "restrict", "nothing", "done", "no-such-type", None]
JUNK = [None, True, False, 0, 1, 2, 1.0, -1, 99, "", "x", "1, 0", "9,9", "CUSCO", [], ["1,0"],
        {}, {"card": "E1-01"}]
BASES_PER_DECISION = 8


def near_misses(state: dict, seat: int, plain: list[dict], rnd: random.Random) -> list[dict]:
    """Listed actions with one field changed (to a value another listed action, a nearby or
    occupied location, a card in play, or junk has), dropped, or added; road ends swapped;
    plus systematic sweeps over types, cards in hand and locations."""
    seen: dict[str, list] = {}
    for action in plain:
        for k, v in action.items():
            if k != "type":
                seen.setdefault(k, []).append(v)
    every_value = [v for values in seen.values() for v in values]
    locations = sorted({n for k in state["table"] for n in board.neighbours(k)}
                       | set(state["table"]))
    cards = sorted({c for hand in state["hands"] for c in hand}
                   | {p["card"] for p in (state["draft"] or {}).get("pool", [])}
                   | ({state["pending"]["card"]} if state["pending"] else set()))
    probes = []
    for action in rnd.sample(plain, min(BASES_PER_DECISION, len(plain))):
        for k in action:
            if k == "type":
                options = TYPES
            else:
                options = seen.get(k, []) + every_value + locations + cards + JUNK
            for _ in range(3):
                probes.append({**action, k: rnd.choice(options)})
        fields = [k for k in action if k != "type"]
        if fields:
            probe = dict(action)
            del probe[rnd.choice(fields)]
            probes.append(probe)
        probes.append({**action, rnd.choice(["card", "at", "via", "space", "hut", "extra"]):
                       rnd.choice(every_value + locations + cards + JUNK)})
        if action["type"] == "road":
            probes.append({**action, "a": action["b"], "b": action["a"]})
        probes.append({**action, "label": "echoed back", "_client": 1})
    # Systematic sweeps: every bare type; every type with each card in hand (and each trade
    # space); one listed action with each location field set to every nearby location.
    probes += [{"type": t} for t in TYPES]
    for cid in state["hands"][seat]:
        probes += [{"type": t, "card": cid} for t in ("show", "take", "build", "workforce",
                                                        "terrace", "trade")]
        probes += [{"type": "trade", "card": cid, "space": i} for i in range(len(state["trades"]))]
    action = rnd.choice(plain)
    for k in ("at", "via", "a", "b"):
        if k in action:
            probes += [{**action, k: where} for where in locations]
    if "hut" in action:
        probes += [{**action, "hut": i} for i in range(4)]
    return probes


def check_decision(state: dict, seat: int, rnd: random.Random) -> None:
    before = canonical_json(state)
    legal = GAME.legal_actions(state, seat)
    plain = [without_label(a) for a in legal]
    for listed, bare in zip(legal, plain):
        assert GAME.find_legal_action(state, seat, listed) == listed
        assert GAME.find_legal_action(state, seat, bare) == listed
    rejected = None
    for probe in near_misses(state, seat, plain, rnd):
        is_listed = without_label(probe) in plain
        try:
            got = GAME.find_legal_action(state, seat, probe)
        except IllegalAction as error:
            assert not is_listed, (probe, str(error))
            assert str(error) == f"not a legal action now: {canonical_json(without_label(probe))}"
            rejected = probe
            continue
        assert is_listed, probe
        assert got == find_legal(legal, probe)
    assert canonical_json(state) == before, "validation changed the state"
    if rejected is not None:
        with pytest.raises(IllegalAction):
            GAME.apply_in_place(state, seat, rejected)
        assert canonical_json(state) == before, "a rejected move changed the state"


def play_checking_every_decision(players: int, seed: int) -> int:
    """Random play (half the moves the bot's, which builds more) to the end; returns moves."""
    state = GAME.setup([f"P{i}" for i in range(players)], seed, {})
    rnd = random.Random(seed)
    moves = 0
    while GAME.outcome(state) is None:
        assert moves < 5000
        to_act = GAME.to_act(state)
        for idle in set(range(players)) - set(to_act):
            with pytest.raises(IllegalAction, match="not your turn"):
                GAME.apply_in_place(state, idle, {"type": "pass"})
            with pytest.raises(IllegalAction, match="not a legal action"):
                GAME.find_legal_action(state, idle, {"type": "pass"})
        seat = rnd.choice(to_act)
        check_decision(state, seat, rnd)
        if rnd.random() < 0.5:
            action = GAME.bot_action(state, seat)
        else:
            action = rnd.choice(GAME.legal_actions(state, seat))
        GAME.apply_in_place(state, seat, action)
        moves += 1
    return moves


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4), (5, 5)])
def test_fast_validator_equals_enumerator(players, seed):
    assert play_checking_every_decision(players, seed) > 50


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**31))
def test_fast_validator_equals_enumerator_hypothesis(players, seed):
    play_checking_every_decision(players, seed)


def test_apply_in_place_equals_find_legal_over_legal_actions():
    """Same resulting state, byte for byte, as validating by lookup in ``legal_actions``
    (the former ``apply_in_place``), for every listed action of random decisions."""
    def reference_apply(state, seat, action):  # the pre-fast-path apply_in_place
        chosen = find_legal(GAME.legal_actions(state, seat), action)
        state["moves"] += 1
        rules.log_public(state, seat, chosen)
        if state["phase"] == era.SHOW:
            era.apply_show(state, seat, chosen["card"])
        elif state["phase"] == era.PICK:
            era.apply_take(state, seat, chosen["card"])
        else:
            actions.apply(state, seat, chosen)

    for players, seed in ((3, 7), (5, 8)):
        state = GAME.setup([f"P{i}" for i in range(players)], seed, {})
        rnd = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = rnd.choice(GAME.to_act(state))
            legal = GAME.legal_actions(state, seat)
            for action in rnd.sample(legal, min(4, len(legal))):
                bare = GAME.apply(state, seat, without_label(action))
                labelled = GAME.apply(state, seat, action)
                reference = clone(state)
                reference_apply(reference, seat, without_label(action))
                assert canonical_json(bare) == canonical_json(labelled) == canonical_json(reference)
            GAME.apply_in_place(state, seat, GAME.bot_action(state, seat)
                                if rnd.random() < 0.5 else rnd.choice(legal))


def test_fast_validator_on_rare_steps():
    """Steps random games seldom reach: "Stock three storage huts" once three huts are used
    (only those three may take more, under "huts2"), Route Restriction, the temple action."""
    rnd = random.Random(1)
    state = colca_table()
    state["trades"][0] = {"card": TA["huts2"], "owner": 1, "tokens": 1}
    state["supply"][1] -= 1
    state["hands"][0] = [WF["stock"]]
    check_decision(state, 0, rnd)
    act(state, 0, type="workforce", card=WF["stock"])
    for at, hut in [("0,-1", 0), ("0,-1", 1), ("2,-1", 0), ("2,-1", 0)]:
        check_decision(state, 0, rnd)
        act(state, 0, type="stock", at=at, hut=hut)
    assert state["pending"]["used"] == [["0,-1", 0], ["0,-1", 1], ["2,-1", 0]]
    for hut in (1, 2):
        with pytest.raises(IllegalAction):
            GAME.find_legal_action(state, 0, {"type": "stock", "at": "2,-1", "hut": hut})
    for _ in range(5):
        check_decision(state, 0, rnd)

    for kind in ("restrict", "temple"):
        state = colca_table()
        put(state, "S-CAJAMARCA", 1, -1, owner=0, road_from="1,0")  # a temple square
        state["hands"][0] = [WF[kind]]
        act(state, 0, type="workforce", card=WF[kind])
        assert state["pending"]["step"] == kind
        for _ in range(5):
            check_decision(state, 0, rnd)
        if kind == "restrict":
            with pytest.raises(IllegalAction):  # never on Cusco
                GAME.find_legal_action(state, 0, {"type": "restrict", "at": "1,0"})
