"""The Incan Gold board (service/view/games/incan_gold/board.py): the expedition drawn from a
seat's view, in the page (SVG) and in mail (tables), and no board of any game that needs an
emoji font to say what its symbols mean."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from flask import render_template

from engine.registry import get_game
from service.view.games.incan_gold import board
from tests.service.test_boards import SVG, advance, played, render_mail

GAME = get_game("incan_gold")
# Characters drawn from an emoji font: every one with a default emoji presentation (Unicode's
# Emoji_Presentation: the pictographs from U+1F000 and the listed older symbols), any
# character asked to look like an emoji (U+FE0F), and the few text-default symbols that only
# emoji fonts carry (mountain, mantelpiece clock).  Without such a font each is an empty box.
EMOJI = re.compile(
    "[\U0001F000-\U0001FAFF\uFE0F\u231A\u231B\u23E9-\u23F3\u23F8-\u23FA\u25FD\u25FE\u2614"
    "\u2615\u2648-\u2653\u267F\u2693\u26A1\u26AA\u26AB\u26BD\u26BE\u26C4\u26C5\u26CE\u26D4"
    "\u26EA\u26F0\u26F2\u26F3\u26F5\u26FA\u26FD\u2705\u270A\u270B\u2728\u274C\u274E"
    "\u2753-\u2755\u2757\u2795-\u2797\u27B0\u27BF\u2B1B\u2B1C\u2B50\u2B55]")


def state_after(moves: int, players: int = 4, seed: int = 7) -> dict:
    return played("incan_gold", players, moves, seed)[1]


def state_where(found, players: int = 5) -> dict:
    """The first state of a game (of a few seeds) for which ``found(view)`` holds; in it each
    seat leaves the temple at its own turn of a round (seat 0 at turn 2, seat 1 at turn 3...),
    so explorers split between temple and camp and lone leavers take artifacts."""
    for seed in range(1, 30):
        _, state = played("incan_gold", players, 0, seed)
        for _ in range(400):
            if found(GAME.view(state, 0)):
                return state
            to_act = GAME.to_act(state)
            if not to_act:
                break
            seat = to_act[0]
            choice = "leave" if state["turn"] >= seat + 2 else "stay"
            state = GAME.apply(state, seat, {"type": choice})
    raise AssertionError("no such state")


def cards_drawn(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g") if g.get("class") == "ig-card"]


def texts(svg: str) -> str:
    return " ".join(t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text"))


# ---------------------------------------------------------------- the picture

@pytest.mark.parametrize("moves", [0, 5, 12, 30, 60])
def test_the_picture_draws_every_card_of_the_path_in_order_with_its_gems(moves):
    view = GAME.view(state_after(moves), 1)
    svg = str(board.svg(view))
    root = ET.fromstring(svg)
    assert root.get("role") == "img" and root.get("viewBox").startswith("0 0 320 ")
    assert root.find(f"{SVG}title").text.startswith("The temple, round")
    ended = board.ended_round(view)
    path = (ended["path"] if ended else []) + view["path"]
    drawn = cards_drawn(svg)
    assert len(drawn) == len(path)
    for title, card in zip(drawn, path):
        if card["type"] == "treasure":
            assert f"treasure of {card['value']} gem" in title
            assert f"{card['gems_left']} left on it" in title
    shown = texts(svg)
    for card in view["path"]:
        if card["type"] == "treasure":
            assert f"{card['value']} gem" in shown and f"{card['gems_left']} left" in shown


def test_the_picture_says_who_is_still_inside_and_who_is_back_at_camp():
    state = state_where(lambda v: any(p["in_temple"] for p in v["players"])
                       and any(not p["in_temple"] for p in v["players"]) and v["path"])
    view = GAME.view(state, 0)
    svg = str(board.svg(view))
    inside = [p for p in view["players"] if p["in_temple"]]
    camp = [p for p in view["players"] if not p["in_temple"]]
    shown = texts(svg)
    assert f"Still in the temple: {len(inside)} explorer" in shown
    assert f"Back at camp: {len(camp)} explorer" in shown
    explorers = {int(g.get("data-seat")): g.find(f"{SVG}title").text
                 for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "ig-explorer"}
    for p in inside:
        assert f"inside, carrying {p['carrying']} gem" in explorers[p["seat"]]
    for p in camp:
        assert "back at camp" in explorers[p["seat"]]
    # Tents: the seat's own in gems, every other one hidden (the rules keep tents secret).
    assert f"tent: {view['players'][0]['tent']} gem" in explorers[0]
    assert all("tent: hidden" in explorers[p["seat"]] for p in view["players"][1:])


def test_the_round_that_just_ended_on_a_second_hazard_shows_which_hazard_came_twice():
    state = state_where(lambda v: (board.ended_round(v) or {}).get("ended_by") == "hazard"
                       and not v["game_over"])
    view = GAME.view(state, 0)
    ended = board.ended_round(view)
    kind = ended["hazard"]
    svg = str(board.svg(view))
    name = board.hazard_name(kind)
    assert f"Round {ended['round']} ended: a second {name} came up" in texts(svg)
    doubled = [t for t in cards_drawn(svg) if "the second one: it ended the round" in t]
    assert len(doubled) == 1 and name in doubled[0]
    assert f"{name} (twice!)" in texts(svg)
    mail = str(board.mail_html(view))
    assert f"{name} (twice!)" in mail and "twice!" in mail


def test_artifacts_taken_are_shown_with_their_worth_in_words():
    state = state_where(lambda v: any(p["artifacts"] for p in v["players"]))
    view = GAME.view(state, None)
    owner = next(p for p in view["players"] if p["artifacts"])
    values = ", ".join(str(v) for v in owner["artifacts"])
    assert f"worth {values}" in board.description(view)
    assert values in str(board.mail_html(view))


def test_the_picture_escapes_player_names():
    view = GAME.view(state_after(8), 0)
    view["players"][0]["name"] = "<script>x</script>&"
    svg = str(board.svg(view))
    assert "<script>" not in svg
    ET.fromstring(svg)


def test_a_chinese_or_japanese_line_is_wrapped_between_characters():
    lines = board.wrap("第五轮结束：第二张落石出现了，安娜、本、克莱奥空手逃离", 150, 11)
    assert len(lines) > 1 and all(board.text_width(line, 11) <= 150 for line in lines)


def test_the_mail_board_is_tables_without_svg_classes_or_styles_sheets():
    view = GAME.view(state_after(12), 2)
    html = str(board.mail_html(view))
    assert "<svg" not in html and "class=" not in html and "<style" not in html
    for card in view["path"]:
        if card["type"] == "treasure":
            assert f"{card['value']} gem" in html
    for p in view["players"]:
        assert p["name"] in html
    assert html.count("inside") + html.count("in camp") == len(view["players"])


# ---------------------------------------------------------------- secrets

def boards_of(state: dict, seat) -> tuple[str, str]:
    view = GAME.view(state, seat)
    return str(board.svg(view)), str(board.mail_html(view))


@pytest.mark.parametrize("moves", [3, 12, 25, 60])
def test_the_board_shows_nothing_a_seats_view_does_not_have(moves):
    """Each seat's secrets (its tent, its choice this turn) and what nobody knows (the deck)
    changed: every other seat's board, and the spectator's, stays byte for byte the same."""
    state = state_after(moves)
    seats = list(range(len(state["players"])))
    for holder in seats + [None]:
        varied = GAME.vary_secrets(state, holder)
        for viewer in seats + [None]:
            if viewer == holder:
                continue
            assert boards_of(varied, viewer) == boards_of(state, viewer), (holder, viewer)
    # The check has teeth: a seat sees its own tent change.
    assert boards_of(GAME.vary_secrets(state, 0), 0) != boards_of(state, 0)


# ---------------------------------------------------------------- page, mail, text

def test_the_play_page_mail_and_text_show_the_expedition(client, app, admin_headers):
    loaded, secrets = advance(client, app, admin_headers, "incan_gold", 4, 10)
    seat = loaded.game.to_act(loaded.state)[0]
    page = client.get(f"/play/{secrets[seat]}").get_data(as_text=True)
    assert 'class="ig-board"' in page and "Still in the temple" in page
    html, text = render_mail(app, loaded, seat)
    assert "<svg" not in html and "Carrying" in html and "The path, " in html
    view = loaded.game.view(loaded.state, seat)
    if view["hazards_showing"]:
        assert "Hazards seen:" in text
    assert "Path:" in text


# ---------------------------------------------------------------- no emoji font needed

def game_pages(app, game_name: str) -> list[tuple[str, str]]:
    """Each game's page view, mail and text, for a seat and a spectator, early, mid-game and
    at the end."""
    out = []
    for moves in (0, 20, 5000):
        game, state = played(game_name, 3, moves)
        for seat in (0, None):
            view = game.view(state, seat)
            with app.test_request_context():
                for kind in ("view.html", "mail.html", "view.txt"):
                    out.append((f"{moves} moves, seat {seat}, {kind}",
                                render_template(f"games/{game_name}/{kind}", view=view)))
    return out


@pytest.mark.parametrize("game_name", ["incan_gold", "machu_picchu", "inca_empire"])
def test_no_board_page_or_mail_needs_an_emoji_font(app, game_name):
    """Symbols are drawn in SVG, or said in words: no glyph that only an emoji font has."""
    for where, markup in game_pages(app, game_name):
        found = EMOJI.findall(markup)
        assert not found, (where, sorted(set(found)))


@pytest.mark.parametrize("language", ["zh_Hans", "ja"])
def test_the_picture_speaks_chinese_and_japanese_with_their_own_punctuation(app, language):
    from flask_babel import force_locale

    state = state_where(lambda v: (board.ended_round(v) or {}).get("ended_by") == "hazard"
                       and any(p["artifacts"] for p in v["players"]))
    view = GAME.view(state, 0)
    with app.test_request_context(), force_locale(language):
        svg, mail = str(board.svg(view)), str(board.mail_html(view))
    root = ET.fromstring(svg)
    said = root.find(f"{SVG}desc").text + " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert board.HAZARD_NAME[board.ended_round(view)["hazard"]] not in said  # translated
    for english in ("gem", "tent", "Round", "camp", "inside"):
        assert english not in said and english not in mail, english
    assert not re.search(r"[,;:] ", said), re.findall(r".{6}[,;:] .{6}", said)


@pytest.mark.parametrize("game_name, moves", [("incan_gold", 12), ("machu_picchu", 30),
                                              ("inca_empire", 45)])
def test_no_play_page_needs_an_emoji_font(client, app, admin_headers, game_name, moves):
    loaded, secrets = advance(client, app, admin_headers, game_name, 3, moves)
    for secret in secrets:
        page = client.get(f"/play/{secret}").get_data(as_text=True)
        assert not EMOJI.findall(page), sorted(set(EMOJI.findall(page)))
