"""No turn mail is dead on arrival: a player who plays on the page is not mailed for what
their own move just put before them, unless they leave it unanswered."""
from __future__ import annotations

import email
import html
import json
import re
from datetime import timedelta
from email import policy

import pytest
from sqlalchemy import func, select

from engine import clone
from engine.core import without_label
from service.application.games import listed_or_first
from service.mail import delivery
from service.store.loading import load
from service.store.models import LocalMailRow, OutboxRow
from service.web.cli import sweep_outboxes, tick_once
from service.web.extensions import services
from tests.conftest import ADMIN_TOKEN, make_settings, migrated_app, secret_from_url

FORM = re.compile(r'<form method="post" action="/play/[^"/]+/move"[^>]*>(.*?)</form>', re.S)
FIELD = re.compile(r'name="(csrf_token|seq|action)" value="([^"]*)"')
FIRST_LINK = re.compile(r"/play/[^/\s]+/a/\d+/\d+")


def move_forms(page: str) -> list[dict]:
    """The move forms the play page offers, as a browser would post them."""
    return [{name: html.unescape(value) for name, value in FIELD.findall(form)}
            for form in FORM.findall(page)]


def newest_mail_id(app) -> int:
    with services(app).db.reading() as session:
        return session.scalar(select(func.coalesce(func.max(LocalMailRow.id), 0)))


def turn_mails_since(app, mail_id: int) -> list:
    """The turn mails delivered after the local mailbox's row ``mail_id``."""
    with services(app).db.reading() as session:
        raws = session.scalars(
            select(LocalMailRow.raw)
            .join(OutboxRow, OutboxRow.message_id == LocalMailRow.message_id)
            .where(LocalMailRow.id > mail_id, OutboxRow.kind == "turn")
            .order_by(LocalMailRow.id)).all()
    return [email.message_from_string(raw, policy=policy.default) for raw in raws]


def first_link_is_stale(client, message) -> bool:
    """Opening the mail: its first move link's page says the game moved on (409)."""
    text = message.get_body(("plain",)).get_content()
    link = FIRST_LINK.search(text)
    assert link, "a turn mail offers a move link"
    return client.get(link.group(0)).status_code == 409


def chosen_form(app, game_id: str, seat: int, forms: list[dict]) -> dict:
    """The form of the move the engine's bot would make: games then run to their end."""
    with services(app).db.reading() as session:
        loaded = load(session, game_id)
    game, state = loaded.game, loaded.state
    wanted = without_label(listed_or_first(game.legal_actions(state, seat),
                                           game.bot_action(state, seat)))
    for form in forms:
        if without_label(json.loads(form["action"])) == wanted:
            return form
    return forms[0]


def seat_to_act(app, game_id: str) -> int | None:
    with services(app).db.reading() as session:
        loaded = load(session, game_id)
    if loaded.row.status != "active":
        return None
    to_act = loaded.game.to_act(loaded.state)
    return to_act[0] if to_act else None


def play_whole_turns_on_the_page(app, client, game_id: str, secrets: list[str],
                                 max_moves: int) -> tuple[int, int]:
    """Each seat whose turn it is takes it on the play page, step after step, as long as the
    page offers it a move; then every turn mail that arrived meanwhile is opened.  Returns
    (turn mails opened, of them dead: the first link already stale)."""
    opened = dead = moves = 0
    while moves < max_moves:
        seat = seat_to_act(app, game_id)
        if seat is None:
            break
        before, started = newest_mail_id(app), moves
        while moves < max_moves:
            forms = move_forms(client.get(f"/play/{secrets[seat]}").get_data(as_text=True))
            if not forms:
                assert moves > started, "the page offers a move to the seat that must act"
                break
            form = chosen_form(app, game_id, seat, forms)
            assert client.post(f"/play/{secrets[seat]}/move", data=form).status_code == 303
            moves += 1
        for message in turn_mails_since(app, before):
            opened += 1
            dead += first_link_is_stale(client, message)
    return opened, dead


GAMES = [("incan_gold", 4, 120), ("machu_picchu", 3, 120), ("inca_empire", 3, 120)]


@pytest.mark.parametrize("game, players, moves", GAMES)
def test_a_player_who_plays_on_the_page_gets_no_dead_mail(app, client, clock, new_game, game,
                                                          players, moves):
    data, secrets = new_game(game=game, players=players, seed=7)
    opened, dead = play_whole_turns_on_the_page(app, client, data["id"], secrets, moves)
    assert opened > 0
    assert dead == 0, f"{dead} of {opened} turn mails were dead on arrival"
    before = newest_mail_id(app)
    sweep_after_the_wait(app, clock)  # the mails that waited: none goes out dead either
    late = turn_mails_since(app, before)
    assert not [message for message in late if first_link_is_stale(client, message)]


# --- a deferred mail: held while the player is on the page, sent live if they leave --------

WAIT = timedelta(seconds=300)  # the default CHASQUI_TURN_MAIL_WAIT
AFTER_THE_WAIT = WAIT + timedelta(minutes=2)  # and the sweep's grace, and a tick


def outbox_rows(app, seat: int | None = None) -> list[OutboxRow]:
    with services(app).db.reading() as session:
        query = select(OutboxRow).order_by(OutboxRow.id)
        if seat is not None:
            query = query.where(OutboxRow.seat == seat)
        return list(session.scalars(query))


def post_on_the_page(client, secret: str, form_index: int = 0) -> None:
    forms = move_forms(client.get(f"/play/{secret}").get_data(as_text=True))
    assert client.post(f"/play/{secret}/move", data=forms[form_index]).status_code == 303


def last_to_choose_on_the_page(client, secrets: list[str]) -> None:
    """Incan Gold, three players: the first two stay by the API, the third on the page, which
    opens the next turn for all three."""
    for seat in (0, 1):
        assert client.post(f"/api/play/{secrets[seat]}",
                           json={"action": {"type": "stay"}, "seq": 1 + seat}).status_code == 200
    post_on_the_page(client, secrets[2])


def sweep_after_the_wait(app, clock) -> None:
    """The clock moves past the wait; then the outbox sweep runs, as ``tick`` runs it."""
    clock.advance(AFTER_THE_WAIT)
    with app.app_context():
        sweep_outboxes(services(app))


def mails_to(app, address: str) -> list:
    with services(app).db.reading() as session:
        raws = session.scalars(select(LocalMailRow.raw).where(LocalMailRow.to_addr == address)
                               .order_by(LocalMailRow.id)).all()
    return [email.message_from_string(raw, policy=policy.default) for raw in raws]


def test_the_last_answer_on_the_page_defers_only_that_players_mail(app, client, new_game):
    _, secrets = new_game(players=3)
    last_to_choose_on_the_page(client, secrets)
    assert [len(mails_to(app, f"p{seat}@example.com")) for seat in range(3)] == [2, 2, 1]
    waiting = [row for row in outbox_rows(app) if row.status == "pending"]
    assert [(row.seat, row.kind) for row in waiting] == [(2, "turn")]


def test_a_deferred_mail_goes_out_live_when_the_player_leaves_the_page(app, client, clock,
                                                                       new_game):
    _, secrets = new_game(players=3)
    last_to_choose_on_the_page(client, secrets)
    svc = services(app)
    clock.advance(WAIT - timedelta(seconds=1))
    with app.app_context():
        sweep_outboxes(svc)
    assert len(mails_to(app, "p2@example.com")) == 1, "not before the wait is over"
    clock.advance(AFTER_THE_WAIT)
    with app.app_context():
        tick_once(svc)  # the embedded default's beat
    start, turn = mails_to(app, "p2@example.com")
    assert not first_link_is_stale(client, turn)
    assert [row.status for row in outbox_rows(app, seat=2)] == ["sent", "sent"]


def test_a_deferred_mail_is_live_though_the_others_chose_meanwhile(app, client, clock, new_game):
    _, secrets = new_game(players=3)
    last_to_choose_on_the_page(client, secrets)
    for seat in (0, 1):
        post_on_the_page(client, secrets[seat])
    sweep_after_the_wait(app, clock)
    turn = mails_to(app, "p2@example.com")[-1]
    assert not first_link_is_stale(client, turn)


def test_a_deferred_mail_is_dropped_once_the_player_answered_on_the_page(app, client, clock,
                                                                         new_game):
    _, secrets = new_game(players=3)
    last_to_choose_on_the_page(client, secrets)
    post_on_the_page(client, secrets[2])
    sweep_after_the_wait(app, clock)
    assert len(mails_to(app, "p2@example.com")) == 1
    dropped = outbox_rows(app, seat=2)[-1]
    assert (dropped.kind, dropped.status) == ("turn", "cancelled")
    assert dropped.last_error == delivery.ANSWERED


def test_the_worker_sweep_finds_a_deferred_mail_only_once_it_is_due(app, client, clock, new_game):
    """Celery beat's ``sweep_outbox`` hands the worker what ``due_ids`` lists, as ``tick``
    delivers it: a deferred row is listed once its wait is over, not before."""
    _, secrets = new_game(players=3)
    last_to_choose_on_the_page(client, secrets)
    waiting = [row.id for row in outbox_rows(app) if row.status == "pending"]
    assert len(waiting) == 1
    svc = services(app)
    assert not set(waiting) & set(delivery.due_ids(svc.db, clock() + WAIT - timedelta(seconds=1)))
    assert set(waiting) <= set(delivery.due_ids(svc.db, clock() + AFTER_THE_WAIT))


def test_a_move_by_api_or_mail_is_mailed_at_once(app, client, new_game):
    """Only the page shows the player what their move opened; a script or a mail reply
    gets the next decision by mail at once."""
    _, secrets = new_game(players=3)
    for seat in range(3):
        client.post(f"/api/play/{secrets[seat]}", json={"action": {"type": "stay"}, "seq": 1 + seat})
    assert [len(mails_to(app, f"p{seat}@example.com")) for seat in range(3)] == [2, 2, 2]
    assert all(row.status == "sent" for row in outbox_rows(app))


def test_a_turn_of_several_steps_is_finished_from_one_mail_without_another(app, client,
                                                                          new_game):
    """Inca Empire: the mail's first link, its confirmation, then the play page leads through
    every further step of the turn; no mail comes for those steps."""
    data, secrets = new_game(game="inca_empire", players=3, seed=7)
    steps = 0
    for _ in range(60):  # until a seat's turn takes several steps
        seat = seat_to_act(app, data["id"])
        before = len(outbox_rows(app, seat=seat))
        mail = mails_to(app, f"p{seat}@example.com")[-1]
        link = FIRST_LINK.search(mail.get_body(("plain",)).get_content()).group(0)
        confirm = client.get(link).get_data(as_text=True)
        form = {name: html.unescape(value) for name, value in FIELD.findall(confirm)}
        assert client.post(f"/play/{secrets[seat]}/move", data=form).status_code == 303
        while seat_to_act(app, data["id"]) == seat and steps < 40:
            forms = move_forms(client.get(f"/play/{secrets[seat]}").get_data(as_text=True))
            form = chosen_form(app, data["id"], seat, forms)
            assert client.post(f"/play/{secrets[seat]}/move", data=form).status_code == 303
            steps += 1
        rows = outbox_rows(app, seat=seat)[before:]
        assert all(row.status != "sent" for row in rows if row.kind == "turn")
        if steps:
            break
    assert steps, "a turn took several steps"


def test_a_deferred_mail_is_dropped_when_the_game_was_paused_and_resumed_meanwhile(
        app, client, clock, admin_headers, new_game):
    """The resume mails the seat its turn again, with links to the resumed game; the mail
    that waited, whose links the pause made stale, does not follow it."""
    data, secrets = new_game(players=3)
    last_to_choose_on_the_page(client, secrets)
    for command in ("pause", "resume"):
        body = {"reason": "a power cut"} if command == "pause" else {}
        response = client.post(f"/admin/api/games/{data['id']}/{command}", json=body,
                               headers=admin_headers)
        assert response.status_code == 200, response.get_json()
    sweep_after_the_wait(app, clock)
    kinds = [(row.kind, row.status) for row in outbox_rows(app, seat=2)]
    assert ("turn", "cancelled") in kinds and ("resumed", "sent") in kinds
    assert not first_link_is_stale(client, mails_to(app, "p2@example.com")[-1])


def test_a_wait_of_nothing_mails_the_player_on_the_page_at_once(tmp_path, clock):
    app = migrated_app(make_settings(tmp_path, CHASQUI_TURN_MAIL_WAIT="0"), clock=clock)
    app.config["TESTING"] = True
    client = app.test_client()
    try:
        body = {"game": "incan_gold", "seed": 42, "players": [
            {"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(3)]}
        created = client.post("/api/games", json=body,
                              headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}).get_json()
        last_to_choose_on_the_page(client, [secret_from_url(s["play_url"])
                                            for s in created["seats"]])
        assert [len(mails_to(app, f"p{seat}@example.com")) for seat in range(3)] == [2, 2, 2]
    finally:
        services(app).db.dispose()


def test_a_plan_confirmed_on_the_page_defers_the_mail_of_the_step_it_opened(app, client,
                                                                            new_game):
    """Inca Empire, played on the page until the bot's next step would leave its seat a
    further step; that step is confirmed as a plan instead, with the same outcome for mail."""
    data, secrets = new_game(game="inca_empire", players=3, seed=7)
    for _ in range(60):
        with services(app).db.reading() as session:
            loaded = load(session, data["id"])
        game, state = loaded.game, loaded.state
        seat = game.to_act(state)[0]
        step = listed_or_first(game.legal_actions(state, seat), game.bot_action(state, seat))
        after = clone(state)
        game.apply_in_place(after, seat, without_label(step))
        if seat in game.to_act(after):
            break
        forms = move_forms(client.get(f"/play/{secrets[seat]}").get_data(as_text=True))
        form = chosen_form(app, data["id"], seat, forms)
        assert client.post(f"/play/{secrets[seat]}/move", data=form).status_code == 303
    else:
        raise AssertionError("no step left its seat a further step")
    before = len(outbox_rows(app, seat=seat))
    page = client.get(f"/play/{secrets[seat]}").get_data(as_text=True)
    token = dict(FIELD.findall(page))["csrf_token"]
    response = client.post(f"/play/{secrets[seat]}/plan", data={
        "csrf_token": html.unescape(token), "seq": str(loaded.seq),
        "actions": json.dumps([without_label(step)])})
    assert response.status_code == 303
    assert "Done" in client.get(response.headers["Location"]).get_data(as_text=True)
    new_rows = outbox_rows(app, seat=seat)[before:]
    assert [(row.kind, row.status) for row in new_rows] == [("turn", "pending")]
