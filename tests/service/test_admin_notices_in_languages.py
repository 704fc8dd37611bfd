"""The mail after a rollback, pause, resume or end of a game, as each player reads it: who
acted, named as ``service.view.actors`` names them (a seat's name, the organiser as the
invitations gave them, "a Chasqui admin", "Chasqui (automatic)"), never by address, and
what happened, in the player's own language.  Names and an admin's reason stay as written."""
from __future__ import annotations

import re

import pytest

from service.store.preferences import set_preference
from service.web.extensions import services
from tests.service.test_actor_names import (as_game_admin, first_move,
                                            started_without_the_organiser_seated)
from tests.service.test_admin_support import SITE_EMAIL, mails, move, post_form, site_admin
from tests.service.test_organisers_support import ORGANISER
from tests.service.test_time import HOUR, sweep

# The seats' languages in every game here: seat 0 keeps English.
SPEAKS = {1: "zh_Hans", 2: "ja"}
LANGUAGE_OF_SEAT = {0: "en", **SPEAKS}
# Words of the English notices and intros that a Chinese or Japanese player must not read.
ENGLISH = ("taken back", "Undone", "undone move", "Reason", "rolled back by", "paused by",
           "resumed by", "ended by", "Chasqui admin", "An admin", "(seq ", "just after")
ACTOR_CODE = re.compile(r"\b(admin|organiser|seat):\w")  # as events record who acted
PAUSE_POLICY = {"timeout_policy": "pause", "per_decision_hours": 24, "vacation_days": 0}


def speaking(app, game_id: str) -> None:
    svc = services(app)
    with svc.db.unit_of_work() as session:
        for seat, language in SPEAKS.items():
            set_preference(session, game_id, seat, svc.clock(), language=language)


def parts(message) -> tuple[str, str]:
    """The text part and the HTML part (its markup left in: the words are asserted whole)."""
    return (message.get_body(("plain",)).get_content(),
            message.get_body(("html",)).get_content())


def intro(message) -> str:
    """The text part's sentence after the kind's name on its first line."""
    return parts(message)[0].splitlines()[1]


def mail_to(sent, seat: int, kind: str):
    """The newest mail of ``kind`` to ``seat``, by its Message-ID (``<game.seq.seat.kind@…>``)."""
    return [m for m in sent if m["Message-ID"].split("@")[0].split(".")[2:] == [str(seat), kind]][-1]


def assert_reads(message, wanted: list[str]) -> None:
    for part in parts(message):
        for words in wanted:
            assert words in part, words
        for english in ENGLISH:
            assert english not in part, f"untranslated: {english!r}"


def test_a_rollback_mail_tells_chinese_and_japanese_players_what_was_undone_in_their_language(
        app, client, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3)
    speaking(app, data["id"])
    move(client, secrets[0], "stay", 1)
    move(client, secrets[1], "leave", 1)
    assert post_form(client, data["id"], "rollback", to_seq="2",
                     reason="P1 pressed the wrong button").status_code == 303
    sent = mails(app)
    assert_reads(mail_to(sent, 1, "rollback"), [
        "一位 Chasqui 管理员回退了游戏。", "一位 Chasqui 管理员将游戏退回到P0刚行动之后。",
        "共撤销 1 步：P1。", "你被撤销的行动：返回营地。",
        "原因：P1 pressed the wrong button"])
    japanese = mail_to(sent, 2, "rollback")
    assert_reads(japanese, [
        "Chasqui の管理者がゲームを巻き戻しました。", "Chasqui の管理者がゲームをP0の手の直後まで戻しました。",
        "取り消された手（1手）：P1。", "理由：P1 pressed the wrong button"])
    assert "取り消されたあなたの手" not in parts(japanese)[0], "P2 had no move undone"
    english = parts(mail_to(sent, 0, "rollback"))[0]
    assert "The game was taken back to just after P0's move by a Chasqui admin." in english
    assert "Undone: 1 move by P1." in english and "Your undone move" not in english


# What a pause, a resume and an end by a site admin read as, by language and kind of mail.
ADMIN_ACTS = {
    "zh_Hans": {"paused": ["一位 Chasqui 管理员暂停了游戏：恢复之前不接受任何行动。", "原因：server move"],
                "resumed": ["一位 Chasqui 管理员恢复了游戏，游戏继续进行。"],
                "abandoned": ["一位 Chasqui 管理员结束了这局游戏：不再接受任何行动。",
                              "原因：players vanished"]},
    "ja": {"paused": ["Chasqui の管理者がゲームを一時停止しました。", "理由：server move"],
           "resumed": ["Chasqui の管理者がゲームを再開しました。"],
           "abandoned": ["Chasqui の管理者がこのゲームを終了しました。", "理由：players vanished"]},
}


def test_a_pause_a_resume_and_an_end_are_told_in_the_players_language(app, client, new_game):
    site_admin(app, client)
    data, _ = new_game(players=3)
    speaking(app, data["id"])
    for seq, (act, kind, fields) in enumerate((
            ("pause", "paused", {"reason": "server move"}), ("resume", "resumed", {}),
            ("abandon", "abandoned", {"reason": "players vanished"})), start=1):
        assert post_form(client, data["id"], act, seq=str(seq), **fields).status_code == 303
        for seat, language in SPEAKS.items():
            assert_reads(mail_to(mails(app), seat, kind), ADMIN_ACTS[language][kind])


# The intro of a pause mail, by who paused and the reader's language.
PAUSED_BY = {
    "organiser": {"en": "The game was paused by Olga, the game's organiser: no moves are taken "
                        "until it resumes.",
                  "zh_Hans": "本局组织者 Olga暂停了游戏：恢复之前不接受任何行动。",
                  "ja": "主催者の Olga さんがゲームを一時停止しました。再開までは手を受け付けません。"},
    "admin": {"en": "The game was paused by a Chasqui admin: no moves are taken until it resumes.",
              "zh_Hans": "一位 Chasqui 管理员暂停了游戏：恢复之前不接受任何行动。",
              "ja": "Chasqui の管理者がゲームを一時停止しました。再開までは手を受け付けません。"},
    "automatic": {"en": "The game was paused by Chasqui (automatic): no moves are taken until it "
                        "resumes.",
                  "zh_Hans": "Chasqui（自动）暂停了游戏：恢复之前不接受任何行动。",
                  "ja": "Chasqui（自動）がゲームを一時停止しました。再開までは手を受け付けません。"},
}


def paused_by_the_organiser(app, client, new_game, clock) -> str:
    """Olga, who sits nowhere, pauses her game; her address, which no player may read."""
    pending_id, game_id = started_without_the_organiser_seated(app, client)
    speaking(app, game_id)
    as_game_admin(client, pending_id)
    assert post_form(client, game_id, "pause", reason="x", seq="1").status_code == 303
    return ORGANISER


def paused_by_an_admin(app, client, new_game, clock) -> str:
    site_admin(app, client)
    data, _ = new_game(players=3)
    speaking(app, data["id"])
    assert post_form(client, data["id"], "pause", reason="x", seq="1").status_code == 303
    return SITE_EMAIL


def paused_by_the_clock(app, client, new_game, clock) -> str:
    """A seat's time runs out in a game whose clock pauses it then; nobody's address is
    involved (the players' own are at example.com)."""
    data, _ = new_game(players=3, clock=PAUSE_POLICY)
    speaking(app, data["id"])
    clock.advance(25 * HOUR)
    sweep(app, clock)
    return "@example.org"


@pytest.mark.parametrize("who,pause", [("organiser", paused_by_the_organiser),
                                       ("admin", paused_by_an_admin),
                                       ("automatic", paused_by_the_clock)])
def test_the_pause_mail_opens_with_who_paused_in_every_language_never_an_address(
        app, client, new_game, clock, who, pause):
    address = pause(app, client, new_game, clock)
    sent = mails(app)
    for seat, language in LANGUAGE_OF_SEAT.items():
        message = mail_to(sent, seat, "paused")
        assert intro(message) == PAUSED_BY[who][language], (who, language)
        wire = message.as_string()
        assert address not in wire and not ACTOR_CODE.search(wire), (who, language)


def test_the_organisers_rollback_mail_opens_with_her_name_in_every_language(app, client):
    pending_id, game_id = started_without_the_organiser_seated(app, client)
    speaking(app, game_id)
    first_move(app, client, "ana@example.org")
    as_game_admin(client, pending_id)
    assert post_form(client, game_id, "rollback", to_seq="1", reason="a misclick").status_code == 303
    sent = mails(app)
    assert [intro(mail_to(sent, seat, "rollback")) for seat in LANGUAGE_OF_SEAT] == [
        "The game was rolled back by Olga, the game's organiser. Links in earlier mails no "
        "longer work; use these.",
        "本局组织者 Olga回退了游戏。之前邮件中的链接已失效，请使用这封邮件中的链接。",
        "主催者の Olga さんがゲームを巻き戻しました。以前のメールのリンクは使えません。"
        "このメールのリンクを使ってください。"]
    assert_reads(mail_to(sent, 1, "rollback"), ["本局组织者 Olga将游戏退回到开局时。"])
    assert_reads(mail_to(sent, 2, "rollback"), ["主催者の Olga さんがゲームを開始時まで戻しました。"])
