"""The clocks table says what its numbers count ("14 vacation days left", never "14.0 days
left"), and a finished game shows no clocks at all: nobody's time runs any more."""
from __future__ import annotations

from datetime import timedelta
import re

from tests.service.test_final_score_words import finished_by_bots
from tests.service.test_play_pages import form_fields


def test_vacation_days_are_counted_in_words_without_a_needless_decimal(app, client, clock,
                                                                       new_game):
    data, secrets = new_game(players=3)
    page = client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    assert re.search(r">\d+ vacation days left<", page), "whole days, as words say them"
    assert not re.search(r"\d+\.0 (vacation )?days? left", page)
    token = form_fields(client.get(f"/play/{secrets[0]}").get_data(as_text=True))["csrf_token"]
    client.post(f"/play/{secrets[0]}/vacation", data={"csrf_token": token, "on": "1"})
    clock.advance(timedelta(hours=36))
    client.post(f"/play/{secrets[0]}/vacation", data={"csrf_token": token, "on": "0"})
    page = client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    assert re.search(r">\d+\.5 vacation days left<", page)


def test_a_finished_game_shows_no_clocks(app, client, new_game):
    _loaded, secrets = finished_by_bots(app, client, new_game, "incan_gold", 3)
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    assert "days left" not in page and 'id="clock-h"' not in page
