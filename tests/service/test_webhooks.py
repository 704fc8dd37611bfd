"""A game's chat channel: webhook posts reach a real local receiver in each format, signed
(generic JSON), retried with backoff after a failure, switched off after repeated failures
(the organiser is told), posted once per (event, hook), never to a refused address, and
never with a secret or a seat's link (docs/webhooks.md)."""
from __future__ import annotations

import hashlib
import hmac
import re
from datetime import timedelta

import pytest
from sqlalchemy.exc import IntegrityError

from service.mail import webhook_delivery, webhook_guard
from service.mail.webhook_guard import UnsafeTarget
from service.store.models import SeatRow, WebhookDeliveryRow
from service.web.cli import sweep_outboxes
from service.web.extensions import services
from tests.service.test_admin_support import everyone_agrees
from tests.service.webhook_kit import (Receiver, add_hook, app, hook_row, move,  # noqa: F401
                                       posts_of, receiver)

MINUTE = timedelta(minutes=1)


def test_each_format_posts_its_own_body_with_the_public_summary_and_the_watch_link(
        app, client, new_game, receiver):
    """Discord ``content``/embeds, Slack ``text``/blocks, Matrix's m.room.message content and
    the generic JSON, each telling whose turn it is and linking the spectator page."""
    data, secrets = new_game(players=3)
    for style in ("discord", "slack", "matrix", "json"):
        add_hook(app, data["id"], receiver.url(f"/{style}"), style)
    for seat in range(3):
        move(client, secrets[seat])
    watch = re.compile(r"http://chasqui\.test/watch/[\w.-]+")
    discord, = receiver.bodies("/discord")
    assert "Waiting for P0, P1, P2." in discord["content"]
    assert discord["allowed_mentions"] == {"parse": []}, "no name or talk may ping anyone"
    assert watch.fullmatch(discord["embeds"][0]["url"])
    assert "P0, P1, P2 stayed in the temple." in discord["embeds"][0]["description"]
    assert "made a move" not in discord["embeds"][0]["description"], "the move is told"
    slack, = receiver.bodies("/slack")
    assert "Waiting for P0, P1, P2." in slack["text"]
    assert [b["type"] for b in slack["blocks"]] == ["section", "context"]
    assert watch.search(slack["blocks"][1]["elements"][0]["text"])
    matrix, = receiver.bodies("/matrix")
    assert matrix["msgtype"] == "m.text" and matrix["format"] == "org.matrix.custom.html"
    assert "Waiting for P0, P1, P2." in matrix["body"] and watch.search(matrix["body"])
    assert "<strong>Incan Gold</strong>" in matrix["formatted_body"]
    generic, = receiver.bodies("/json")
    assert generic["game"] == data["id"] and generic["event"] == "turn"
    assert [w["player"] for w in generic["waiting"]] == ["P0", "P1", "P2"]
    assert all(w["due"] for w in generic["waiting"]), "how long each has: the deadline"
    assert watch.fullmatch(generic["watch_url"]) and generic["finished"] is False


def test_the_generic_hook_is_signed_with_hmac_sha256_of_the_body_under_its_secret(
        app, client, new_game, receiver):
    data, secrets = new_game(players=3)
    hook_id, secret = add_hook(app, data["id"], receiver.url(), "json")
    assert secret and len(secret) >= 32
    for seat in range(3):
        move(client, secrets[seat])
    post, = receiver.posts
    expected = hmac.new(secret.encode(), post["body"], hashlib.sha256).hexdigest()
    assert hmac.compare_digest(post["headers"]["X-Chasqui-Signature"], f"sha256={expected}")
    assert post["headers"]["X-Chasqui-Delivery"] == f"{hook_id}-{posts_of(app, hook_id)[0].seq}"
    discord_id, discord_secret = add_hook(app, data["id"], receiver.url("/d"), "discord")
    assert discord_secret is None, "only the generic format is signed"


def test_a_secret_choice_alone_posts_nothing_and_the_new_decision_posts_once(
        app, client, new_game, receiver):
    """Only a new decision (and timeouts, rollbacks, talk, the end) make a post: another
    seat's hidden stay/leave asks nobody anything new."""
    data, secrets = new_game(players=3)
    add_hook(app, data["id"], receiver.url())
    move(client, secrets[0])
    move(client, secrets[1])
    assert receiver.posts == []
    move(client, secrets[2])
    assert len(receiver.posts) == 1


def test_a_500_is_retried_after_the_backoff_by_the_sweep(app, client, clock, new_game, receiver):
    data, secrets = new_game(players=3)
    hook_id, _ = add_hook(app, data["id"], receiver.url())
    receiver.answers = [500]
    for seat in range(3):
        move(client, secrets[seat])
    post, = posts_of(app, hook_id)
    assert (post.status, post.attempts) == ("pending", 1)
    assert "HTTP 500" in post.last_error
    assert post.next_attempt_at.replace(tzinfo=clock().tzinfo) == clock() + timedelta(seconds=30)
    sweep_outboxes(services(app))
    assert len(receiver.posts) == 1, "not before its backoff and the sweep's grace are over"
    clock.advance(2 * MINUTE)
    sweep_outboxes(services(app))
    assert len(receiver.posts) == 2 and receiver.posts[0]["body"] == receiver.posts[1]["body"]
    post, = posts_of(app, hook_id)
    assert (post.status, post.attempts, hook_row(app, hook_id).failures) == ("sent", 2, 0)


def test_a_hook_failing_every_time_is_switched_off_and_the_organiser_is_told(
        app, client, clock, receiver):
    from tests.service.test_organisers_support import PLAYERS, ORGANISER, answer, create_game, mails, sign_in
    from service.store.models import PendingGameRow

    sign_in(client, app)
    pending_id = create_game(client)
    for _name, address in PLAYERS:
        answer(app, address)
    with services(app).db.reading() as session:
        game_id = session.get(PendingGameRow, pending_id).game_id
    assert game_id
    hook_id, _ = add_hook(app, game_id, receiver.url())
    receiver.answers = [500] * 100
    with services(app).db.unit_of_work() as session:
        from service.store import webhooks
        from service.store.models import GameRow
        webhooks.queue(session, session.get(GameRow, game_id), 1, 1, "turn", clock())
    for _ in range(webhook_delivery.SWITCH_OFF_AFTER):
        clock.advance(timedelta(hours=7))
        with app.app_context():  # as the tick and the worker run it
            sweep_outboxes(services(app))
    assert len(receiver.posts) == webhook_delivery.SWITCH_OFF_AFTER
    assert hook_row(app, hook_id).status == "off"
    told, = [m for m in mails(app, ORGANISER) if "webhook was switched off" in m["subject"]]
    assert f"its last {webhook_delivery.SWITCH_OFF_AFTER} posts to 127.0.0.1" in told["text"]
    clock.advance(timedelta(hours=7))
    with app.app_context():
        sweep_outboxes(services(app))
    assert len(receiver.posts) == webhook_delivery.SWITCH_OFF_AFTER, "nothing more is posted"


def test_a_post_delivered_twice_is_posted_once_and_its_key_is_unique(
        app, client, new_game, receiver):
    data, secrets = new_game(players=3)
    hook_id, _ = add_hook(app, data["id"], receiver.url())
    for seat in range(3):
        move(client, secrets[seat])
    post, = posts_of(app, hook_id)
    assert services(app).deliver_post(post.id) == "sent"
    assert len(receiver.posts) == 1, "a redelivered outbox row posts nothing more"
    with pytest.raises(IntegrityError):
        with services(app).db.unit_of_work() as session:
            session.add(WebhookDeliveryRow(hook_id=hook_id, game_id=data["id"], seq=post.seq,
                                           first_seq=post.seq, topic="turn", status="pending",
                                           attempts=0, next_attempt_at=post.created_at,
                                           created_at=post.created_at))


REFUSED = ["https://10.0.0.7/x", "https://172.16.1.1/x", "https://192.168.1.1/x",
           "https://127.0.0.2/x", "https://[::1]/x", "https://169.254.10.10/x",
           "https://[fe80::1]/x", "https://224.0.0.251/x", "https://[ff02::1]/x",
           "https://240.0.0.1/x", "https://0.0.0.0/x", "https://[::]/x",
           "https://169.254.169.254/latest/meta-data", "https://[fd00:ec2::254]/x",
           "https://100.100.100.200/x", "https://[fc00::5]/x", "https://100.64.0.1/x",
           "https://[::ffff:127.0.0.1]/x", "https://[::ffff:169.254.169.254]/x"]


@pytest.mark.parametrize("url", REFUSED)
def test_every_refused_address_class_is_refused_when_the_hook_is_saved(app, new_game, url):
    data, _ = new_game(players=3)
    with pytest.raises(UnsafeTarget):
        add_hook(app, data["id"], url)
    with services(app).db.reading() as session:
        assert session.get(SeatRow, (data["id"], 0)) is not None
        from service.store.webhooks import hooks_of
        assert hooks_of(session, data["id"]) == [], "nothing stored"


def test_loopback_is_reached_only_through_the_operators_allow_list():
    with pytest.raises(UnsafeTarget):
        webhook_guard.checked("http://127.0.0.1:8000/hook")
    with pytest.raises(UnsafeTarget):
        webhook_guard.checked("https://127.0.0.1:8000/hook")
    found, addresses = webhook_guard.checked("http://127.0.0.1:8000/hook", ("127.0.0.1",))
    assert (found.scheme, found.port, addresses) == ("http", 8000, ["127.0.0.1"])
    with pytest.raises(UnsafeTarget):
        webhook_guard.checked("http://127.0.0.1:8000/hook", ("127.0.0.1:9000",))


@pytest.mark.parametrize("url", ["http://example.com/hook", "ftp://example.com/x",
                                 "https://user:pw@example.com/x", "https:///x", "not a url",
                                 "https://example.com/" + "x" * 2000])
def test_a_url_of_the_wrong_form_is_refused_when_saved(app, new_game, url):
    data, _ = new_game(players=3)
    with pytest.raises(UnsafeTarget):
        add_hook(app, data["id"], url)


def test_a_name_resolving_to_any_private_address_is_refused_when_saved(app, new_game, monkeypatch):
    data, _ = new_game(players=3)
    monkeypatch.setattr(webhook_guard, "resolve", lambda host, port: ["93.184.216.34", "10.1.2.3"])
    with pytest.raises(UnsafeTarget, match="private"):
        add_hook(app, data["id"], "https://chat.example.com/hook")


@pytest.mark.parametrize("address", ["10.0.0.5", "127.0.0.1", "169.254.169.254", "fd00:ec2::254",
                                     "224.0.0.1", "0.0.0.0", "::1", "fe80::2", "240.1.2.3"])
def test_a_name_that_resolves_to_a_refused_address_at_send_time_is_not_posted_to(
        app, client, new_game, monkeypatch, address):
    """Checked when saved and again at the post: a name's addresses can change between."""
    data, secrets = new_game(players=3)
    monkeypatch.setattr(webhook_guard, "resolve", lambda host, port: ["93.184.216.34"])
    hook_id, _ = add_hook(app, data["id"], "https://chat.example.com/hook", "discord")
    connected = []
    import urllib3
    monkeypatch.setattr(urllib3.HTTPSConnectionPool, "urlopen",
                        lambda *a, **k: connected.append(a) or pytest.fail("connected"))
    monkeypatch.setattr(webhook_guard, "resolve", lambda host, port: [address])
    for seat in range(3):
        move(client, secrets[seat])
    post, = posts_of(app, hook_id)
    assert connected == [] and post.status == "pending" and post.attempts == 1
    assert "only public addresses are posted to" in post.last_error


def test_the_post_connects_to_the_checked_address_keeping_the_host_name(
        app, client, new_game, monkeypatch):
    """No second lookup: the pool is made for the checked address, with the URL's host as
    TLS server name and Host header."""
    import urllib3

    data, secrets = new_game(players=3)
    monkeypatch.setattr(webhook_guard, "resolve", lambda host, port: ["93.184.216.34"])
    add_hook(app, data["id"], "https://chat.example.com:8443/hook?x=1", "slack")
    made = []

    def urlopen(pool, method, url, **kwargs):
        made.append((pool.host, pool.port, pool.conn_kw.get("server_hostname"),
                     pool.assert_hostname, method, url, kwargs["headers"]["Host"],
                     kwargs["redirect"]))
        return urllib3.HTTPResponse(body=b"", status=200)
    monkeypatch.setattr(urllib3.HTTPSConnectionPool, "urlopen", urlopen)
    for seat in range(3):
        move(client, secrets[seat])
    assert made == [("93.184.216.34", 8443, "chat.example.com", "chat.example.com", "POST",
                     "/hook?x=1", "chat.example.com:8443", False)]


def test_no_payload_holds_a_seat_secret_a_seat_link_or_a_hidden_choice(
        app, client, new_game, receiver):
    """Incan Gold's stay/leave choices are secret until revealed: the channel hears only
    "P0 made a move" and whom the game waits for, as the spectator page shows."""
    data, secrets = new_game(players=3)
    for style in ("discord", "slack", "matrix", "json"):
        add_hook(app, data["id"], receiver.url(f"/{style}"), style, talk=True)
    with services(app).db.reading() as session:
        nonces = [s.nonce for s in session.query(SeatRow).filter_by(game_id=data["id"])]
    for _round in range(3):
        for seat in range(3):
            state = client.get(f"/api/play/{secrets[seat]}").get_json()
            if seat in state["to_act"]:
                move(client, secrets[seat], "leave" if seat == 2 else "stay")
    client.post(f"/api/play/{secrets[0]}/notes", json={"notes": "my secret plan"})
    assert receiver.posts
    for post in receiver.posts:
        text = post["body"].decode()
        for secret in secrets:
            assert secret not in text
            assert secret.split(".")[0] not in text
        assert not any(nonce in text for nonce in nonces)
        assert "/play/" not in text and "my secret plan" not in text
        assert '"stay"' not in text and '"leave"' not in text and "p0@example.com" not in text


def test_table_talk_goes_only_to_the_hooks_that_asked_for_it(app, client, new_game, receiver):
    import html as html_module
    data, secrets = new_game(players=3)
    add_hook(app, data["id"], receiver.url("/talk"), "json", talk=True)
    add_hook(app, data["id"], receiver.url("/quiet"), "json", talk=False)
    page = client.get(f"/play/{secrets[1]}").get_data(as_text=True)
    token = html_module.unescape(re.search(r'name="csrf_token" value="([^"]+)"', page).group(1))
    response = client.post(f"/play/{secrets[1]}/talk", data={"text": "Who dares?", "csrf_token": token})
    assert response.status_code in (200, 303)
    talk, = receiver.bodies("/talk")
    assert talk["event"] == "talk" and talk["news"] == ["P1 said: Who dares?"]
    assert receiver.bodies("/quiet") == []


def test_a_vacation_and_the_end_of_the_game_are_posted(app, client, new_game, receiver, admin_headers):
    data, secrets = new_game(players=3)
    add_hook(app, data["id"], receiver.url())
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    import html as html_module
    token = html_module.unescape(re.search(r'name="csrf_token" value="([^"]+)"', page).group(1))
    client.post(f"/play/{secrets[0]}/vacation", data={"on": "1", "csrf_token": token})
    vacation, = receiver.bodies()
    assert vacation["event"] == "vacation"
    assert vacation["news"] == ["P0 is on vacation: their clock is stopped."]
    response = client.post(f"/admin/api/games/{data['id']}/abandon", headers=admin_headers,
                           json={"reason": "done"})
    assert response.status_code == 200, response.get_json()
    ended = receiver.bodies()[-1]
    assert ended["event"] == "end" and "The game was abandoned." in ended["news"]
    assert ended["waiting"] == []


def test_a_rollback_is_posted(app, client, new_game, receiver, admin_headers):
    data, secrets = new_game(players=3)
    add_hook(app, data["id"], receiver.url())
    for seat in range(3):
        move(client, secrets[seat])
    response = client.post(f"/admin/api/games/{data['id']}/rollback", headers=admin_headers,
                           json={"to_seq": 1, "reason": "a misclick"})
    assert response.status_code == 200, response.get_json()
    everyone_agrees(app, client, data["id"], secrets)
    rolled = receiver.bodies()[-1]
    assert rolled["event"] == "rollback" and "The game was taken back to its start." in rolled["news"]


def _timeout_due(app, client, clock, new_game, receiver) -> dict:
    """A three-seat game with a hook, two seats moved and the third's 24 h run out: its
    timeout is due.  Returns the game's data."""
    data, secrets = new_game(players=3, clock={"vacation_days": 0, "per_decision_hours": 24,
                                               "reminder_hours": []})
    add_hook(app, data["id"], receiver.url())
    move(client, secrets[0])
    move(client, secrets[1])
    clock.advance(timedelta(hours=25))
    return data


def test_a_timeout_is_posted_with_the_next_decision_and_its_deadline(app, client, clock, new_game,
                                                                     receiver):
    from service.web.cli import fire_deadlines

    data = _timeout_due(app, client, clock, new_game, receiver)
    with app.app_context():
        fire_deadlines(services(app))
    timed_out, = receiver.bodies()
    assert timed_out["event"] == "timeout"
    assert any(line.startswith("P2's time ran out; the game chose for them. ")
               and "stayed in the temple" in line for line in timed_out["news"])
    from tests.service.test_private_feeds import pending_timeout
    assert timed_out["waiting"] and all(
        w["due"] == pending_timeout(app, data["id"], int(w["player"][1:])).isoformat()
        for w in timed_out["waiting"]), "each waiting player's deadline, as the clock has it"


def test_machu_picchu_posts_hold_no_seat_link_nor_anything_shaped_like_a_seat_secret(
        app, client, new_game, receiver):
    """A game with hands and secret draws: its posts hold no token of the shape a seat's
    secret has (``<payload>.<signature>`` in URL-safe base64), no nonce and no play link."""
    data, secrets = new_game(game="machu_picchu", players=3)
    add_hook(app, data["id"], receiver.url("/j"), "json", talk=True)
    add_hook(app, data["id"], receiver.url("/d"), "discord")
    for _ in range(6):
        for seat, secret in enumerate(secrets):
            state = client.get(f"/api/play/{secret}").get_json()
            if seat in state["to_act"] and state["legal_actions"]:
                response = client.post(f"/api/play/{secret}", json={
                    "action": state["legal_actions"][0], "seq": state["seq"]})
                assert response.status_code == 200, response.get_json()
    assert receiver.posts
    shape = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}")
    with services(app).db.reading() as session:
        nonces = [s.nonce for s in session.query(SeatRow).filter_by(game_id=data["id"])]
    for post in receiver.posts:
        text = post["body"].decode()
        assert not shape.search(text.replace(post["headers"].get("X-Chasqui-Signature", ""), ""))
        assert "/play/" not in text and not any(n in text for n in nonces)
        assert not any(secret in text for secret in secrets)


def test_a_timeout_in_a_game_with_a_chat_channel_tells_every_seat_as_one_without(
        app, client, clock, new_game, receiver):
    """The timeout's notice goes to each seat its turn mail did not reach; the channel's post
    is no mail and changes nothing of that.  Here P1 moved and P0 and P2 time out one by one:
    after P0's timeout the decision is still open (nobody gets a turn mail), so every seat is
    told."""
    from sqlalchemy import select

    from service.store.models import OutboxRow
    from service.web.cli import fire_deadlines

    told = {}
    for hooked in (False, True):
        data, secrets = new_game(players=3, clock={"vacation_days": 0, "per_decision_hours": 24,
                                                   "reminder_hours": []})
        if hooked:
            add_hook(app, data["id"], receiver.url())
        move(client, secrets[1])
        clock.advance(timedelta(hours=25))
        with app.app_context():
            fire_deadlines(services(app))
        with services(app).db.reading() as session:
            told[hooked] = sorted(r.seat for r in session.scalars(select(OutboxRow).where(
                OutboxRow.game_id == data["id"], OutboxRow.kind == "timeout")))
    assert set(told[False]) == {0, 1, 2}
    assert told[True] == told[False]
    assert [b["event"] for b in receiver.bodies()] == ["timeout", "timeout"]


def test_the_deadline_sweep_command_counts_its_mails_and_its_webhook_posts_apart(
        app, client, clock, new_game, receiver):
    from sqlalchemy import func, select

    from service.store.models import OutboxRow

    def mails_owed() -> int:
        with services(app).db.reading() as session:
            return session.scalar(select(func.count()).select_from(OutboxRow))

    _timeout_due(app, client, clock, new_game, receiver)
    before = mails_owed()
    result = app.test_cli_runner().invoke(args=["chasqui", "sweep-deadlines"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == (f"fired deadlines; mails queued: {mails_owed() - before}, "
                                     "webhook posts queued: 1")
    assert len(receiver.posts) == 1
