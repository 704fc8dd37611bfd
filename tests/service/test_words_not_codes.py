"""A player or organiser reads words, never the service's codes: no "seq", no seat counted
from 0, no Moon Tile id, no "14.0 days".  Each reproduction of the complaint has a test here,
and one sweep reads every page, feed and mail of a game of each kind, rolled back once, in
English and Japanese (whose catalog once wrote "seq" too)."""
from __future__ import annotations

import random
import re

import pytest

from engine.registry import GAMES
from service.core.tokens import spectate_token
from service.store.loading import load
from engine.text import render
from service.view.moments import since_sent
from service.web.extensions import services
from tests.service.test_admin_support import everyone_agrees, links_in, mails, move, post_form, \
    site_admin, text_of
from tests.service.test_labels_name_things import readable, visible

# What a reader must never meet: an event number, a seat counted from 0, a Moon Tile's id,
# a number of days with a decimal point.
CODES = re.compile(r"\bseq\b|\bseat 0\b|\bcorn3\b|\bsteps[23]\b|\d+\.\d+ ?(days|日|天)",
                   re.IGNORECASE)


def codes_in(text: str) -> set[str]:
    return {m.group(0) for m in CODES.finditer(readable(text))}


def loaded(app, game_id):
    with services(app).db.reading() as session:
        found = load(session, game_id)
        found.events.all()
        return found


# ------------------------------------------------------------- the stale link's page

def test_a_stale_link_says_the_player_already_moved_and_offers_the_next_turn(app, client,
                                                                              new_game):
    data, secrets = new_game(players=3)
    old_link = links_in(mails(app, "p0@example.com")[-1])[0]
    for seat in range(3):
        assert move(client, secrets[seat], "stay", 1).status_code == 200
    page = client.get(old_link)
    text = visible(page.get_data(as_text=True))
    assert page.status_code == 409
    assert "You already moved after this mail was sent: Stay in the temple." in text
    assert "Nothing was changed." in text and "Play your turn" in text
    assert not codes_in(text)


def test_a_stale_link_after_a_rollback_says_the_game_was_taken_back(app, client, new_game):
    admin = site_admin(app, app.test_client())
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    old_link = links_in(mails(app, "p1@example.com")[-1])[0]
    assert post_form(admin, data["id"], "rollback", to_seq="1", reason="a slip").status_code == 303
    text = visible(client.get(old_link).get_data(as_text=True))
    assert "The game was taken back after this mail was sent." in text
    assert not codes_in(text)


def test_the_moves_made_since_a_mail_are_counted_and_their_players_named(app, client, new_game):
    data, secrets = new_game(players=3)
    move(client, secrets[1], "stay", 1)
    move(client, secrets[2], "leave", 1)
    said = render(since_sent(loaded(app, data["id"]), 0, 1))
    assert said == "2 moves were made after this mail was sent, by P1, P2."
    assert "Stay" not in said and "Leave" not in said  # who moved, never what they chose


def test_a_link_to_a_point_the_game_never_reached_names_no_number(app, client, new_game):
    data, secrets = new_game(players=3)
    text = visible(client.get(f"/play/{secrets[0]}/a/999/0").get_data(as_text=True))
    assert "This link names a point the game has not reached" in text
    assert "999" not in text


# ------------------------------------------------------- rollback mail, feed, footers

def test_the_rollback_mail_and_feed_name_the_move_they_went_back_to(app, client, new_game):
    admin = site_admin(app, app.test_client())
    data, secrets = new_game(players=3)
    for seat in range(3):
        move(client, secrets[seat], "stay", 1)
    assert post_form(admin, data["id"], "rollback", to_seq="2", reason="a slip").status_code == 303
    everyone_agrees(app, client, data["id"], secrets)
    text = text_of(mails(app, "p0@example.com")[-1])
    assert "The game was taken back to just after P0's move by a Chasqui admin." in text
    assert "Undone: 2 moves: 1 by P1, 1 by P2." in text
    assert not codes_in(text)
    token = spectate_token(services(app).settings.secret_key, data["id"])
    feed = client.get(f"/watch/{token}/feed.atom").get_data(as_text=True)
    assert "The game was taken back to just after P0&#39;s move." in feed
    assert not CODES.search(feed)


def test_page_and_mail_footers_count_steps_of_the_record_not_seqs(app, client, new_game):
    data, secrets = new_game(players=3)
    page = visible(client.get(f"/play/{secrets[0]}").get_data(as_text=True))
    assert "as of step 1 of its record" in page and "State seq" not in page
    mail = text_of(mails(app, "p0@example.com")[-1])
    assert "as of step 1 of the game's record" in mail and not codes_in(mail)


# --------------------------------------------------------------- admin pages, API, clocks

def test_admin_pages_name_seats_by_their_players_and_count_from_one(app, client, new_game):
    admin = site_admin(app, app.test_client())
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    game_page = visible(admin.get(f"/admin/games/{data['id']}").get_data(as_text=True))
    assert "Step" in game_page and not codes_in(game_page)
    seen = visible(admin.get(f"/admin/games/{data['id']}/at/2?seat=0").get_data(as_text=True))
    assert "as P0 sees it" in seen and "after step 2 of the 2 in its record" in seen
    assert not codes_in(seen)


def test_the_apis_labels_name_moon_tiles_as_the_game_does(app, client, new_game):
    from tests.service.test_labels_name_things import play_until_a_seat_may_stay
    data, secrets = new_game(game="machu_picchu", players=3, seed=7)
    secret, state = play_until_a_seat_may_stay(client, secrets)
    labels = [a["label"] for a in state["legal_actions"]]
    assert "Stay and take the 3 corn Moon Tile" in labels
    assert not any(CODES.search(label) for label in labels)
    stay = next(a for a in state["legal_actions"] if a.get("tile") == "corn3")
    answer = client.post(f"/api/play/{secret}", json={"action": stay, "seq": state["seq"]})
    assert answer.status_code == 200 and answer.get_json()["move"]["label"] == \
        "Stay and take the 3 corn Moon Tile"


def test_vacation_days_left_are_whole_days_and_a_finished_game_shows_no_clock(app, client,
                                                                              new_game):
    data, secrets = new_game(players=3)
    page = visible(client.get(f"/play/{secrets[0]}").get_data(as_text=True))
    assert "14 vacation days left" in page and not re.search(r"\d+\.\d+ (vacation )?days", page)
    admin = site_admin(app, app.test_client())
    assert post_form(admin, data["id"], "abandon", reason="done").status_code == 303
    ended = visible(client.get(f"/play/{secrets[0]}").get_data(as_text=True))
    assert "days left" not in ended and "Clocks" not in ended


# ------------------------------------------------------------------------------ the sweep

def play_a_while(client, secrets, steps: int, seed: int) -> None:
    chooser = random.Random(seed)
    for _ in range(steps):
        states = [(s, client.get(f"/api/play/{s}").get_json()) for s in secrets]
        acting = [(s, st) for s, st in states if st["legal_actions"]]
        if not acting:
            return
        secret, state = chooser.choice(acting)
        action = chooser.choice(state["legal_actions"])
        client.post(f"/api/play/{secret}", json={"action": action, "seq": state["seq"]})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_page_feed_or_mail_of_a_game_shows_a_code(app, client, new_game, name):
    admin = site_admin(app, app.test_client())
    game = GAMES[name]
    data, secrets = new_game(game=name, players=max(game.min_players, 3), seed=5)
    old_link = links_in(mails(app, "p0@example.com")[-1])[0]
    play_a_while(client, secrets, 8, 5)
    assert post_form(admin, data["id"], "rollback", to_seq="2", reason="a slip").status_code == 303
    play_a_while(client, secrets, 4, 6)
    token = spectate_token(services(app).settings.secret_key, data["id"])
    found = set()
    for language in ("en", "ja"):
        pages = [f"/play/{s}?lang={language}" for s in secrets] + [
            f"/watch/{token}?lang={language}", old_link + f"?lang={language}"]
        for path in pages:
            found |= codes_in(visible(client.get(path).get_data(as_text=True)))
        for path in (f"/admin/games/{data['id']}", f"/admin/games/{data['id']}/at/2?seat=0",
                     "/admin/"):
            found |= codes_in(visible(admin.get(f"{path}{'&' if '?' in path else '?'}"
                                                f"lang={language}").get_data(as_text=True)))
    found |= codes_in(client.get(f"/watch/{token}/feed.atom").get_data(as_text=True))
    for message in mails(app):
        found |= codes_in(text_of(message))
        html = message.get_body(("html",))
        if html is not None:
            found |= codes_in(visible(html.get_content()))
    for secret in secrets:
        for action in client.get(f"/api/play/{secret}").get_json()["legal_actions"]:
            found |= codes_in(action["label"])
    assert not found


def test_an_admins_notices_about_seats_count_from_one_or_name_the_player(app, client,
                                                                         new_game):
    admin = site_admin(app, app.test_client())
    data, _ = new_game(players=3)
    answer = post_form(admin, data["id"], "seats/0/bot")
    assert answer.status_code == 303
    page = visible(admin.get(f"/admin/games/{data['id']}").get_data(as_text=True))
    assert "Seat 1 is now played by the easy bot." in page and not codes_in(page)
    answer = post_form(admin, data["id"], "seats/1/replace", name="Zoe", email="zoe@example.com")
    assert answer.status_code == 303
    page = visible(admin.get(f"/admin/games/{data['id']}").get_data(as_text=True))
    assert "P1's seat was offered to Zoe" in page
    offered = [text_of(m) for m in mails(app, "zoe@example.com")][-1]
    told = [text_of(m) for m in mails(app, "p1@example.com")][-1]
    assert "offers you seat 2 in a game" in offered and "offered your seat 2" in told
    assert not codes_in(offered) and not codes_in(told)


def test_a_rollback_names_the_last_move_still_in_the_game_not_an_undone_one(app, client,
                                                                            new_game):
    admin = site_admin(app, app.test_client())
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)  # step 2
    move(client, secrets[1], "stay", 1)  # step 3
    assert post_form(admin, data["id"], "rollback", to_seq="2", reason="one").status_code == 303
    move(client, secrets[2], "stay", 4)  # step 5
    # back to step 4, which is the game as it was after P0's move: P1's was undone there
    assert post_form(admin, data["id"], "rollback", to_seq="4", reason="two").status_code == 303
    text = text_of(mails(app, "p0@example.com")[-1])
    assert "The game was taken back to just after P0's move by a Chasqui admin." in text
    assert "Undone: 1 move by P2." in text


def test_the_admin_log_tells_a_vacation_and_the_seeds_reveal_in_words(app, client, new_game):
    from tests.service.test_play_pages import form_fields
    admin = site_admin(app, app.test_client())
    data, secrets = new_game(players=3)
    token = form_fields(client.get(f"/play/{secrets[0]}").get_data(as_text=True))["csrf_token"]
    assert client.post(f"/play/{secrets[0]}/vacation",
                       data={"csrf_token": token, "on": "1"}).status_code == 303
    assert post_form(admin, data["id"], "abandon", reason="done").status_code == 303
    log = visible(admin.get(f"/admin/games/{data['id']}").get_data(as_text=True))
    assert "P0 went on vacation, 14 vacation days left" in log
    assert "revealed the game's seed" in log
    assert "VacationStarted" not in log and "SeedRevealed" not in log and not codes_in(log)


def test_a_rollback_past_the_game_names_the_step_not_a_seq(app, client, new_game):
    admin = site_admin(app, app.test_client())
    data, secrets = new_game(players=3)
    move(client, secrets[0], "stay", 1)
    refused = post_form(admin, data["id"], "rollback", to_seq="9", reason="a slip")
    text = visible(refused.get_data(as_text=True))
    assert refused.status_code == 400
    assert "the step to go back to (to_seq) must be from 1 to 1" in text and "a seq" not in text
