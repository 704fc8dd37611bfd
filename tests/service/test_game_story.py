"""The game's story: a history page that steps through every event with the board as its
reader could see it then, feeds and webhook posts that say what a move did, Atom
autodiscovery, and the finished game's links (record, a check at once, rematch)."""
from __future__ import annotations

import re

import pytest
from flask import render_template

from service.store.history import rebuild
from service.store.loading import load
from service.view import told
from service.web.extensions import services
from tests.service.test_boards import advance

BASE = "http://chasqui.test"


def events_of(app, game_id):
    with app.app_context(), services(app).db.reading() as session:
        loaded = load(session, game_id)
        return loaded, loaded.events.all()


def board_html(app, game_name, view, seat, players):
    """The board as the history page includes it (``pages/_view.html``)."""
    with app.test_request_context():
        return render_template("pages/_view.html", view=view, game_name=game_name, seat=seat,
                               players=players)


def watch_token(client, secret):
    page = client.get(f"/play/{secret}").get_data(as_text=True)
    return re.search(r"/watch/([^/\"]+)/feed\.atom", page).group(1)


@pytest.mark.parametrize("game, players, moves", [
    ("incan_gold", 3, 14), ("machu_picchu", 3, 12), ("inca_empire", 3, 12)])
def test_each_step_shows_the_board_the_seat_and_the_spectator_could_see_then(
        client, app, admin_headers, game, players, moves):
    loaded, secrets = advance(client, app, admin_headers, game, players, moves)
    _, events = events_of(app, loaded.row.id)
    token = watch_token(client, secrets[0])
    names = [s.name for s in loaded.seats]
    for k in range(1, len(events) + 1):
        _, state = rebuild(events[:k])
        for reader, url in ((1, f"/play/{secrets[1]}/history?step={k}"),
                            (None, f"/watch/{token}/history?step={k}")):
            response = client.get(url)
            assert response.status_code == 200, (k, reader)
            page = response.get_data(as_text=True)
            expected = board_html(app, game, loaded.game.view(state, reader), reader, names)
            assert expected in page, (k, reader)
            assert f"Step {k} of {len(events)}" in page



def finish(client, secrets):
    from tests.service.test_mail_spectate_rematch import finish as played_out
    return played_out(client, secrets)


def test_after_the_end_anyone_may_see_any_seats_view_and_every_move_by_its_own_words(
        client, app, new_game):
    data, secrets = new_game(players=3)
    finish(client, secrets)
    loaded, events = events_of(app, data["id"])
    token = watch_token(client, secrets[0])
    names = [s.name for s in loaded.seats]
    k = len(events) // 2
    _, state = rebuild(events[:k])
    for asked, seat in (("2", 1), ("3", 2), ("table", None)):
        page = client.get(f"/watch/{token}/history?step={k}&as={asked}").get_data(as_text=True)
        assert board_html(app, "incan_gold", loaded.game.view(state, seat), seat, names) in page
    page = client.get(f"/play/{secrets[0]}/history?step={k}").get_data(as_text=True)
    assert board_html(app, "incan_gold", loaded.game.view(state, 0), 0, names) in page
    assert "Whose view" in page
    assert "Leave for camp" in page or "Stay in the temple" in page, "each move's own words"


def test_while_the_game_runs_no_one_may_pick_another_seats_view(client, app, admin_headers):
    loaded, secrets = advance(client, app, admin_headers, "incan_gold", 3, 4)
    _, events = events_of(app, loaded.row.id)
    names = [s.name for s in loaded.seats]
    _, state = rebuild(events)
    page = client.get(f"/play/{secrets[0]}/history?as=2").get_data(as_text=True)
    assert board_html(app, "incan_gold", loaded.game.view(state, 0), 0, names) in page
    assert board_html(app, "incan_gold", loaded.game.view(state, 1), 1, names) not in page
    assert "Whose view" not in page


@pytest.mark.parametrize("game, players, moves", [
    ("incan_gold", 4, 9), ("machu_picchu", 3, 10), ("inca_empire", 3, 14)])
def test_a_seats_history_shows_nothing_of_another_seats_secrets(
        client, app, admin_headers, monkeypatch, game, players, moves):
    """Every state the page is built from has one holder's secrets (or what nobody knows)
    changed: every other seat's page, and the spectator's, stays byte for byte the same."""
    loaded, secrets = advance(client, app, admin_headers, game, players, moves)
    token = watch_token(client, secrets[0])
    count = len(events_of(app, loaded.row.id)[1])
    replayed = told.states_after_each
    readers = [(seat, f"/play/{secrets[seat]}/history") for seat in range(players)]
    readers.append((None, f"/watch/{token}/history"))

    def pages():
        return {(reader, k): client.get(f"{url}?step={k}").get_data()
                for reader, url in readers for k in (1, count // 2, count)}

    plain = pages()
    for holder in [*range(players), None]:
        def varied(loaded, holder=holder):
            for event, state in replayed(loaded):
                yield event, loaded.game.vary_secrets(state, holder)
        monkeypatch.setattr(told, "states_after_each", varied)
        changed = pages()
        for (reader, k), page in plain.items():
            if reader != holder:
                assert changed[(reader, k)] == page, (holder, reader, k)
        if holder == 0:  # the check has teeth: a seat sees its own secrets change
            assert changed[(0, count)] != plain[(0, count)]
    monkeypatch.setattr(told, "states_after_each", replayed)


def test_a_step_out_of_range_or_not_a_number_is_refused_and_a_get_changes_nothing(
        client, app, new_game):
    data, secrets = new_game(players=3)
    before = len(events_of(app, data["id"])[1])
    for query in ("step=0", "step=99", "step=x", "as=7", "as=0", "as=ana"):
        assert client.get(f"/play/{secrets[0]}/history?{query}").status_code == 400, query
    assert client.get("/watch/forged/history").status_code == 404
    assert client.get("/play/forged/history").status_code in (403, 404)
    assert len(events_of(app, data["id"])[1]) == before


def test_rollbacks_and_undos_are_steps_and_the_moves_they_took_back_are_struck_through(
        client, app, admin_headers, new_game):
    data, secrets = new_game(players=3)
    for seat in (0, 1):
        mine = client.get(f"/api/play/{secrets[seat]}").get_json()
        client.post(f"/api/play/{secrets[seat]}",
                    json={"action": mine["legal_actions"][0], "seq": mine["seq"]})
    response = client.post(f"/admin/api/games/{data['id']}/rollback",
                           json={"to_seq": 2, "reason": "a misclick"}, headers=admin_headers)
    assert response.status_code == 200, response.get_json()
    page = client.get(f"/play/{secrets[2]}/history").get_data(as_text=True)
    assert page.count("<del>") == 1, "the second move was taken back"
    assert "(taken back)" in page and "The game was taken back" in page


def test_feeds_and_webhook_posts_say_what_a_move_did(client, app, new_game):
    data, secrets = new_game(players=3)
    for seat in (0, 1, 2):
        mine = client.get(f"/api/play/{secrets[seat]}").get_json()
        choice = next(a for a in mine["legal_actions"] if a["type"] == ("leave" if seat == 0 else "stay"))
        client.post(f"/api/play/{secrets[seat]}", json={"action": choice, "seq": mine["seq"]})
    token = watch_token(client, secrets[0])
    feed = client.get(f"/watch/{token}/feed.atom").get_data(as_text=True)
    assert "P0 has chosen." in feed and "made a move" not in feed
    assert re.search(r"P0 left the temple with \d+ gems?\.", feed)
    assert "P1, P2 stayed in the temple." in feed
    assert f"{BASE}/watch/{token}/history?step=4" in feed, "an entry links its step of the story"


@pytest.mark.parametrize("game", ["machu_picchu", "inca_empire"])
def test_a_log_keeping_game_tells_a_move_by_its_public_log_line(client, app, admin_headers, game):
    loaded, secrets = advance(client, app, admin_headers, game, 3, 8)
    token = watch_token(client, secrets[0])
    feed = client.get(f"/watch/{token}/feed.atom").get_data(as_text=True)
    from service.view.i18n import translate
    line = translate("en", loaded.game.view(loaded.state, None)["log"][-1])
    assert f"<title>{line}</title>" in feed.replace("&#39;", "'"), "the newest move's entry"


def test_play_and_watch_pages_announce_their_feeds_and_link_the_story(client, new_game):
    data, secrets = new_game(players=3)
    token = watch_token(client, secrets[0])
    for url in (f"/play/{secrets[0]}", f"/watch/{token}"):
        page = client.get(url).get_data(as_text=True)
        head = page.split("</head>")[0]
        assert re.search(r'<link rel="alternate" type="application/atom\+xml" title="[^"]+" '
                         rf'href="{BASE}/watch/{token}/feed\.atom">', head), url
        assert "/history\"" in page.split("</head>")[1], url
    play_head = client.get(f"/play/{secrets[0]}").get_data(as_text=True).split("</head>")[0]
    assert re.search(r'href="[^"]*/feeds/[^"]+\.atom"', play_head), "the player's own feed"


def test_the_check_at_once_verifies_a_finished_game_and_the_pages_link_it(client, new_game):
    data, secrets = new_game(players=3)
    token = watch_token(client, secrets[0])
    assert client.get(f"/play/{secrets[0]}/verify").status_code == 404, "not before the end"
    finish(client, secrets)
    for url in (f"/play/{secrets[1]}/verify", f"/watch/{token}/verify"):
        response = client.get(url)
        assert response.status_code == 200
        assert "Verified" in response.get_data(as_text=True) and data["id"] in response.get_data(as_text=True)
    play = client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    assert f'href="/play/{secrets[1]}/verify">verify this game' in play
    watch = client.get(f"/watch/{token}").get_data(as_text=True)
    assert f'/watch/{token}/verify">verify this game' in watch


@pytest.mark.parametrize("language, words", [
    ("zh_Hans", ("本局经过", "第 1 步，共", "所有步骤", "已做出选择。", "留在神殿里。")),
    ("ja", ("ゲームの経過", "ステップ 1／", "すべてのステップ", "が選んだ。", "は神殿に残った。"))])
def test_the_story_and_the_feed_speak_the_readers_language_with_its_punctuation(
        client, new_game, language, words):
    data, secrets = new_game(players=3)
    for seat in (0, 1, 2):
        mine = client.get(f"/api/play/{secrets[seat]}").get_json()
        client.post(f"/api/play/{secrets[seat]}", json={"action": {"type": "stay"},
                                                        "seq": mine["seq"]})
    page = client.get(f"/play/{secrets[0]}/history?step=1&lang={language}").get_data(as_text=True)
    for word in words[:3]:
        assert word in page, word
    for english in ("Every step", "Step 1 of", "has chosen", "Back to the game"):
        assert english not in page, english
    token = watch_token(client, secrets[0])
    feed = client.get(f"/watch/{token}/feed.atom?lang={language}").get_data(as_text=True)
    for word in words[3:]:
        assert word in feed, word
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff][.;,!?]", feed), "no ASCII punctuation"


def test_the_story_of_a_game_loaded_from_a_snapshot_starts_at_its_first_event(
        client, app, new_game):
    from service.store import snapshots
    from tests.service.test_gets_write_nothing import play_stays
    data, secrets = new_game(players=4)
    head = play_stays(client, secrets, snapshots.EVERY + 3)
    page = client.get(f"/play/{secrets[0]}/history?step=1").get_data(as_text=True)
    assert f"Step 1 of {head}" in page and "The game began: P0, P1, P2, P3." in page
