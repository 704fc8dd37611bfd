"""Machu Picchu bots in self-play: what parts of the board they use, how games end, who wins.

Seeded games at 2 to 5 players between three kinds of player: ``bot`` (the bot, a lookahead
over its own turn), ``simple`` (the former heuristic bot, kept as the easy level) and
``random`` (a uniformly random legal action, drawn from a generator seeded per game).
Counted per table: Sun Clock visits, House of Virgins visits, Priests and Virgins taken,
how the games end (conquest or a rescue), win % by seat (a shared win counts for each
winner), and the bot's decision time (median and largest).

    python -m bench.machu_picchu_bot [--games N] [--seed S]
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from engine import get_game
from engine.core import without_label
from engine.games.machu_picchu import bot

GAME = get_game("machu_picchu")
MAX_MOVES = 5_000
PAIRINGS = (("bot", "simple"), ("simple", "bot"), ("bot", "random"), ("simple", "random"),
            ("random", "bot"), ("random", "simple"))


def random_player(chooser: random.Random):
    def choose(state: dict, seat: int) -> dict:
        return without_label(chooser.choice(GAME.legal_actions(state, seat)))
    return choose


def play(kinds: list[str], seed: int) -> dict:
    """One game: ``kinds[seat]`` is "bot", "simple" or "random"; returns its counts."""
    chooser = random.Random(seed)
    players = {"bot": bot.bot_action, "simple": bot.simple_bot_action,
               "random": random_player(chooser)}
    state = GAME.setup([f"P{i}" for i in range(len(kinds))], seed, {})
    counts, times = Counter(), []
    moves = 0
    while GAME.outcome(state) is None and moves < MAX_MOVES:
        seat = GAME.to_act(state)[0]
        started = time.perf_counter()
        action = players[kinds[seat]](state, seat)
        if kinds[seat] == "bot":
            times.append(time.perf_counter() - started)
        if action.get("type") == "move":
            counts[action["to"]] += 1
        if action.get("type") == "take":
            counts["priests"] += 1
        GAME.apply_in_place(state, seat, action)
        moves += 1
    outcome = GAME.outcome(state) or {"reason": "unfinished", "winners": [], "detail": {}}
    tripled = [s for s, d in outcome["detail"].items() if d["multiplier"] == 3]
    return {"counts": counts, "times": times, "reason": outcome["reason"],
            "winners": outcome["winners"], "tripled": tripled, "moves": moves}


def table(kinds: list[str], games: int, seed: int) -> dict:
    """``games`` games with the seats as ``kinds`` (seeds ``seed`` on): what they visit and
    take, how the games end, win % and ×3 multiplier % by seat, the bot's decision times."""
    results = [play(kinds, seed + g) for g in range(games)]
    wins = Counter(w for r in results for w in r["winners"])
    tripled = Counter(s for r in results for s in r["tripled"])
    times = [t for r in results for t in r["times"]]
    return {
        "sun_clock": sum(r["counts"]["sun_clock"] for r in results),
        "house_of_virgins": sum(r["counts"]["house_of_virgins"] for r in results),
        "priests": sum(r["counts"]["priests"] for r in results),
        "most_priests": max(r["counts"]["priests"] for r in results),
        "endings": Counter(r["reason"] for r in results),
        "win_by_seat": [round(100 * wins[s] / games) for s in range(len(kinds))],
        "tripled_by_seat": [round(100 * tripled[s] / games) for s in range(len(kinds))],
        "median_ms": 1000 * statistics.median(times) if times else 0.0,
        "max_ms": 1000 * max(times) if times else 0.0,
        "games": games,
    }


def challenger_share(challenger: str, other: str, n: int, games: int, seed: int) -> float:
    """Win % of one ``challenger`` seat among ``other`` players, the seat rotated."""
    won = 0
    for g in range(games):
        seat = g % n
        kinds = [other] * n
        kinds[seat] = challenger
        won += seat in play(kinds, seed + g)["winners"]
    return round(100 * won / games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    args = parser.parse_args()
    for n in args.players:
        for kind in ("simple", "bot"):
            found = table([kind] * n, args.games, args.seed)
            print(f"{n}p all-{kind}: {found}", flush=True)
        for challenger, other in PAIRINGS:
            share = challenger_share(challenger, other, n, args.games, args.seed)
            print(f"{n}p one {challenger} among {other}: {share}% (fair {round(100 / n)}%)",
                  flush=True)


if __name__ == "__main__":
    main()
