"""What one seat cannot see of an Incan Gold state, drawn again for a search (``determinize``).

Secret from a seat (docs "Hidden information"): the deck's order and the classic artifacts'
order of entry (drawn again by ``rules.reshuffle_unseen``; the 2018 edition's order is
printed, so it is set to that), and what the other seats alone
know -- their tents (ja "他人のテントに触ったり、その中身を見て数えることはできない") and
the stay/leave choice each has already made this turn ("Every seat still inside secretly
chooses stay or leave").  ``redeal_hidden`` replaces those two from what the seat can know:

* the tents by an estimate from the public record -- the gems banked in all are the treasures
  turned minus the gems lost, and the seat knows its own tent, so the rest is the other seats'
  in all; it is split among them by the gems each round left to those who were not caught;
* a pending choice by the opponent model (the easy bot's rule with a sampled courage), so the
  seats that have decided stay decided and ``to_act`` is what the seat sees.

Nothing here reads a tent, a choice, the deck's order or the seed: the result depends only on
the seat's view and the chooser."""
from __future__ import annotations

import random

from . import data, opponent_model, view as view_mod


def redeal_hidden(state: dict, seat: int, chooser: random.Random) -> None:
    seen = view_mod.view(state, seat)
    if seen["game_over"]:
        return
    if not data.EDITIONS[state["options"]["artifacts"]]["shuffle"]:
        state["artifacts_to_come"] = printed_artifacts_to_come(state)
    for other, tent in estimated_tents(seen, chooser).items():
        state["players"][other]["tent"] = tent
    decided = [other for other, p in enumerate(state["players"])
               if other != seat and p["in_temple"] and p["choice"] is not None]
    opponent_model.choose_pending(state, decided, opponent_model.FreshMoods(chooser))


def printed_artifacts_to_come(state: dict) -> list[str]:
    """The 2018 artifacts still to come, in the printed order they enter ("artifacts numbered
    5, 7, 8, 10, 12, added in that order" -- notes): public, so the world keeps it whatever
    order the real state's copy holds."""
    cards = data.EDITIONS[state["options"]["artifacts"]]["cards"]
    count = len(state["artifacts_to_come"])
    return list(cards[len(cards) - count:])


def estimated_tents(seen: dict, chooser: random.Random) -> dict[int, int]:
    """Every other seat's tent as the seat can estimate it: the gems the others banked in all
    (exact), shared in proportion to what each round left to those it did not catch."""
    you = seen["you"]
    others = [p["seat"] for p in seen["players"] if p["seat"] != you]
    weights = round_shares(seen)
    total = max(0, banked_in_all(seen) - seen["players"][you]["tent"])
    weight_sum = sum(weights[s] for s in others)
    if weight_sum <= 0:
        weights = {s: 1.0 for s in others}
        weight_sum = float(len(others))
    tents = {s: int(total * weights[s] / weight_sum) for s in others}
    for _ in range(total - sum(tents.values())):
        tents[chooser.choice(others)] += 1
    return tents


def banked_in_all(seen: dict) -> int:
    """Gems in all tents together: every treasure turned, minus what finished rounds lost,
    minus what is still carried or lying on the path this round."""
    finished = sum(treasure_on(entry["path"]) - entry["gems_lost"] for entry in seen["history"])
    carried = sum(p["carrying"] for p in seen["players"] if p["in_temple"])
    return finished + treasure_on(seen["path"]) - seen["path_gems"] - carried


def round_shares(seen: dict) -> dict[int, float]:
    """Per seat, the gems each round banked divided evenly among the seats that banked them
    (those not caught; this round: those who have left) -- a rough split, as the seat cannot
    tell who left when."""
    shares = {p["seat"]: 0.0 for p in seen["players"]}
    for entry in seen["history"]:
        safe = [s for s in shares if s not in entry["caught"]]
        for s in safe:
            shares[s] += (treasure_on(entry["path"]) - entry["gems_lost"]) / len(safe)
    left = [p["seat"] for p in seen["players"] if not p["in_temple"]]
    carried = sum(p["carrying"] for p in seen["players"] if p["in_temple"])
    banked_now = treasure_on(seen["path"]) - seen["path_gems"] - carried
    for s in left:
        shares[s] += banked_now / len(left)
    return shares


def treasure_on(path: list[dict]) -> int:
    return sum(c["value"] for c in path if c["type"] == "treasure")
