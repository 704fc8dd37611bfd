"""``flask chasqui demo`` (what ``./chasqui run`` calls) uses the organiser flow."""
from __future__ import annotations

from sqlalchemy import select

from service.store.models import GameRow, InvitationRow, OutboxRow, PendingGameRow
from tests.service.test_organisers_support import mails, svc


def run(app, *args):
    result = app.test_cli_runner().invoke(args=["chasqui", "demo", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_demo_invites_accepts_for_the_demo_players_and_prints_play_links(app, client):
    output = run(app, "--if-empty")
    assert "Ana (ana@example.com) organised a game of incan_gold and invited Ben, Cai, Dee" in output
    play_links = [line for line in output.splitlines() if "/play/" in line]
    assert len(play_links) == 4
    assert "/mailbox/" in output and "/organise/new" in output
    with svc(app).db.reading() as session:
        game = session.scalars(select(GameRow)).one()
        assert session.scalars(select(PendingGameRow)).one().game_id == game.id
        statuses = {i.email: i.status for i in session.scalars(select(InvitationRow))}
        assert len(session.scalars(select(OutboxRow)).all()) == 4
    assert set(statuses.values()) == {"accepted"} and len(statuses) == 4
    subjects = [m["subject"] for m in mails(app)]
    assert sum("invites you" in s for s in subjects) == 3 and len(subjects) == 7
    # the printed links work
    path = play_links[0].split("http://chasqui.test", 1)[1]
    assert client.get(path).status_code == 200
    # --if-empty does nothing the second time
    assert "games exist already" in run(app, "--if-empty")


def test_the_demo_can_leave_the_invitations_to_the_user(app, client):
    output = run(app, "--no-accept", "--game", "machu_picchu")
    links = [line.split("http://chasqui.test", 1)[1] for line in output.splitlines() if "/invite/" in line]
    assert len(links) == 3
    with svc(app).db.reading() as session:
        assert session.scalars(select(GameRow)).first() is None
    assert "games exist already" in run(app, "--if-empty")  # a pending demo counts
    for path in links:
        visitor = app.test_client()
        page = visitor.get(path).get_data(as_text=True)
        import html
        import re

        token = html.unescape(re.search(r'name="csrf_token" value="([^"]+)"', page).group(1))
        assert visitor.post(path + "/accept", data={"csrf_token": token}).status_code == 200
    with svc(app).db.reading() as session:
        assert session.scalars(select(GameRow)).one().game == "machu_picchu"
