"""The texts around a move are in the reader's language too: the deadline and time
left, reminders, a timeout's notice naming the move played, the subject's game title, the
"Done" message after a move and the take-back button (the engine's phrase is kept in the
event, so no replay is needed to name a past move)."""
from __future__ import annotations

import re
from datetime import timedelta

from service.store.preferences import set_preference
from tests.service.test_mail import mails
from tests.service.test_play_pages import form_fields, unescape
from tests.service.test_time import sweep
from service.web.extensions import services

HOUR = timedelta(hours=1)


def speaks(app, game_id, seat, language):
    svc = services(app)
    with svc.db.unit_of_work() as session:
        set_preference(session, game_id, seat, svc.clock(), language=language)


def plain(message) -> str:
    return message.get_body(("plain",)).get_content()


def test_the_deadline_and_time_left_are_written_in_the_readers_language(app, client, clock, new_game):
    data, secrets = new_game(players=3)
    speaks(app, data["id"], 1, "ja")
    speaks(app, data["id"], 2, "zh_Hans")
    client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 1})
    client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "stay"}, "seq": 1})
    client.post(f"/api/play/{secrets[2]}", json={"action": {"type": "stay"}, "seq": 1})
    english, japanese, chinese = (plain(mails(app, f"p{s}@example.com")[-1]) for s in range(3))
    assert re.search(r"Your move is due by \w{3} \d\d \w{3} 2026 \d\d:\d\d UTC \(in \d days\)", english)
    assert re.search(r"2026年\d+月\d+日\(.\) \d\d:\d\d UTC \(あと\d日\)", japanese)
    assert re.search(r"2026年\d+月\d+日 周. \d\d:\d\d UTC \(\d天后\)", chinese)


def test_a_reminder_and_a_timeout_notice_are_in_the_readers_language(app, client, clock, new_game):
    data, secrets = new_game(players=3, clock={"vacation_days": 0})
    speaks(app, data["id"], 1, "ja")
    speaks(app, data["id"], 2, "zh_Hans")
    clock.advance(24 * HOUR + 30 * timedelta(minutes=1))
    sweep(app, clock)
    assert "お知らせ：あなたの手番がまだ残っています。" in plain(mails(app, "p1@example.com")[-1])
    assert "提醒：还在等你行动。" in plain(mails(app, "p2@example.com")[-1])
    client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "stay"}, "seq": 1})
    client.post(f"/api/play/{secrets[2]}", json={"action": {"type": "stay"}, "seq": 1})
    clock.advance(24 * HOUR)
    sweep(app, clock)  # seat 0 never answered: Incan Gold's default (leave) is played for it
    assert "P0's time ran out; the game played “Leave for camp” for them." in plain(
        mails(app, "p0@example.com")[-1])
    # the others are told that time ran out, not what was chosen: in a simultaneous decision
    # the move played for a seat is as secret as one the seat chose itself
    assert "P0さんの持ち時間が切れたため、ゲームが代わりに選択しました。" in plain(
        mails(app, "p1@example.com")[-1])
    assert "P0的时间用完了，游戏替其做出了选择。" in plain(mails(app, "p2@example.com")[-1])
    assert "ゲームが代わりに「" not in plain(mails(app, "p1@example.com")[-1])


def test_the_subject_names_the_game_in_the_readers_language_and_stays_the_same(app, client, new_game):
    data, secrets = new_game(game="machu_picchu", players=2)
    speaks(app, data["id"], 1, "zh_Hans")
    client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "done"}, "seq": 1})  # refused or not,
    subjects = {s: {m["Subject"] for m in mails(app, f"p{s}@example.com")} for s in range(2)}
    assert subjects[0] == {"[Chasqui] The Princes of Machu Picchu — P0, P1"}
    mp = {m["Subject"] for m in mails(app, "p1@example.com")[1:]}  # mails after the choice
    assert all(s == "[Chasqui] 马丘比丘的王子 — P0, P1" for s in mp)


def test_done_and_take_back_name_a_machu_picchu_move_in_the_page_language(app, client, new_game):
    """The flash after a move and the undo button show the engine's phrase of the move made,
    stored with the event, in the seat's language."""
    data, secrets = new_game(game="machu_picchu", players=2, seed=4)
    speaks(app, data["id"], 0, "ja")
    page = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    fields = form_fields(page)
    response = client.post(f"/play/{secrets[0]}/move", data={
        "csrf_token": fields["csrf_token"], "seq": fields["seq"], "action": unescape(fields["action"])})
    assert response.status_code == 303
    after = client.get(f"/play/{secrets[0]}").get_data(as_text=True)
    done = re.search(r"完了：([^<]+)|Done: ([^<]+)", after)
    assert done and done.group(1), f"no Japanese 'Done' flash: {done and done.group(0)}"
    assert not re.search(r"[A-Za-z]{4,} [a-z]{3,} [A-Za-z]{3,}", done.group(1)), done.group(1)
