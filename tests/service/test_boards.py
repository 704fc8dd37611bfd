"""The pictures of the table (service/view/games/<game>/board.py) and the per-game page and mail templates.

The board modules are pure functions of ``engine.view`` output, so most tests feed them views of
games played a few moves by the engines' bots; the page/mail tests go through the app."""
from __future__ import annotations

from html import unescape
import re
import xml.etree.ElementTree as ET

import pytest
from flask import render_template

from engine.registry import get_game
from service.view.drawing import SEAT_COLOURS
from service.view.games.inca_empire import board as inca_empire
from service.view.games.machu_picchu import board as machu_picchu
from service.store.loading import load
from service.view.presenter import ActionLink, seat_context
from service.web.extensions import services

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["Ana", "Ben", "Cleo", "Dan", "Eve"]


def played(game_name: str, players: int, moves: int, seed: int = 7):
    """A state after ``moves`` bot moves (fewer if the game ends first)."""
    game = get_game(game_name)
    state = game.setup(NAMES[:players], seed, {})
    for _ in range(moves):
        to_act = game.to_act(state)
        if not to_act or game.outcome(state) is not None:
            break
        seat = to_act[0]
        state = game.apply(state, seat, game.bot_action(state, seat))
    return game, state


def links(game, state, seat) -> list[ActionLink]:
    return [ActionLink(i, chr(65 + i % 26), a.get("label", ""), a, f"/x/{i}")
            for i, a in enumerate(game.legal_actions(state, seat))]


# ---------------------------------------------------------------- contrast

def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


PAPER, INK, MUTED, ACCENT, WHITE = "#fbf7ee", "#1d1b16", "#5d574b", "#8a3b12", "#ffffff"
TEXT_PAIRS = [  # (text, background) pairs the game pages and mails use
    (INK, PAPER), (MUTED, PAPER), (WHITE, ACCENT), (ACCENT, WHITE), (INK, WHITE),
    (INK, "#fff8e6"), (INK, "#fdecec"), (WHITE, "#9b1c1c"), (INK, "#f3edfa"), (INK, "#fff3d6"),
    ("#5d4200", "#fff8e6"), ("#1f5b2e", "#e3f3e6"), ("#4a4438", "#ece6d8"), ("#1a56db", PAPER),
    (INK, "#f4ecd9"), (MUTED, "#f4ecd9"), (INK, "#e4ded0"), (MUTED, "#faf5e8"), (MUTED, "#eef5fa"),
    (MUTED, "#f1eff6"), (INK, "#dcecf5"), (INK, "#f3ead2"), (INK, "#e3e0ec"), (INK, "#d9c48a"),
    (INK, "#e8f0fe"), (WHITE, "#7a5610"),
] + [(INK, fill) for fill in machu_picchu.FILL.values()]


@pytest.mark.parametrize("text, background", TEXT_PAIRS)
def test_text_colours_have_contrast_of_at_least_4_5(text, background):
    assert contrast(text, background) >= 4.5


@pytest.mark.parametrize("colour", SEAT_COLOURS, ids=lambda c: c["name"])
def test_seat_colour_counters_are_readable(colour):
    assert contrast(colour["ink"], colour["fill"]) >= 4.5


# ---------------------------------------------------------------- Machu Picchu

def test_every_district_has_a_place_and_no_two_boxes_overlap():
    from engine.games.machu_picchu import data

    assert set(machu_picchu.POSITIONS) == set(data.DISTRICTS)
    boxes = list(machu_picchu.POSITIONS.values())
    for i, (x1, y1) in enumerate(boxes):
        for x2, y2 in boxes[i + 1:]:
            assert abs(x1 - x2) >= machu_picchu.BOX_W or abs(y1 - y2) >= machu_picchu.BOX_H


def test_no_path_runs_under_another_district():
    _, state = played("machu_picchu", 3, 0)
    view = get_game("machu_picchu").view(state, 0)
    pos, hw, hh = machu_picchu.POSITIONS, machu_picchu.BOX_W / 2, machu_picchu.BOX_H / 2
    for a, b in machu_picchu.edges(view):
        (x1, y1), (x2, y2) = pos[a], pos[b]
        for other, (cx, cy) in pos.items():
            if other in (a, b):
                continue
            for step in range(101):
                x, y = x1 + (x2 - x1) * step / 100, y1 + (y2 - y1) * step / 100
                assert not (abs(x - cx) < hw and abs(y - cy) < hh), (a, b, other)


@pytest.mark.parametrize("moves", [0, 8, 30, 80, 400])
def test_city_svg_is_well_formed_and_shows_the_whole_table(moves):
    game, state = played("machu_picchu", 4, moves)
    view = game.view(state, 1)
    svg = str(machu_picchu.svg(view))
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.find(f"{SVG}title").text.startswith("Machu Picchu, day")
    districts = root.findall(f".//{SVG}g[@class='mp-district']")
    assert len(districts) == 15
    assert all(d.find(f"{SVG}title") is not None for d in districts)
    # One path per neighbour pair, one scout per player, one counter per (district, seat) Inca.
    assert len(root.findall(f"{SVG}line")) == len(machu_picchu.edges(view))
    assert svg.count("’s scout on field") == 4
    counters = sum(len(d["incas"]) for d in view["districts"].values())
    assert svg.count(" Inca") - svg.count("Incas:") >= counters
    for p in view["players"]:
        if p["prince"]:
            assert f"{p['name']}’s Prince is here" in svg


def test_svg_escapes_player_names():
    game, state = played("machu_picchu", 3, 10)
    view = game.view(state, 0)
    view["players"][0]["name"] = "<script>x</script>&"
    svg = str(machu_picchu.svg(view))
    assert "<script>" not in svg
    ET.fromstring(svg)


@pytest.mark.parametrize("moves", [5, 40, 150, 600])
def test_score_estimate_matches_the_engines_scoring(moves):
    from engine.games.machu_picchu import scoring

    game, state = played("machu_picchu", 3, moves, seed=11)
    for seat in range(3):
        estimate = machu_picchu.score_estimate(game.view(state, seat))
        assert estimate["vp"] == scoring.victory_points(state, seat)
        assert estimate["gold"] == scoring.gold(state, seat)


@pytest.mark.parametrize("moves", range(0, 120, 7))
def test_actions_are_grouped_without_losing_any(moves):
    game, state = played("machu_picchu", 3, moves, seed=5)
    for seat in game.to_act(state):
        view = game.view(state, seat)
        actions = links(game, state, seat)
        groups = machu_picchu.group_actions(view, actions)
        assert sorted(l.index for g in groups for l in g["links"]) == [a.index for a in actions]
        here = view["players"][seat]["prince"]
        for group in groups:
            for link in group["links"]:
                if group["key"] == "neighbour":
                    assert link.action["to"] in view["districts"][here]["neighbours"]
                if group["key"] == "llama":
                    assert link.action["to"] not in view["districts"][here]["neighbours"]
                assert machu_picchu.short_label(view, link)


def test_mail_board_is_tables_without_svg_or_classes():
    game, state = played("machu_picchu", 4, 60)
    html = str(machu_picchu.mail_html(game.view(state, 2)))
    assert "<svg" not in html and "class=" not in html and "<style" not in html
    assert html.count("<tr>") >= 16
    for name in ("Corn Terraces", "Sun Clock", "Incatrail"):
        assert name in html


# ---------------------------------------------------------------- Inca Empire

@pytest.mark.parametrize("moves", [0, 10, 45, 120, 400])
def test_inca_empire_table_svg_has_every_card_and_road(moves):
    game, state = played("inca_empire", 3, moves)
    view = game.view(state, 0)
    svg = str(inca_empire.svg(view))
    root = ET.fromstring(svg)
    assert root.get("role") == "img" and root.find(f"{SVG}title") is not None
    assert len(root.findall(f"{SVG}g[@class='ie-card']")) == len(view["table"])
    assert len(root.findall(f".//{SVG}g[@class='ie-road']")) == len(view["roads"])
    mail = str(inca_empire.mail_html(view))
    assert "<svg" not in mail and "class=" not in mail
    for t in view["table"]:
        assert t["name"] in mail


def _badge_centres(root) -> list[tuple[float, float]]:
    return [(float(c.get("cx")), float(c.get("cy")))
            for g in root.iter(f"{SVG}g") if g.get("class") == "ie-road-cost"
            for c in g.findall(f"{SVG}circle")]


@pytest.mark.parametrize("players, moves", [(2, 300), (4, 400), (5, 2000)])
def test_inca_empire_every_road_cost_badge_stands_apart(players, moves):
    """Several players' roads between the same two cards (four Cusco–Tiwanaku roads, say)
    each show their own badge: no two badges overlap."""
    game, state = played("inca_empire", players, moves)
    view = game.view(state, 0)
    root = ET.fromstring(str(inca_empire.svg(view)))
    centres = _badge_centres(root)
    assert len(centres) == len(view["roads"])
    pairs = {}
    for road in view["roads"]:
        pairs.setdefault(frozenset((tuple(road["a"]), tuple(road["b"]))), []).append(road)
    assert max(len(roads) for roads in pairs.values()) >= 2, "a game with parallel roads"
    for i, (x1, y1) in enumerate(centres):
        for x2, y2 in centres[i + 1:]:
            assert (x1 - x2) ** 2 + (y1 - y2) ** 2 >= (2 * inca_empire.BADGE_R) ** 2


def test_inca_empire_badges_stand_between_cards_not_on_them():
    """A cost badge stands in a gap between cards, where its road is seen."""
    game, state = played("inca_empire", 4, 400)
    view = game.view(state, 0)
    top = min(t["row"] for t in view["table"])
    half_w = (inca_empire.CW - inca_empire.GAP) / 2
    half_h = (inca_empire.CH - inca_empire.GAP) / 2
    cards = [inca_empire._centre(t["column"], t["row"], top) for t in view["table"]]
    root = ET.fromstring(str(inca_empire.svg(view)))
    for bx, by in _badge_centres(root):
        assert not any(abs(bx - cx) < half_w and abs(by - cy) < half_h for cx, cy in cards)


def test_inca_empire_cards_on_the_table_show_their_ports_and_road_numbers():
    """Rulebook, Build a City or Colca: "Cards connect with matching icons ... The number of
    road tokens needed is the sum of the two numbers connecting the cards"."""
    from engine.games.inca_empire.data import CARDS

    game, state = played("inca_empire", 3, 120)
    view = game.view(state, 0)
    root = ET.fromstring(str(inca_empire.svg(view)))
    drawn = {g.get("data-card"): g for g in root.iter(f"{SVG}g") if g.get("class") == "ie-card"}
    for t in view["table"]:
        ports = {(p.get("data-side"), p.get("data-icon"), p.find(f"{SVG}text").text)
                 for p in drawn[t["card"]].iter(f"{SVG}g") if p.get("class") == "ie-port"}
        expected = {(side, icon, str(n)) for side, (icon, n) in CARDS[t["card"]]["ports"].items()}
        assert ports == expected


def test_inca_empire_hand_cards_show_their_ports():
    from engine.games.inca_empire.data import CARDS

    game, state = played("inca_empire", 3, 0)
    for cid in game.view(state, 0)["you"]["hand"]:
        face = str(inca_empire.card_face(cid))
        if CARDS[cid].get("ports"):
            assert face.count('class="ie-port"') == len(CARDS[cid]["ports"])
        else:
            assert face == ""


def test_inca_empire_rows_and_columns_are_labelled_as_the_buttons_name_spots():
    """A button says "(mountain column, 1 south)": the picture names its rows and columns so."""
    from engine.text import render

    game = get_game("inca_empire")
    state = game.setup(NAMES[:4], 7, {})
    spots: list[str] = []
    for _ in range(400):  # bot moves until a button names a spot with its column and row
        labels = [render(a["_say"]) if "_say" in a else a["label"]
                  for seat in game.to_act(state) for a in game.legal_actions(state, seat)]
        spots = [label for label in labels if " column, " in label]
        if spots and len(state["table"]) > 6:
            break
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, game.bot_action(state, seat))
    assert spots, "a state where a button names a spot"
    view = game.view(state, 0)
    root = ET.fromstring(str(inca_empire.svg(view)))
    rows = {int(t.get("data-row")): " ".join(s.text for s in t.findall(f"{SVG}tspan"))
            for t in root.iter(f"{SVG}text") if t.get("class") == "ie-row-label"}
    assert set(rows) == set(range(min(t["row"] for t in view["table"]),
                                  max(t["row"] for t in view["table"]) + 1))
    assert rows[0] == "Cusco's row" and rows[1] == "1 south" and rows[-1] == "1 north"
    columns = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "ie-column-label"]
    assert columns[:3] == ["Coastal column", "Plateau column", "Mountain column"]
    for label in spots:
        for words in re.findall(r"\((\w+) column, ([^)]+)\)", label):
            assert f"{words[0].capitalize()} column" in columns and words[1] in rows.values()


def test_inca_empire_hand_cards_and_goals_have_text():
    game, state = played("inca_empire", 3, 0)
    view = game.view(state, 0)
    for cid in view["you"]["hand"] + view["you"]["goals"]:
        assert inca_empire.card_text(cid) and inca_empire.card(cid)["name" if cid[0] != "G" else "text"]


# ---------------------------------------------------------------- pages and mail

def advance(client, app, admin_headers, game: str, players: int, moves: int):
    body = {"game": game, "seed": 7,
            "players": [{"name": n, "email": f"{n.lower()}@example.com"} for n in NAMES[:players]]}
    data = client.post("/api/games", json=body, headers=admin_headers).get_json()
    secrets = [s["play_url"].rsplit("/", 1)[1] for s in data["seats"]]
    svc = services(app)
    for _ in range(moves):
        with app.app_context(), svc.db.reading() as session:
            loaded = load(session, data["id"])
            to_act = loaded.game.to_act(loaded.state)
            if not to_act:
                break
            seat = to_act[0]
            action = loaded.game.bot_action(loaded.state, seat)
            seq = loaded.seq
        response = client.post(f"/api/play/{secrets[seat]}", json={"action": action, "seq": seq})
        assert response.status_code == 200, response.get_json()
    with app.app_context(), svc.db.reading() as session:
        loaded = load(session, data["id"])
    return loaded, secrets


def render_mail(app, loaded, seat):
    with app.test_request_context():
        context = seat_context(services(app).settings, loaded, seat)
        context.update(intro="It is your turn.", kind="turn")
        return render_template("mail/turn.html", **context), render_template("mail/turn.txt", **context)


@pytest.mark.parametrize("game, players, moves, marker", [
    ("incan_gold", 4, 0, "The temple — round 1 of 5"),
    ("incan_gold", 4, 15, "Explorers"),
    ("machu_picchu", 3, 0, "class=\"mp-board\""),
    ("machu_picchu", 4, 30, "class=\"mp-board\""),
    ("inca_empire", 3, 0, "class=\"ie-board\""),
    ("inca_empire", 3, 45, "class=\"ie-board\""),
])
def test_game_pages_and_mails_show_the_table(client, app, admin_headers, game, players, moves, marker):
    loaded, secrets = advance(client, app, admin_headers, game, players, moves)
    to_act = loaded.game.to_act(loaded.state)
    seat = to_act[0] if to_act else 0
    page = client.get(f"/play/{secrets[seat]}").get_data(as_text=True)
    assert marker in page
    assert '"game": "' not in page                       # not the generic JSON fallback
    legal = loaded.game.legal_actions(loaded.state, seat)
    assert page.count(f'action="/play/{secrets[seat]}/move"') == len(legal)
    shown = unescape(page)
    for action in legal:
        assert action["label"] in shown
    with app.test_request_context():                  # a spectator (seat None) sees the table too
        watching = render_template("pages/_view.html",
                                   **seat_context(services(app).settings, loaded, None))
    assert "game-view" in watching and "(you)" not in watching
    html, text = render_mail(app, loaded, seat)
    assert "<svg" not in html and "<link" not in html
    assert "{{" not in text and "<table" not in text and "<svg" not in text
    assert loaded.game.title.split()[-1].upper() in text.upper()


def test_spectator_view_of_machu_picchu_has_no_private_panel(app):
    game, state = played("machu_picchu", 3, 20)
    view = game.view(state, None)
    assert machu_picchu.score_estimate(view) is None
    ET.fromstring(str(machu_picchu.svg(view)))


@pytest.mark.parametrize("game_name, players", [("incan_gold", 3), ("machu_picchu", 2), ("inca_empire", 2)])
def test_game_over_views_show_final_scores(app, game_name, players):
    game, state = played(game_name, players, 5000)
    assert game.outcome(state) is not None
    for seat in (0, None):
        view = game.view(state, seat)
        with app.test_request_context():
            page = render_template(f"games/{game_name}/view.html", view=view)
            mail = render_template(f"games/{game_name}/mail.html", view=view)
            text = render_template(f"games/{game_name}/view.txt", view=view)
        assert "<svg" not in mail and "{{" not in text
    with app.test_request_context():                  # one table of final scores, on the page
        scores = render_template("pages/_final_scores.html", outcome=game.outcome(state),
                                 breakdown=game.score_breakdown(state), players=NAMES)
    assert "Final scores" in scores and "winner" in scores and "Final scores" not in page
