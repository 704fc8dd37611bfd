"""A finished game's page, its watch page and its game-over mail (text and HTML) show each
final score with where its points came from, in words, as the game's rulebook counts them."""
from __future__ import annotations

from html import unescape
import re

import pytest
from flask import render_template

from engine.text import render
from service.core.tokens import spectate_token
from service.store.loading import load
from service.view.presenter import seat_context
from service.web.extensions import services
from tests.service.test_admin_support import post_form, site_admin

GAMES = [("incan_gold", 3, "gems in the tent"), ("machu_picchu", 2, " on the cards × "),
         ("inca_empire", 2, "token")]


def finished_by_bots(app, client, new_game, game: str, players: int):
    """A game every seat of which was handed to a bot, so it plays to its end at once."""
    site_admin(app, client)
    data, secrets = new_game(game=game, players=players, seed=3)
    for seat in range(players):
        post_form(client, data["id"], f"seats/{seat}/bot")
    with services(app).db.reading() as session:
        loaded = load(session, data["id"])
    assert loaded.game.outcome(loaded.state) is not None
    return loaded, secrets


def game_over_mail(app, loaded, seat: int) -> tuple[str, str]:
    with app.test_request_context():
        context = seat_context(services(app).settings, loaded, seat)
        context.update(intro="The game is over.", kind="game_over")
        return (render_template("mail/turn.html", **context),
                render_template("mail/turn.txt", **context))


def said_parts(loaded) -> list[str]:
    explained = loaded.game.score_breakdown(loaded.state)
    return [render(part["say"]) for seat in explained for part in explained[seat]["parts"]]


@pytest.mark.parametrize("game, players, marker", GAMES)
def test_final_scores_show_where_their_points_came_from_on_pages_and_in_mail(
        app, client, new_game, game, players, marker):
    loaded, secrets = finished_by_bots(app, client, new_game, game, players)
    parts = said_parts(loaded)
    assert any(marker in part for part in parts), parts
    watch = spectate_token(services(app).settings.secret_key, loaded.row.id)
    shown = {"play page": client.get(f"/play/{secrets[0]}").get_data(as_text=True),
             "watch page": client.get(f"/watch/{watch}").get_data(as_text=True)}
    shown["mail (HTML)"], shown["mail (text)"] = game_over_mail(app, loaded, 0)
    for where, text in shown.items():
        words = unescape(text)
        assert words.count("Final scores") == 1, where
        for part in parts:
            assert part in words, (where, part)
        for seat, score in loaded.game.outcome(loaded.state)["scores"].items():
            assert f"{score} points" in words or f"{score} point " in words, (where, score)


def test_incan_gold_final_score_reads_as_its_sum(app, client, new_game):
    loaded, _secrets = finished_by_bots(app, client, new_game, "incan_gold", 3)
    _html, text = game_over_mail(app, loaded, 0)
    for seat, explained in loaded.game.score_breakdown(loaded.state).items():
        player = loaded.state["players"][seat]
        line = f"{explained['total']} points = {player['tent']} gems in the tent"
        line += "".join(f" + an artifact worth {value}" for value in player["artifacts"])
        assert re.search(re.escape(line) + r"$", text, re.M), line


@pytest.mark.parametrize("language, plus_marker", [("zh_Hans", "分"), ("ja", "点")])
def test_final_scores_are_told_in_chinese_and_japanese(app, client, new_game, language,
                                                       plus_marker):
    loaded, secrets = finished_by_bots(app, client, new_game, "incan_gold", 3)
    page = unescape(client.get(f"/play/{secrets[0]}?lang={language}").get_data(as_text=True))
    section = page.split('id="final-scores-h"', 1)[1].split("</section>", 1)[0]
    assert "gems in the tent" not in section and "points" not in section
    assert plus_marker in section
