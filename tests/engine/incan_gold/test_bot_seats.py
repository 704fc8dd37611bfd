"""The bot at a table of bots: legal, reproducible, blind to others' secrets, and not in
lockstep (seats inside part ways, games do not all tie, artifacts get claimed)."""
from __future__ import annotations

from engine.core import clone

from .helpers import GAME, everyone, staged

SEEDS = range(12)


def bot_game(players: int, seed: int, visit=None) -> dict:
    """An all-bot game to its end; ``visit(state, seat)`` sees every decision before it is made."""
    state = GAME.setup([f"P{i}" for i in range(players)], seed, {})
    while GAME.outcome(state) is None:
        for seat in GAME.to_act(state):
            if visit is not None:
                visit(state, seat)
            GAME.apply_in_place(state, seat, GAME.bot_action(state, seat))
    return state


def test_bot_choices_are_legal_at_every_table_size():
    def check(state, seat):
        legal = [a["type"] for a in GAME.legal_actions(state, seat)]
        assert GAME.bot_action(state, seat)["type"] in legal

    for players in range(GAME.min_players, GAME.max_players + 1):
        bot_game(players, players, check)


def test_bot_gives_the_same_choice_for_the_same_state():
    def check(state, seat):
        assert GAME.bot_action(clone(state), seat) == GAME.bot_action(state, seat)

    bot_game(5, 3, check)


def test_bot_choice_does_not_change_with_other_seats_secrets_or_the_seed():
    """Other seats' tents and pending choices, the deck's order and the seed are hidden from
    the seat: varying them never changes what its bot chooses."""
    def check(state, seat):
        chosen = GAME.bot_action(state, seat)
        for other in [None, *(s for s in range(len(state["players"])) if s != seat)]:
            assert GAME.bot_action(GAME.vary_secrets(state, other), seat) == chosen

    for seed in range(3):
        bot_game(4, seed, check)


def test_bot_choice_does_not_depend_on_who_answered_first():
    """A seat's choice is the same before and after the others inside have answered."""
    def check(state, seat):
        first = GAME.bot_action(state, seat)
        later = clone(state)
        for other in GAME.to_act(later):
            if other != seat:
                later["players"][other]["choice"] = "stay"
        assert GAME.bot_action(later, seat) == first

    bot_game(6, 1, check)


def test_bots_at_one_table_part_ways_and_do_not_always_tie():
    """Seats still inside see the same cards and carry the same gems; the bots must still
    choose differently (some leave while others stay) and games must be decided."""
    reveals = []

    def note_reveal(state, seat):
        if state["last_reveal"] and state["last_reveal"] not in reveals[-1:]:
            reveals.append(clone(state["last_reveal"]))

    ties = 0
    for seed in SEEDS:
        ties += len(GAME.outcome(bot_game(4, seed, note_reveal))["winners"]) > 1
    split = [r for r in reveals if r["left"] and r["stayed"]]
    assert ties <= len(SEEDS) // 3
    assert len(split) >= 2 * len(SEEDS)


def test_bots_claim_artifacts_at_a_table_of_bots():
    claimed = [sum(len(p["artifacts"]) for p in bot_game(4, seed)["players"]) for seed in SEEDS]
    assert sum(1 for n in claimed if n) >= len(SEEDS) // 2


def test_a_lone_leaving_bot_takes_the_artifact_on_the_path():
    """With only hazards left to draw, the bot leaves; leaving alone, it takes the artifact."""
    treasures = ["t1", "t2", "t3", "t4", "t5", "t5", "t7", "t7", "t9", "t11", "t11", "t13",
                 "t14", "t15", "t17"]
    state = staged(3, path=["h:fire", *treasures[:7], "a12", *treasures[7:], "h:snakes"],
                   next_cards=["h:fire"], carrying=[9, 9, 9])
    assert GAME.bot_action(state, 0)["type"] == "leave"
    everyone(state, {0: GAME.bot_action(state, 0)["type"], 1: "stay", 2: "stay"})
    assert state["players"][0]["artifacts"] == [12]
