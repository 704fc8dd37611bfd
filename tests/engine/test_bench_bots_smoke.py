"""The bot benchmark's functions, run tiny: one game a cell, a strong bot on a small budget.

Checks that a run finishes and that its numbers add up; how fast anything is lives in the
benchmark's own output, never here."""
from __future__ import annotations

import pytest

from bench import balance_stats, bots
from bench.bot_players import EASY, RANDOM, STRONG
from engine import GAMES, search

TINY = search.Settings(iterations=3, horizon=20, rollout=search.random_rollout,
                       evaluate=lambda game, state: [0.5] * search._seats(state))


@pytest.fixture
def tiny_strong_bots(monkeypatch):
    for name in GAMES:
        monkeypatch.setattr(GAMES[name], "search_settings", TINY)


def tiny_args(**given):
    return bots.parse(["--game", "incan_gold", "--players", "3", "--games", "2",
                       "--flat-rollouts", "1", *sum(([f"--{k}", str(v)] for k, v in given.items()),
                                                    [])])


def test_a_tiny_run_plays_every_cell_and_prints_its_tables(tiny_strong_bots):
    lines: list[str] = []
    by_cell = bots.run(tiny_args(), lines.append)
    labels = [cell.label for cell in by_cell]
    assert "strong among easy" in labels and "strong among flat Monte Carlo" in labels
    assert "leave at 10 gems among strong" in labels and "all strong" in labels
    assert all(len(results) == 2 for results in by_cell.values())
    text = "\n".join(lines)
    for heading in ("## Strength", "## Balance under the strong bot: Incan Gold",
                    "how a round ends", "## Decision times"):
        assert heading in text
    assert sum(line.startswith("| Incan Gold | 3 |") for line in lines) == len(by_cell) - 1


def test_shares_at_an_all_strong_table_add_up_to_every_game(tiny_strong_bots):
    by_cell = bots.run(tiny_args(only="balance"), lambda line: None)
    (results,) = by_cell.values()
    summary = bots.balance_summary(results)
    assert sum(summary["by_seat"]) == pytest.approx(len(results))
    assert summary["rounds"] == 5          # Incan Gold always plays five rounds


def test_a_seeded_game_plays_the_same_twice(tiny_strong_bots):
    job = bots.Job("incan_gold", (STRONG, RANDOM, EASY), 11, 1, True)
    first, second = bots.play_game(job), bots.play_game(job)
    for result in (first, second):
        del result["times"]
    assert first == second


def test_the_lone_seat_turns_with_the_game_number():
    cell = bots.Cell("strength", "incan_gold", 3, RANDOM, STRONG)
    assert [cell.kinds(g).index(RANDOM) for g in range(4)] == [0, 1, 2, 0]


def test_a_shared_victory_counts_a_part_to_each_winner():
    cell = bots.Cell("strength", "incan_gold", 3, RANDOM, STRONG)
    results = [{"winners": [0, 1]}, {"winners": [2]}, {"winners": [0, 1, 2]}]
    assert bots.lone_won(cell, results) == pytest.approx(1 / 2 + 0 + 1 / 3)


def test_the_wilson_interval_holds_the_share_and_settles_only_clear_cases():
    low, high = bots.wilson(30, 40)
    assert low < 75 < high
    assert bots.verdict(40, 40, 50) == "clearly above fair"
    assert bots.verdict(0, 40, 50) == "clearly below fair"
    assert bots.verdict(1, 2, 50) == "not settled"


@pytest.mark.parametrize("name", ["machu_picchu", "inca_empire"])
def test_each_games_reader_counts_how_an_easy_game_ended(name):
    players = GAMES[name].min_players + 1
    result = bots.play_game(bots.Job(name, (EASY,) * players, 5, 1, True))
    lines = balance_stats.report(name, result["counts"], 1)
    assert lines and all(line.startswith("|") or not line.strip() or line.startswith("A seat")
                         for line in lines)
    if name == "machu_picchu":
        endings = [k for k in result["counts"] if k.startswith("ending: ")]
        assert len(endings) == 1 and result["rounds"] <= 9
    else:
        held = sum(v for k, v in result["counts"].items() if k.endswith("|held"))
        assert result["counts"]["seats"] == players and held >= players
        assert result["rounds"] == 4


def test_a_strong_bot_alone_must_win_clearly_more_and_a_challenger_no_more_than_fair():
    strong_alone = bots.Cell("strength", "incan_gold", 2, STRONG, EASY)
    random_alone = bots.Cell("strength", "incan_gold", 2, RANDOM, STRONG)
    assert bots.holds(strong_alone, 38, 40, 50) == "yes"
    assert bots.holds(strong_alone, 22, 40, 50) == "not settled"
    assert bots.holds(random_alone, 38, 40, 50) == "NO"
    assert bots.holds(random_alone, 15, 40, 50) == "yes"


def test_naming_tables_plays_only_those():
    chosen = bots.cells(["incan_gold", "machu_picchu"], [3], None,
                        ["random among strong", "all strong"])
    assert [(c.game, c.label) for c in chosen] == [
        ("incan_gold", "random among strong"), ("machu_picchu", "random among strong"),
        ("incan_gold", "all strong"), ("machu_picchu", "all strong")]
    assert "leave at 10 gems among strong" in bots.table_labels()


def test_a_quick_run_seats_each_game_at_its_fewest_players():
    chosen = bots.cells(["incan_gold", "inca_empire"], None, "balance", fewest=True)
    assert [(c.game, c.players) for c in chosen] == [("incan_gold", 3), ("inca_empire", 2)]


def test_balance_tables_can_be_played_by_easy_bots_at_every_seat():
    """Easy bots are cheap enough for hundreds of games a cell, so the designed values of a game
    can be checked under them before the strong bot confirms on fewer games."""
    lines: list[str] = []
    by_cell = bots.run(tiny_args(only="balance", **{"balance-player": "easy"}), lines.append)
    assert [cell.label for cell in by_cell] == ["all easy"]
    assert "## Balance under the easy bot: Incan Gold" in lines
