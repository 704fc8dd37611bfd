"""The webhook forms: on the organiser's game page, and on the play page when the organiser
lets players add hooks; CSRF-protected POSTs, the secret shown once, a GET changing nothing
(docs/webhooks.md)."""
from __future__ import annotations

import html
import re

from service.store.models import PendingGameRow, SeatRow
from service.store.webhooks import hooks_of
from service.web.extensions import services
from tests.service.test_gets_write_nothing import writes_counted
from tests.service.test_organisers_support import PLAYERS, answer, create_game, sign_in
from tests.service.webhook_kit import app, move, receiver  # noqa: F401


def token_of(page: str) -> str:
    return html.unescape(re.search(r'name="csrf_token" value="([^"]+)"', page).group(1))


def organised(app, client) -> tuple[str, str, list[str]]:
    """A started game of the organiser's: (pending id, game id, the seats' secrets)."""
    from service.core.tokens import make_secret
    sign_in(client, app)
    pending_id = create_game(client)
    for _name, address in PLAYERS:
        answer(app, address)
    svc = services(app)
    with svc.db.reading() as session:
        game_id = session.get(PendingGameRow, pending_id).game_id
        seats = session.query(SeatRow).filter_by(game_id=game_id).order_by(SeatRow.seat).all()
        secrets = [make_secret(svc.settings.secret_key, game_id, s.seat, s.nonce) for s in seats]
    assert game_id
    return pending_id, game_id, secrets


def hooks(app, game_id):
    with services(app).db.reading() as session:
        return [(h.style, h.url, h.status, h.added_by) for h in hooks_of(session, game_id)]


def test_the_organiser_adds_a_hook_on_the_game_page_and_sees_its_secret_once(app, client, receiver):
    pending_id, game_id, secrets = organised(app, client)
    path = f"/organise/games/{pending_id}"
    page = client.get(path).get_data(as_text=True)
    assert "Chat channel (webhooks)" in page and "No webhook yet." in page
    url = receiver.url("/json")
    assert client.post(f"{path}/webhooks", data={"style": "json", "url": url}).status_code == 400
    assert hooks(app, game_id) == [], "no CSRF token: nothing stored"
    response = client.post(f"{path}/webhooks", data={"style": "json", "url": url,
                                                     "csrf_token": token_of(page)})
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    secret = re.search(r'<code id="webhook-secret">([^<]+)</code>', response.get_data(as_text=True)).group(1)
    assert hooks(app, game_id) == [("json", url, "active", "organiser")]
    page = client.get(path).get_data(as_text=True)
    assert secret not in page and url not in page, "the page shows the host only, never the secret"
    assert "<code>127.0.0.1</code>" in page
    for seat in range(len(secrets)):
        state = client.get(f"/api/play/{secrets[seat]}").get_json()
        if seat in state["to_act"]:
            move(client, secrets[seat])
    assert receiver.posts and all(p["headers"]["X-Chasqui-Signature"].startswith("sha256=")
                                  for p in receiver.posts)


def test_a_refused_url_answers_400_and_stores_nothing(app, client):
    pending_id, game_id, _ = organised(app, client)
    path = f"/organise/games/{pending_id}"
    token = token_of(client.get(path).get_data(as_text=True))
    for url in ("https://169.254.169.254/latest", "http://example.com/x", "https://10.0.0.1/"):
        response = client.post(f"{path}/webhooks", data={"style": "discord", "url": url,
                                                         "csrf_token": token})
        assert response.status_code == 400 and "Nothing was changed." in response.get_data(as_text=True)
    response = client.post(f"{path}/webhooks", data={"style": "irc", "url": "https://example.com/",
                                                     "csrf_token": token})
    assert response.status_code == 400
    assert hooks(app, game_id) == []


def test_the_organiser_removes_a_hook(app, client, receiver):
    pending_id, game_id, _ = organised(app, client)
    path = f"/organise/games/{pending_id}"
    token = token_of(client.get(path).get_data(as_text=True))
    client.post(f"{path}/webhooks", data={"style": "slack", "url": receiver.url(), "csrf_token": token})
    with services(app).db.reading() as session:
        hook_id = hooks_of(session, game_id)[0].id
    response = client.post(f"{path}/webhooks/{hook_id}/remove", data={"csrf_token": token})
    assert response.status_code == 303
    assert [status for _s, _u, status, _b in hooks(app, game_id)] == ["removed"]
    assert "No webhook yet." in client.get(path).get_data(as_text=True)


def test_players_add_hooks_only_when_the_organiser_allows_and_remove_only_their_own(
        app, client, receiver):
    pending_id, game_id, secrets = organised(app, client)
    player = app.test_client()
    play = f"/play/{secrets[1]}"
    page = player.get(play).get_data(as_text=True)
    assert "Chat channel (webhooks)" not in page
    response = player.post(f"{play}/webhooks", data={"style": "discord", "url": receiver.url(),
                                                     "csrf_token": token_of(page)})
    assert response.status_code == 400 and hooks(app, game_id) == []
    path = f"/organise/games/{pending_id}"
    client.post(f"{path}/webhooks/players", data={"players_may_add": "on",
                                                  "csrf_token": token_of(client.get(path).get_data(as_text=True))})
    page = player.get(play).get_data(as_text=True)
    assert "Chat channel (webhooks)" in page
    response = player.post(f"{play}/webhooks", data={"style": "discord", "url": receiver.url(),
                                                     "csrf_token": token_of(page)})
    assert response.status_code == 303
    assert hooks(app, game_id) == [("discord", receiver.url(), "active", "seat:1")]
    with services(app).db.reading() as session:
        hook_id = hooks_of(session, game_id)[0].id
    other = app.test_client()
    other_page = other.get(f"/play/{secrets[2]}").get_data(as_text=True)
    assert f"/webhooks/{hook_id}/remove" not in other_page
    response = other.post(f"/play/{secrets[2]}/webhooks/{hook_id}/remove",
                          data={"csrf_token": token_of(other_page)})
    assert response.status_code == 400 and hooks(app, game_id)[0][2] == "active"
    page = player.get(play).get_data(as_text=True)
    response = player.post(f"{play}/webhooks/{hook_id}/remove", data={"csrf_token": token_of(page)})
    assert response.status_code == 303 and hooks(app, game_id)[0][2] == "removed"


def test_a_get_of_the_pages_with_hooks_changes_nothing(app, client, receiver):
    pending_id, game_id, secrets = organised(app, client)
    path = f"/organise/games/{pending_id}"
    token = token_of(client.get(path).get_data(as_text=True))
    client.post(f"{path}/webhooks", data={"style": "matrix", "url": receiver.url(), "csrf_token": token})
    client.post(f"{path}/webhooks/players", data={"players_may_add": "on", "csrf_token": token})
    posted = len(receiver.posts)
    for target in (path, f"/play/{secrets[0]}", f"{path}/webhooks", f"/play/{secrets[0]}/webhooks"):
        with writes_counted(app) as writes:
            client.get(target)
        assert writes == [], target
    assert len(receiver.posts) == posted
    assert hooks(app, game_id)[0][2] == "active"
