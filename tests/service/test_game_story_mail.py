"""The finished game's mail: it links the game's story, its record, the check at once and the
rematch, and says nothing about deadlines."""
from __future__ import annotations

from tests.service.mail_kit import app, newest, smtp, text_of  # noqa: F401
from tests.service.test_mail_spectate_rematch import finish


def test_the_game_over_mail_links_story_record_check_and_rematch_and_no_deadlines(
        app, client, new_game, smtp):
    data, secrets = new_game(players=3)
    finish(client, secrets)
    mail = newest(smtp, "p1@example.com")
    text = text_of(mail)
    html = mail.get_body(("html",)).get_content()
    play = f"http://chasqui.test/play/{secrets[1]}"
    for part in (text, html):
        assert "Final scores" in text
        for link in (f"{play}/history", f"{play}/record.json", f"{play}/verify", f"{play}#rematch"):
            assert link in part, link
        assert "deadlines" not in part.lower() and "calendar" not in part.lower()
    assert client.get(f"/play/{secrets[1]}/record.json").status_code == 200
    assert client.get(f"/play/{secrets[1]}/verify").status_code == 200
    assert 'id="rematch"' in client.get(f"/play/{secrets[1]}").get_data(as_text=True)
