"""Every registered game keeps the engine protocol (engine/core.py)."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import GAMES, IllegalAction, canonical_json, get_game
from engine.core import find_legal, without_label
from tests.engine.playthrough import assert_replay_equals_live, play_random_game

GAME_NAMES = sorted(GAMES)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_registry_entry_describes_the_game(name):
    game = get_game(name)
    assert game.name == name and game.title
    assert 1 <= game.min_players <= game.max_players
    assert game.rules_version


def test_unknown_game_is_a_clear_error():
    with pytest.raises(IllegalAction, match="unknown game"):
        get_game("chess")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_wrong_player_count_is_refused(name):
    game = get_game(name)
    with pytest.raises(IllegalAction):
        game.setup(["solo"] * (game.max_players + 1), 1, {})


@pytest.mark.parametrize("name", GAME_NAMES)
def test_garbage_action_is_illegal_and_changes_nothing(name):
    game = get_game(name)
    state = game.setup([f"P{i}" for i in range(game.min_players)], 7, {})
    before = canonical_json(state)
    seat = game.to_act(state)[0]
    for garbage in ({"type": "no-such-thing"}, {}, {"type": None}):
        with pytest.raises(IllegalAction):
            game.apply(state, seat, garbage)
        with pytest.raises(IllegalAction):
            game.apply_in_place(state, seat, garbage)
        assert canonical_json(state) == before


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_seat_that_need_not_act_cannot_act(name):
    game = get_game(name)
    state = game.setup([f"P{i}" for i in range(game.max_players)], 3, {})
    idle = [s for s in range(game.max_players) if s not in game.to_act(state)]
    for seat in idle:
        assert game.legal_actions(state, seat) == []


class ContractWatch:
    """Checks, on every move of a random legal game, what engine/core.py promises of
    ``view``, ``vary_secrets``, ``epoch`` and ``decision_key``; ``moves`` counts the moves
    checked and ``secrets`` those where some secret was really varied (so a game that
    declared none could not pass by saying nothing)."""

    def __init__(self, game, players: int):
        self.game, self.players = game, players
        self.closed_keys = [set() for _ in range(players)]   # keys of decisions answered
        self.moves = self.secrets = 0
        # The last move's state after it: (that object, its canonical JSON when its views
        # were taken, those views), the next move's state before it.
        self.taken = None

    def views_of(self, state, text: str):
        """``views(state)``; the previous move's views of its ``after`` when ``state`` is that
        very object, which must still read as it did then (a view or a check that changed it
        fails here)."""
        if self.taken is not None and self.taken[0] is state:
            assert self.taken[1] == text, "a view or a check changed the state"
            return self.taken[2]
        return self.views(state)

    def views(self, state, skip=None, cached=None):
        """Every view but ``skip``'s (a spectator's first), as JSON text; ``cached``: every
        view of ``state``, taken before (``skip``'s is then left out of them)."""
        viewers = [None, *range(self.players)]
        if cached:
            return [text for v, text in zip(viewers, cached) if v is None or v != skip]
        return [canonical_json(self.game.view(state, v)) for v in viewers
                if v is None or v != skip]

    def __call__(self, game, before, after, seat, action):
        self.moves += 1
        unchanged = canonical_json(before)
        self.check_views_keep_secrets(before, unchanged, seat, action, after)
        assert canonical_json(before) == unchanged, "view or vary_secrets changed the state"
        self.check_decision_keys(before, seat, after)

    def check_views_keep_secrets(self, before, unchanged, seat, action, after):
        """No other seat's view (nor a spectator's) tells a varied secret apart; a move whose
        public result depends on a secret it did not hold itself raises the epoch.
        ``unchanged``: ``before`` as canonical JSON (a view or ``vary_secrets`` that changed
        ``before`` fails the caller's check that it still reads so)."""
        game = self.game
        seen_before, after_text = self.views_of(before, unchanged), canonical_json(after)
        seen_after = self.views(after)
        self.taken = (after, after_text, seen_after)
        for holder in [None, *range(self.players)]:
            varied = game.vary_secrets(before, holder)
            if canonical_json(varied) == unchanged:
                continue  # nothing secret now
            self.secrets += 1
            assert self.views(varied, holder) == self.views(before, holder, seen_before), (
                f"{game.name}: a view shows a secret of {holder}")
            if holder == seat or after["epoch"] > before["epoch"]:
                continue  # a seat playing its own secret teaches itself nothing
            try:
                varied_after = game.apply(varied, seat, without_label(action))
            except IllegalAction:
                continue
            assert self.views(varied_after, holder) == self.views(after, holder, seen_after), (
                f"{game.name}: {action} revealed a secret of {holder} or drew chance without "
                "raising the epoch")

    def check_decision_keys(self, before, seat, after):
        """Stable while another seat's move leaves the decision as it was; never given again
        to a seat once it has answered and stopped being asked."""
        game = self.game
        acting_before, acting_after = set(game.to_act(before)), set(game.to_act(after))
        for s in range(self.players):
            if s in acting_before and s not in acting_after:
                self.closed_keys[s].add(game.decision_key(before, s))
            if s not in acting_after:
                continue
            key = game.decision_key(after, s)
            assert isinstance(key, str) and key, f"{game.name}: seat {s} acts without a key"
            if s not in acting_before:
                assert key not in self.closed_keys[s], (
                    f"{game.name}: seat {s} is asked anew under an answered key {key}")
            elif s != seat and game.legal_actions(after, s) == game.legal_actions(before, s):
                assert key == game.decision_key(before, s), (
                    f"{game.name}: seat {s}'s key changed while its decision did not")


@pytest.mark.parametrize("name", GAME_NAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_legal_games_keep_the_contract_and_replay_exactly(name, data):
    """engine/core.py, state contract: views change no state and keep every declared secret,
    the epoch rises with every draw or reveal, decision keys are stable within a decision and
    new for each; the game ends, and its replay equals the live state."""
    game = get_game(name)
    players = data.draw(st.integers(game.min_players, game.max_players))
    seed = data.draw(st.integers(0, 2**31))
    watch = ContractWatch(game, players)

    state, moves = play_random_game(name, players, seed, {}, watch)
    assert watch.moves == len(moves) and watch.secrets > 0
    assert_replay_equals_live(name, players, seed, {}, state, moves)
    result = game.outcome(state)
    assert set(result) >= {"scores", "winners"}
    assert result["winners"] and set(result["winners"]) <= set(range(players))
    for seat in range(players):
        json.dumps(game.view(state, seat))


def bot_decisions(name: str, seed: int, moves: int):
    """(game, state, seat) at each of the first ``moves`` decisions of a game the bots play
    with the fewest players; the caller looks, then the bot's move is applied."""
    game = get_game(name)
    state = game.setup([f"P{i}" for i in range(game.min_players)], seed, {})
    for _ in range(moves):
        if game.outcome(state) is not None:
            return
        seat = game.to_act(state)[0]
        yield game, state, seat
        state = game.apply(state, seat, game.bot_action(state, seat))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_default_and_bot_actions_are_legal(name):
    for game, state, seat in bot_decisions(name, 11, 200):
        legal = [without_label(a) for a in game.legal_actions(state, seat)]
        for chosen in (game.default_action(state, seat), game.standing_action(state, seat),
                       game.bot_action(state, seat)):
            assert without_label(chosen) in legal


@pytest.mark.parametrize("name", GAME_NAMES)
def test_finding_a_submitted_action_gives_the_listed_one_and_refuses_the_rest(name):
    """``find_legal_action`` (what the service checks a submitted move with) answers as
    looking the action up in ``legal_actions`` does: the listed action with its label for
    each one listed, sent without labels; the same refusal for one that is not listed."""
    bogus = {"type": "no-such-move"}
    for game, state, seat in bot_decisions(name, 5, 120):
        legal = game.legal_actions(state, seat)
        for action in legal:
            assert game.find_legal_action(state, seat, without_label(action)) == action
        with pytest.raises(IllegalAction) as refused:
            game.find_legal_action(state, seat, bogus)
        with pytest.raises(IllegalAction) as listed:
            find_legal(legal, bogus)
        assert str(refused.value) == str(listed.value)


# A seed no view could show by chance: 256 bits, as the service draws them (fair play).
TELLTALE_SEED = 2 ** 255 + 987_654_321_123_456_789


@pytest.mark.parametrize("name", GAME_NAMES)
def test_no_view_ever_contains_the_seed(name):
    """The state keeps ``state["seed"]`` for later draws; a view (a seat's or the public's)
    must never copy it, or every hand and future draw would be known to whoever sees it."""
    game = get_game(name)
    players = game.max_players
    seen = []

    def check(game, before, after, seat, action):
        for state in (before, after):
            for viewer in [None, *range(players)]:
                shown = canonical_json(game.view(state, viewer))
                seen.append(shown)
                assert str(TELLTALE_SEED) not in shown, (name, viewer)
                assert '"seed"' not in shown, (name, viewer)

    state, _moves = play_random_game(name, players, TELLTALE_SEED, {}, check)
    assert state["seed"] == TELLTALE_SEED and seen  # the state does keep it


def standing_orders_to_set(declared: dict) -> dict:
    """Every declared order turned to its last choice."""
    return {key: spec["choices"][-1] for key, spec in declared.items()}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_standing_orders_are_declared_and_validated_like_any_action(name):
    """engine/core.py, standing orders: a game that declares them accepts them from any seat
    at any time through ``find_legal_action`` (never listed by ``legal_actions``), applies
    them, and shows the new values; anything not declared is refused, as it is by a game that
    declares none."""
    game = get_game(name)
    state = game.setup([f"P{i}" for i in range(game.max_players)], 3, {})
    for seat in range(game.max_players):
        declared = game.standing_orders(state, seat)
        bogus = {"type": "standing_orders", "orders": {"no-such-order": "x"}}
        with pytest.raises(IllegalAction):
            game.find_legal_action(state, seat, bogus)
        if declared is None:
            continue
        assert all(spec["value"] in spec["choices"] for spec in declared.values())
        wanted = standing_orders_to_set(declared)
        chosen = game.find_legal_action(state, seat, {"type": "standing_orders", "orders": wanted})
        assert chosen == {"type": "standing_orders", "orders": wanted,
                          "label": "Set standing orders"}
        assert chosen not in game.legal_actions(state, seat)
        for wrong in ({"type": "standing_orders", "orders": {}},
                      {"type": "standing_orders", "orders": {next(iter(declared)): "maybe"}},
                      {"type": "standing_orders", "orders": wanted, "extra": 1}):
            with pytest.raises(IllegalAction):
                game.find_legal_action(state, seat, wrong)
        after = game.apply(state, seat, without_label(chosen))
        assert {k: spec["value"] for k, spec in game.standing_orders(after, seat).items()} == {
            **{k: spec["value"] for k, spec in declared.items()}, **wanted}
