"""What an Incan Gold move did, in public words.

Its public view keeps no log: a seat's stay or leave is secret until everyone inside has
chosen, and then the view's ``last_reveal`` (and, at a round's end, its ``history``) tells
who left, with how many gems, and who stayed.  So a move is told as "Dee has chosen" until
it completes a turn, and then as what the reveal shows: "Dee left the temple with 7 gems"
(what Dee carried, which every seat sees, plus the share of the path the reveal names)."""
from __future__ import annotations

from engine.text import Phrase, counted, phrase, term
from service.view.games.incan_gold.board import HAZARD_NAME


def told(before: dict | None, after: dict, seat, names: list[str]) -> list[Phrase]:
    """The phrases of one move of ``seat``, from the public views before and after it."""
    reveal = after.get("last_reveal")
    if before is None or reveal is None or reveal == before.get("last_reveal"):
        return [phrase("{player} has chosen.", player=_name(names, seat))]
    lines = _leavers(before, reveal, names)
    if reveal["stayed"]:
        lines.append(phrase("{players} stayed in the temple.",
                            players=[_name(names, s) for s in reveal["stayed"]]))
        if reveal["round"] == after["round"] and after["path"]:
            lines.append(_turned_up(after["path"][-1]))
    if len(after["history"]) > len(before["history"]):
        lines.extend(_round_over(after["history"][-1], names))
    return lines


def _name(names: list[str], seat) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def _leavers(before: dict, reveal: dict, names: list[str]) -> list[Phrase]:
    lines = []
    for seat in reveal["left"]:
        gems = before["players"][seat]["carrying"] + reveal["share"]
        lines.append(counted("{player} left the temple with {n} gem.",
                             "{player} left the temple with {n} gems.", gems,
                             player=_name(names, seat)))
    if reveal["artifacts"] and reveal["left"]:
        lines.append(counted("{player} took the artifact worth {values}.",
                             "{player} took the artifacts worth {values}.",
                             len(reveal["artifacts"]), player=_name(names, reveal["left"][0]),
                             values=[str(v) for v in reveal["artifacts"]]))
    return lines


def _turned_up(card: dict) -> Phrase:
    if card["type"] == "treasure":
        return counted("A treasure of {n} gem was turned up.",
                       "A treasure of {n} gems was turned up.", card.get("value") or 0)
    if card["type"] == "hazard":
        return phrase("A hazard was turned up: {hazard}.", hazard=_hazard(card["hazard"]))
    return phrase("An artifact was turned up.")


def _hazard(kind: str) -> Phrase:
    return term(HAZARD_NAME.get(kind, "hazard"))


def _round_over(entry: dict, names: list[str]) -> list[Phrase]:
    if entry["ended_by"] == "all_left":
        return [phrase("Round {round} is over: everyone left the temple.", round=entry["round"])]
    if entry["ended_by"] != "hazard":
        return [phrase("Round {round} is over.", round=entry["round"])]
    lines = [phrase("Round {round} is over: a second {hazard} card came up.",
                    round=entry["round"], hazard=_hazard(entry["hazard"]))]
    if entry["caught"]:
        lines.append(phrase("{players} fled empty-handed.",
                            players=[_name(names, s) for s in entry["caught"]]))
    return lines
