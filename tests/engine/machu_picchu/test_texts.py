"""What the engine says (action labels, log lines) are phrases, not English sentences.

A phrase (``engine.text``) keeps the English template apart from its arguments, so the service
can show it in each reader's language; its English rendering is exactly the label and log
line the game has always had, and player names are never terms (they are not translated)."""
import random

from engine.core import without_label
from engine.text import phrase, render, term

from .helpers import GAME, act, started, turn_of


def test_every_label_is_a_phrase_whose_english_is_the_label():
    for seed in range(4):
        state, chooser = GAME.setup(["Ana", "Bo", "Cy"], seed, {}), random.Random(seed)
        for _ in range(300):
            if GAME.outcome(state) is not None:
                break
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            for action in legal:
                assert type(action["_say"]) is dict and render(action["_say"]) == action["label"]
                assert "_say" not in without_label(action)      # display only: never recorded
            GAME.apply_in_place(state, seat, chooser.choice(legal))


def test_labels_name_districts_goods_and_cards_as_terms():
    state = turn_of(started(2), 0, "watchmans_hut")
    labels = {a["label"]: a["_say"] for a in GAME.legal_actions(state, 0)}
    assert labels["Move to Corn Terraces"] == phrase("Move to {district}",
                                                     district=term("Corn Terraces"))
    act(state, 0, type="move", to="royal_palace")
    place = [a for a in GAME.legal_actions(state, 0) if a["type"] == "place"][0]
    assert place["label"] == "Place an Inca on Coca Plantation for 1 pottery, 1 cloth"
    assert place["_say"]["a"]["cost"] == [phrase("{n} {good}", n=1, good=term("pottery")),
                                          phrase("{n} {good}", n=1, good=term("cloth"))]


def test_log_lines_are_phrases_and_a_player_name_is_never_a_term():
    state = turn_of(started(2), 0, "watchmans_hut")
    state["players"][0]["name"] = "Corn Terraces"          # a name that is also a term
    act(state, 0, type="move", to="central_plaza")
    said = state["log"][-1]
    assert said == phrase("{player} goes to {district}", player="Corn Terraces",
                          district=term("Central Plaza"))
    assert render(said) == "Corn Terraces goes to Central Plaza"
    assert all(type(line) is dict and "t" in line for line in state["log"])


def test_the_view_passes_the_log_phrases_through_without_sharing_the_state():
    state = turn_of(started(2), 0, "watchmans_hut")
    act(state, 0, type="move", to="central_plaza")
    view = GAME.view(state, 1)
    assert view["log"] == state["log"][-10:]
    view["log"][-1]["a"]["player"] = "someone else"
    assert state["log"][-1]["a"]["player"] == "P0"


def test_the_rules_version_changed_with_the_shape_of_the_log():
    """Stored snapshots hold English log strings under version 1; they must not be reused."""
    assert GAME.rules_version != "1"
