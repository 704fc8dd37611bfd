"""The strong Machu Picchu bot: the lookahead bot's best few Prince moves, each played on in
worlds the seat cannot tell from the real one, judged by the best turn the seat has after the
other seats have moved.

Why it starts from the lookahead bot (``lookahead.py``): that bot values the rest of its own
turn well (which Incas, which Priest, the trade, what to sacrifice), so the moves it values most
are the ones worth a closer look (``CANDIDATES``), and the steps of a visit stay its choice.
What it cannot see is what follows its turn: which districts the other seats use up, take the
Moon Tiles or the Priests of, and where its Prince then stands.  So each candidate is played on
(``play_on``): the seat's steps chosen as the lookahead chooses them, the other seats' turns by
the simple bot (a tenth of a millisecond a decision, so a playout costs a few ms), until the
seat's Prince is to move again; the candidate is worth the best that next turn can reach
(``best_turn_worth``: the lookahead's valuation after the best Prince move and its visit).  A
move that sets up the next turn (a neighbour of a rich district, a Moon Tile) shows there.

Why on the last day it plays to the end: the conquest's multipliers (3, 2, 1 by gold rank)
decide the game then, and the lookahead's valuation only guesses them; the end itself, with
the seat's own Prince moves chosen as the lookahead would, counts them exactly
(``lookahead.value`` of a finished game: winning first, then the margin).

Why the same worlds for every candidate: the hidden cards and the deck are drawn once per world
and every candidate is played in each, so the candidates are compared on equal footing and
the noise of the draw cancels out of the comparison.  The seat's other seats' hands are dealt
again from its own view (``GAME.determinize``), so nothing it may not see can move it.

Why not a tree search over every seat (max-n, as before): measured on the same seeds, a tree
of 80 iterations among the lookahead's best three played no better than the lookahead bot
alone; and valuing a position after one round by every seat's estimate (how likely the seat
is ahead) played worse than this: other seats' estimates carry their hidden cards' noise.
"""
from __future__ import annotations

from engine.core import clone, find_legal, without_label
from engine.search import Settings, decision_rng

from . import bot, data, lookahead, rules

CANDIDATES = 6         # the root moves searched: those the lookahead values most
SEARCHED = frozenset({"move", "free_inca"})   # the decisions searched
PLAYOUT_LIMIT = 600    # decisions a playout may take before it is valued where it stands
GAINS = 1e-9           # a Prince move worth no more than this above the value now gains nothing
ENDGAME_DAYS = 1       # on the last this many days a playout runs to the end of the game

# iterations: playouts a decision (the candidates times the worlds each is played in)
SETTINGS = Settings(iterations=18, horizon=None, exploration=0.0, evaluate=None)


def searched(state: dict) -> bool:
    return bool(state["queue"]) and state["queue"][0]["k"] in SEARCHED


def candidates(state: dict, seat: int) -> list[dict]:
    """The ``CANDIDATES`` moves the lookahead values most (each played out to the end of the
    turn and valued from what the seat sees), best first, and the best stay among them even
    when it ranks lower.  Where the seat may stay, a Prince move that gains nothing this turn
    is not weighed at all.  Why: a day ends only when its third Moon Tile is taken (zh 一日完
    结: "一旦有3个月亮板块已遭拿走"), and the playouts can value the night below the day, so
    two seats shuttling between emptied districts would play on without end."""
    legal = [without_label(a) for a in rules.legal(state, seat)]
    world = lookahead.seen_world(state, seat)
    worth = {i: lookahead.worth_after(world, seat, a, bot.default_action)
             for i, a in enumerate(legal)}
    ranked = sorted(worth, key=lambda i: (-worth[i], i))
    stays = [i for i in ranked if legal[i]["type"] == "stay"]
    if stays:
        now = lookahead.value(world, seat)
        ranked = [i for i in ranked if legal[i]["type"] != "move" or worth[i] > now + GAINS]
    best = ranked[:CANDIDATES]
    if stays and not any(legal[i]["type"] == "stay" for i in best):
        best.append(stays[0])
    return [legal[i] for i in best]


def strong_action(game, state: dict, seat: int) -> dict:
    """The Prince's move (and the free Inca) by playing on each candidate in the same few
    worlds; a step of a visit by the lookahead bot."""
    legal = game.legal_actions(state, seat)
    if len(legal) <= 1 or not searched(state):
        return game.easy_bot_action(state, seat)
    moves = candidates(state, seat)
    worlds = max(1, (game.search_settings or SETTINGS).iterations // len(moves))
    rng = decision_rng(game, state, seat)
    totals = [0.0] * len(moves)
    for _ in range(worlds):
        world = game.determinize(state, seat, rng)
        for i, move in enumerate(moves):
            totals[i] += playout(world, seat, move)
    best = max(range(len(moves)), key=lambda i: (totals[i], -i))
    return find_legal(legal, moves[best])


def playout(world: dict, seat: int, move: dict) -> float:
    """What ``move`` is worth in ``world``: played on (``play_on``), then the best next turn;
    a finished game as it ended."""
    state = clone(world)
    rules.apply(state, seat, move)
    play_on(state, seat)
    if state["over"] or not rules.to_act(state):
        return lookahead.value(state, seat)
    return best_turn_worth(state, seat)


def play_on(state: dict, seat: int) -> None:
    """Play ``state`` on in place until ``seat``'s Prince is to move again (on the last day:
    to the end of the game)."""
    to_the_end = state["day"] > data.LAST_DAY - ENDGAME_DAYS
    for _ in range(PLAYOUT_LIMIT):
        acting = rules.to_act(state)
        if not acting or (own_move_next(state, seat) and not to_the_end):
            return
        who = seat if seat in acting else acting[0]
        rules.apply(state, who, playout_choice(state, who, seat))


def own_move_next(state: dict, seat: int) -> bool:
    frame = state["queue"][0]
    return frame["k"] == "move" and frame["seat"] == seat


def playout_choice(state: dict, who: int, seat: int) -> dict:
    """The seat's Prince move as the lookahead bot chooses it (its turn finished greedily),
    each step of its visits one step deep; another seat's every decision by the simple bot."""
    if who != seat:
        return bot.simple_bot_action(state, who)
    legal = [without_label(a) for a in rules.legal(state, seat)]
    finish = bot.default_action if state["queue"][0]["k"] == "move" else None
    return max(legal, key=lambda a: lookahead.worth_after(state, seat, a, finish))


def best_turn_worth(state: dict, seat: int) -> float:
    """The most a Prince move of ``seat`` and its visit can be worth, as the lookahead values
    it."""
    return max(lookahead.worth_after(state, seat, a, bot.default_action)
               for a in map(without_label, rules.legal(state, seat)))
