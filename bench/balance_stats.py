"""What a finished game tells about its own balance, one reader per game, found by game name.

The benchmark plays games; these readers look at each finished state and the moves that led to
it and count what balance is judged by: how the game ended, how long it ran in the game's own
rounds, which parts of the board were used, which goals and cards paid.  A reader returns plain
counts (picklable, so games can be played in other processes) that add up over games; the
matching ``report`` turns the summed counts into markdown tables.

Each game's counts follow its own rules, read from the engine rather than guessed:

* Incan Gold: a round goes on "上記の流れを全プレイヤーが神殿から脱出するか、2枚目の同じ絵の障害物カード
  が出るまで続ける" (until every player has left the temple or a second hazard of the same
  picture is revealed; incan_gold.ja.txt); ``rules.end_round`` records which in
  ``history[*].ended_by``.
* Machu Picchu: "When all 15 Priests and Virgins are acquired by the players ... the game ends
  immediately ... Likewise the game ends immediately if the stack with the 28 Sacrifice Cards is
  exhausted", and "If there is no rescue of Machu Picchu, the game ends after day 9 is over"
  (machu_picchu.en.night_end_setup.txt); ``rules.rescue_reason`` keeps the reason in
  ``state["over"]``.  Virgins are the House of Virgins' "sun" offers, Priests the House of
  Priests' "condor" and "puma" offers (``data.HOUSE_OFFERS``).  In a conquest "a player who has
  the most gold multiplies his victory points by 3, and a player with the second most gold
  multiplies his victory points by 2" (``scoring.conquest_multipliers``).
* Inca Empire: at the End of the Game each player scores its tokens on the table and may
  "Choose three of your five goal cards to score" (inca_empire_card_game.en.txt);
  ``scoring.seat_score`` keeps both in ``state["final"]``.

A game's own modules are imported when one of its games is first read, as ``engine.registry``
does, so reading one game never loads another.
"""
from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Callable

Counts = dict[str, float]


@dataclass(frozen=True)
class Reader:
    """How one game is read: ``read(final_state, moves)`` gives the counts of one game (moves are
    ``(seat, action)`` in order); ``rounds`` the game's own length unit (None: it has none);
    ``report(summed counts, games)`` the markdown lines of its game-specific tables, for one
    player count; ``overall`` (if any) the tables worth giving once, over every player count."""
    read: Callable[[dict, list[tuple[int, dict]]], Counts]
    rounds: Callable[[dict], int | None]
    report: Callable[[Counts, int], list[str]]
    overall: Callable[[Counts, int], list[str]] | None = None


def percent(part: float, whole: float) -> str:
    return f"{100 * part / whole:.0f}" if whole else "–"


def per_game(total: float, games: int) -> str:
    return f"{total / games:.2f}" if games else "–"


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + \
           ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]


# --------------------------------------------------------------------------- Incan Gold

INCAN_GOLD_ROUND_ENDS = {"all_left": "all left", "hazard": "second hazard",
                         "deck_empty": "deck ran out"}


def read_incan_gold(state: dict, moves: list[tuple[int, dict]]) -> Counts:
    counts: Counter = Counter()
    for ended in state["history"]:
        cause = INCAN_GOLD_ROUND_ENDS.get(ended["ended_by"], ended["ended_by"])
        counts[f"round ended: {cause}"] += 1
        counts["players caught"] += len(ended["caught"])
        counts["gems lost"] += ended["gems_lost"]
    counts["artifacts claimed"] += state["artifacts_claimed"]
    counts["gems revealed"] += state["gems_revealed"]
    return dict(counts)


def report_incan_gold(counts: Counts, games: int) -> list[str]:
    rounds = sum(v for k, v in counts.items() if k.startswith("round ended: "))
    ends = [[label, percent(counts.get(f"round ended: {label}", 0), rounds)]
            for label in INCAN_GOLD_ROUND_ENDS.values()]
    lines = table(["how a round ends", "% of rounds"], ends)
    lines += [""] + table(["a game, on average", "count"],
                          [[k, per_game(counts.get(k, 0), games)]
                           for k in ("players caught", "gems revealed", "gems lost",
                                     "artifacts claimed")])
    return lines


# --------------------------------------------------------------------------- Machu Picchu

MACHU_PICCHU_ENDINGS = {"conquest": "conquest (day 9 ends)",
                        "rescue_priests": "rescue: all Priests and Virgins taken",
                        "rescue_deck": "rescue: Sacrifice Cards exhausted"}


def visits(district: str) -> Callable[[dict], bool]:
    return lambda action: action.get("type") == "move" and action.get("to") == district


MACHU_PICCHU_USES = {   # count label -> does this move count for it
    "Sun Clock visits": visits("sun_clock"),
    "Sun Clock uses": lambda a: a.get("type") == "sun_clock",
    "House of Virgins visits": visits("house_of_virgins"),
    "House of Priests visits": visits("house_of_priests"),
    "Virgins taken": lambda a: a.get("type") == "take" and a.get("priest") == "sun",
    "Priests taken": lambda a: a.get("type") == "take" and a.get("priest") in ("condor", "puma"),
}


def read_machu_picchu(state: dict, moves: list[tuple[int, dict]]) -> Counts:
    counts: Counter = Counter()
    reason = (state.get("over") or {}).get("reason", "unfinished")
    counts[f"ending: {MACHU_PICCHU_ENDINGS.get(reason, reason)}"] += 1
    for _, action in moves:
        for label, matches in MACHU_PICCHU_USES.items():
            counts[label] += matches(action)
    for label, matches in MACHU_PICCHU_USES.items():   # games in which it happened at all
        counts[f"games with {label}"] += any(matches(a) for _, a in moves)
    if reason == "conquest":
        from engine.games.machu_picchu.scoring import outcome
        found = outcome(state)
        for seat in found["winners"]:
            counts[f"conquest winner's multiplier x{found['detail'][seat]['multiplier']}"] += \
                1 / len(found["winners"])
    return dict(counts)


def report_machu_picchu(counts: Counts, games: int) -> list[str]:
    ends = [[label, percent(counts.get(f"ending: {label}", 0), games)]
            for label in MACHU_PICCHU_ENDINGS.values()]
    lines = table(["how the game ends", "% of games"], ends)
    lines += [""] + table(["used", "a game, on average", "% of games with any"],
                          [[label, per_game(counts.get(label, 0), games),
                            percent(counts.get(f"games with {label}", 0), games)]
                           for label in MACHU_PICCHU_USES])
    conquests = counts.get(f"ending: {MACHU_PICCHU_ENDINGS['conquest']}", 0)
    if conquests:
        lines += [""] + table(
            ["in a conquest, the winner's gold multiplier", "% of conquests"],
            [[f"×{m}", percent(counts.get(f"conquest winner's multiplier x{m}", 0), conquests)]
             for m in (3, 2, 1)])
    return lines


# --------------------------------------------------------------------------- Inca Empire

INCA_EMPIRE_USES = {"take": "drafted", "build": "built", "workforce": "played as workforce",
                    "trade": "played as Trade Agreement", "terrace": "built as terrace"}


# What a copy card does, in the words of its text (data.py), short enough for a table row.
INCA_EMPIRE_EFFECT_WORDS = {
    "huts2": "storage huts hold two", "road_discount": "roads cost 1 less",
    "shared_roads": "shared roads", "terrace_bonus": "a token with each Terrace",
    "activate": "activate tokens", "draw": "draw 2 cards", "restrict": "Route Limitation",
    "stock": "stock three huts", "temple": "build a temple",
}


def inca_empire_card(card_id: str) -> dict:
    from engine.games.inca_empire.data import CARDS
    return CARDS[card_id]


def inca_empire_card_group(card_id: str) -> str:
    """A card's group: its type, and what it does or where it lies ("city: coastal",
    "workforce: draw")."""
    card = inca_empire_card(card_id)
    return f"{card['type']}: {inca_empire_card_detail(card)}"


def inca_empire_card_detail(card: dict) -> str:
    """What a card does (Trade Agreements, Extra Workforce) or where it lies (the rest)."""
    does = (card.get("action") or card.get("effect") or {}).get("kind")
    return INCA_EMPIRE_EFFECT_WORDS.get(does, does) if does else card.get("region", "plateau")


def inca_empire_card_name(card_id: str) -> str:
    """A card as a player knows it: cities by name; the cards that come in copies (Colcas, Trade
    Agreements, Extra Workforce) by name and what they do or where they lie."""
    card = inca_empire_card(card_id)
    if card["type"] in ("city", "start", "cusco"):
        return f"{card['name']} ({card['type']}, {inca_empire_card_detail(card)})"
    return f"{card['name']} ({inca_empire_card_detail(card)})"


def location_points(place: dict) -> int:
    """The tokens standing on one location at the end: what building it scored (one point a
    token, whoever placed it)."""
    temple = place["temple"]["tokens"] if place["temple"] else 0
    return place["fame"] + temple + sum(len(hut) for hut in place["huts"])


def read_inca_empire(state: dict, moves: list[tuple[int, dict]]) -> Counts:
    counts: Counter = Counter()
    for final in state["final"] or []:
        best = set(final["scored_goals"])
        counts["seats"] += 1
        for goal in final["goals"]:
            counts[f"goal|{goal['id']}|held"] += 1
            counts[f"goal|{goal['id']}|met"] += goal["points"] > 0
            counts[f"goal|{goal['id']}|scored"] += goal["id"] in best and goal["points"] > 0
        counts["goal points"] += final["goal_points"]
        counts["token points"] += final["tokens"]
    for _, action in moves:
        use = INCA_EMPIRE_USES.get(action.get("type"))
        if use and "card" in action:
            counts[f"card|{action['card']}|{use}"] += 1
    built = {action["card"] for _, action in moves if action.get("type") == "build"}
    for place in state["table"].values():
        if place["card"] in built:
            counts[f"card|{place['card']}|points"] += location_points(place)
    return dict(counts)


def inca_empire_card_rows(counts: Counts, games: int, label: Callable[[str], str]) -> list[list]:
    """One row per label: each use a game, and the tokens standing on it at the end per build."""
    summed: dict[str, Counter] = {}
    for key, value in counts.items():
        if key.startswith("card|"):
            _, card_id, what = key.split("|")
            summed.setdefault(label(card_id), Counter())[what] += value
    rows = []
    for name in sorted(summed):
        found = summed[name]
        built = found["built"]
        rows.append([name] + [per_game(found[use], games) for use in INCA_EMPIRE_USES.values()]
                    + [f"{found['points'] / built:.1f}" if built else "–"])
    return rows


def inca_empire_card_table(counts: Counts, games: int, label: Callable[[str], str]) -> list[str]:
    return table(["cards"] + [f"{use} a game" for use in INCA_EMPIRE_USES.values()]
                 + ["tokens on it at the end, per build"],
                 inca_empire_card_rows(counts, games, label))


def report_inca_empire(counts: Counts, games: int) -> list[str]:
    from engine.games.inca_empire.data import GOALS_BY_ID
    goal_rows = []
    held_ids = sorted({key.split("|")[1] for key in counts if key.startswith("goal|")})
    for goal in (GOALS_BY_ID[goal_id] for goal_id in held_ids):
        held = counts[f"goal|{goal['id']}|held"]
        if held:
            goal_rows.append([goal["id"], goal["text"], goal["points"], int(held),
                              percent(counts.get(f"goal|{goal['id']}|met", 0), held),
                              percent(counts.get(f"goal|{goal['id']}|scored", 0), held)])
    lines = table(["goal", "text", "points", "times held", "met when held %",
                   "among the best three when held %"], goal_rows)
    lines += [""] + inca_empire_card_table(counts, games, inca_empire_card_group)
    seats = counts.get("seats", 0)
    lines += ["", f"A seat's points, on average: {per_game(counts.get('token points', 0), seats)}"
              f" from tokens on the table, {per_game(counts.get('goal points', 0), seats)} from "
              f"its best three goals."]
    return lines


def report_inca_empire_cards(counts: Counts, games: int) -> list[str]:
    """Every card by name, over all player counts: too long a table to repeat per count."""
    return inca_empire_card_table(counts, games, inca_empire_card_name)


# --------------------------------------------------------------------------- registry

READERS: dict[str, Reader] = {
    "incan_gold": Reader(read_incan_gold, lambda s: len(s["history"]), report_incan_gold),
    "machu_picchu": Reader(read_machu_picchu, lambda s: s["day"], report_machu_picchu),
    "inca_empire": Reader(read_inca_empire, lambda s: s["era"], report_inca_empire,
                          report_inca_empire_cards),
}
ROUND_WORDS = {"incan_gold": "rounds", "machu_picchu": "days", "inca_empire": "eras"}


def read(game_name: str, state: dict, moves: list[tuple[int, dict]]) -> Counts:
    reader = READERS.get(game_name)
    return reader.read(state, moves) if reader else {}


def rounds(game_name: str, state: dict) -> int | None:
    reader = READERS.get(game_name)
    return reader.rounds(state) if reader else None


def report(game_name: str, counts: Counts, games: int) -> list[str]:
    reader = READERS.get(game_name)
    return reader.report(counts, games) if reader else []


def report_overall(game_name: str, counts: Counts, games: int) -> list[str]:
    reader = READERS.get(game_name)
    return reader.overall(counts, games) if reader and reader.overall else []


def add_counts(total: Counter, one: Counts) -> None:
    for key, value in one.items():
        total[key] += value


def mean_sd(values: list[float]) -> tuple[float, float]:
    if not values:
        return (0.0, 0.0)
    return (statistics.fmean(values), statistics.pstdev(values))
