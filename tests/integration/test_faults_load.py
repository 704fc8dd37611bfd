"""Under load and abuse: a hundred players pressing the same button at once, a mail
scanner that follows every link, and a fuzzer throwing arbitrary payloads at the move API."""
from __future__ import annotations

import html
import re
import threading
from collections import Counter, deque
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from service.store.models import GameRow, LocalMailRow, OutboxRow, SeatRow
from tests.integration.test_faults import capture_dispatch, create_game, event_count, services
from tests.load import ServedApp

pytestmark = pytest.mark.integration


# --- 4. a hundred concurrent POSTs of the same move ------------------------------------------

def test_a_hundred_concurrent_posts_of_one_move_make_exactly_one_event(app):
    queued = capture_dispatch(app)
    game_id, secrets = create_game(app.test_client())
    queued.clear()
    results: list[tuple[int, object]] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(100)

    with ServedApp(app) as served:
        def press():
            try:
                barrier.wait(30)
                results.append(served.post_json(f"/api/play/{secrets[0]}",
                                                {"action": {"type": "stay"}, "seq": 1}))
            except BaseException as error:  # noqa: BLE001  reported below
                errors.append(error)

        threads = [threading.Thread(target=press) for _ in range(100)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    assert not errors, errors[:3]
    statuses = Counter(status for status, _ in results)
    assert statuses == {200: 1, 409: 99}, statuses
    assert all(isinstance(body, dict) and body.get("error") for status, body in results
               if status == 409)
    winner = next(body for status, body in results if status == 200)
    assert winner["seq"] == 2
    assert event_count(app, game_id) == 2
    assert queued == []  # seat 0's secret choice owes nobody a mail


def test_players_choosing_at_the_same_instant_in_a_simultaneous_decision_all_get_in(app):
    """Incan Gold's stay-or-leave is one secret choice per player, each answered on the state
    its mail showed (rules: all players decide at once).  Players pressing at the same instant
    race for the next seq; the loser's choice is still fresh (only others moved since), so it is
    taken on the new head instead of being refused with "the game moved on"."""
    capture_dispatch(app)
    games = [create_game(app.test_client()) for _ in range(5)]
    results: list[tuple[int, object]] = []
    barrier = threading.Barrier(len(games) * 4)

    with ServedApp(app) as served:
        def choose(secret):
            barrier.wait(30)
            results.append(served.post_json(f"/api/play/{secret}",
                                            {"action": {"type": "stay"}, "seq": 1}))

        threads = [threading.Thread(target=choose, args=(secret,))
                   for _game_id, secrets in games for secret in secrets]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    assert Counter(status for status, _ in results) == {200: len(games) * 4}, results
    for game_id, _secrets in games:
        assert event_count(app, game_id) >= 5  # created, four choices (then the round's cards)


# --- 5. a crawler that follows every link in every mail -------------------------------------

HREF = re.compile(r'href="([^"]+)"')
URL = re.compile(r"https?://chasqui\.it/[^\s\"<>]*")


def snapshot_of_everything(app):
    with services(app).db.reading() as session:
        return {
            "events": event_count(app),
            "games": [(g.id, g.status, g.head_seq, g.updated_at) for g in session.scalars(
                select(GameRow).order_by(GameRow.id))],
            "seats": [(s.game_id, s.seat, s.nonce, s.notified_key, s.decision_seq)
                      for s in session.scalars(select(SeatRow).order_by(SeatRow.game_id, SeatRow.seat))],
            "outbox": [(o.id, o.status, o.attempts, o.next_attempt_at, o.sent_at)
                       for o in session.scalars(select(OutboxRow).order_by(OutboxRow.id))],
            "local_mail": len(list(session.scalars(select(LocalMailRow.id)))),
        }


def test_a_crawler_following_every_link_in_every_mail_changes_nothing(app, smtp):
    svc = services(app)
    queued = capture_dispatch(app)
    client = app.test_client()
    game_id, secrets = create_game(client)
    for seat in range(4):  # a full decision: a card is revealed, everyone gets a turn mail
        response = client.post(f"/api/play/{secrets[seat]}",
                               json={"action": {"type": "stay"}, "seq": 1})
        assert response.status_code == 200
    with app.app_context():
        for outbox_id in queued:
            assert svc.deliver(outbox_id) == "sent"
    mails = smtp.sink.received()
    assert len(mails) >= 8

    start = set()
    for mail in mails:
        for part in mail.walk():
            if part.get_content_maintype() == "text":
                content = part.get_content()
                start.update(URL.findall(content))
                start.update(html.unescape(h) for h in HREF.findall(content))
    action_links = [u for u in start if "/a/" in u]
    assert action_links, "the mails should carry action links"

    before = snapshot_of_everything(app)
    seen: set[str] = set()
    todo = deque(sorted(start))
    statuses = Counter()
    ok: set[str] = set()
    while todo and len(seen) < 400:
        url = todo.popleft()
        parts = urlsplit(url)
        if parts.netloc not in ("", "chasqui.it") or not parts.path.startswith("/"):
            continue  # mailto:, other sites
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        if path in seen:
            continue
        seen.add(path)
        response = client.get(path)  # a scanner never submits forms, it only GETs
        statuses[response.status_code] += 1
        if response.status_code == 200:
            ok.add(path)
        assert response.status_code < 500, (path, response.status_code)
        if response.content_type.startswith("text/html"):
            todo.extend(html.unescape(h) for h in HREF.findall(response.get_data(as_text=True)))
    current = {urlsplit(u).path for u in action_links if "/a/5/" in u}
    assert current and current <= ok, "every live action link shows its confirm page"
    assert statuses[409] > 0, "the start mails' links are stale now and say so"
    assert snapshot_of_everything(app) == before
    assert event_count(app, game_id) == 5


# --- 6. fuzzing the move API -----------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8)
ACTION = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["stay", "leave", "Stay", "", "pass"]) | st.text(max_size=6)},
        optional={"label": JSON, "_ui": JSON, "card": JSON}),
)
SEQ = st.one_of(st.just("HEAD"), st.integers(-3, 40), st.sampled_from([True, None, "1", 1.0]), JSON)
BODY = st.one_of(
    st.fixed_dictionaries({"action": ACTION, "seq": SEQ}),
    st.fixed_dictionaries({"action": ACTION}),
    st.dictionaries(st.text(max_size=8), JSON, max_size=3),
    JSON,
)


@settings(max_examples=250, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seat=st.integers(0, 4), body=BODY,
       raw=st.one_of(st.none(), st.binary(max_size=40), st.text(max_size=40)))
def test_fuzzed_move_payloads_get_a_4xx_and_never_a_new_event_unless_legal(app, seat, body, raw):
    if not hasattr(app, "_fuzz_game"):
        capture_dispatch(app)
        app._fuzz_game = create_game(app.test_client())
    game_id, secrets = app._fuzz_game
    client = app.test_client()
    secret = secrets[seat] if seat < 4 else secrets[0][:-3] + "xyz"  # a forged secret
    head = client.get(f"/api/play/{secrets[0]}").get_json()["seq"]
    if isinstance(body, dict) and body.get("seq") == "HEAD":
        body = {**body, "seq": head}
    events = event_count(app, game_id)
    if raw is None:
        response = client.post(f"/api/play/{secret}", json=body)
    else:  # bytes that may not be JSON at all, under a JSON content type
        response = client.post(f"/api/play/{secret}", data=raw, content_type="application/json")
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    if response.status_code == 200:
        assert event_count(app, game_id) == events + 1
        assert response.get_json()["seq"] == head + 1
    else:
        assert 400 <= response.status_code < 500
        assert response.is_json and response.get_json().get("error")
        assert event_count(app, game_id) == events
