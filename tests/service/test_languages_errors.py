"""What the rules refuse, the organiser's clock lines and the admin log reach a
Chinese or Japanese reader in their language, while the JSON API keeps the English text its
clients read."""
from __future__ import annotations

import re
from html import unescape

import pytest

from engine import IllegalAction, get_game
from engine.text import render
from service.core.refusals import said
from service.web.errors import told
from service.view.i18n import translate
from service.store.preferences import set_preference
from tests.service.test_pages_i18n import assert_translated, visible
from service.web.extensions import services

NOT_LEGAL = {"zh_Hans": "现在不是合法的行动", "ja": "今は合法なアクションではありません"}
GAMES = {"incan_gold": 3, "machu_picchu": 2, "inca_empire": 2}


def _acting_seat(client, secrets) -> tuple[int, str]:
    """The first seat whose page offers a move, and that page."""
    for seat, secret in enumerate(secrets):
        page = client.get(f"/play/{secret}").get_data(as_text=True)
        if 'name="action"' in page:
            return seat, page
    raise AssertionError("nobody may move")


@pytest.mark.parametrize("language", ("zh_Hans", "ja"))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_illegal_move_is_refused_in_the_players_language(app, client, new_game, game, language):
    from tests.service.test_admin_support import token_in

    data, secrets = new_game(game=game, players=GAMES[game])
    svc = services(app)
    seat, page = _acting_seat(client, secrets)
    with svc.db.unit_of_work() as session:
        set_preference(session, data["id"], seat, svc.clock(), language=language)
    page = client.get(f"/play/{secrets[seat]}").get_data(as_text=True)
    seq = re.search(r'name="seq" value="(\d+)"', page).group(1)
    response = client.post(f"/play/{secrets[seat]}/move", data={
        "csrf_token": token_in(page), "seq": seq, "action": '{"type": "fly away"}'})
    assert response.status_code == 303
    shown = client.get(response.headers["Location"]).get_data(as_text=True)
    assert NOT_LEGAL[language] in unescape(shown), "the refusal is in the seat's language"
    assert '"type": "fly away"' in unescape(shown) or '"fly away"' in unescape(shown)
    assert "not a legal action now" not in shown and "Not done" not in visible(shown)
    assert_translated(shown, f"{game} play page after an illegal move", language)
    # the JSON API answers in English, word for word as before
    answer = client.post(f"/api/play/{secrets[seat]}", json={"action": {"type": "fly away"},
                                                              "seq": int(seq)})
    assert answer.status_code == 400
    assert answer.get_json()["error"].startswith("not a legal action now: ")


def test_an_engine_refusal_keeps_its_english_text_and_carries_its_phrase():
    with pytest.raises(IllegalAction) as caught:
        get_game("incan_gold").setup(["A"], 1, {})
    assert str(caught.value) == "Incan Gold needs 3–8 players, not 1"
    assert render(caught.value.say) == str(caught.value)
    assert told(caught.value, "ja") == "インカの黄金のプレイ人数は3–8人です（1人ではありません）"
    with pytest.raises(IllegalAction) as caught:
        get_game("nope")
    assert str(caught.value) == "unknown game 'nope'; known: inca_empire, incan_gold, machu_picchu"
    assert told(caught.value, "zh_Hans").startswith("未知的游戏 'nope'")


def test_a_service_refusal_with_values_is_raised_with_its_phrase():
    from service.store.timekeeping import parse_clock
    from service.web.zones import valid_zone

    with pytest.raises(IllegalAction) as caught:
        parse_clock({"per_decision_hours": 0})
    assert str(caught.value) == "per_decision_hours must be a positive number"
    assert told(caught.value, "zh_Hans") == "per_decision_hours 必须是正数"
    with pytest.raises(IllegalAction) as caught:
        valid_zone("Mars/Olympus")
    assert str(caught.value) == "unknown time zone 'Mars/Olympus'"
    assert told(caught.value, "ja") == "不明なタイムゾーン 'Mars/Olympus'"
    assert told(caught.value, "en") == str(caught.value)
    assert said(ValueError("something nobody marked")) == "something nobody marked"


def test_an_invitation_in_japanese_shows_its_clock_in_japanese(tmp_path, clock):
    from tests.service.test_organisers_support import create_game, mails, make_app, sign_in

    app = make_app(tmp_path, clock)
    client = app.test_client()
    sign_in(client, app)
    pending = create_game(client, language="ja")
    invitation = [m for m in mails(app) if "/invite/" in m["text"]][-1]
    text = invitation["text"]
    for japanese in ("1回の決定につき 1 日、最大 3 日 まで貯められます",
                     "期限の 12 時間、2 時間 前にリマインダー",
                     "時間切れになると、安全な既定の手が指されます", "休暇 7 日",
                     "土曜と日曜（UTC）は時計が止まります", "遺物：クラシック（遺物をシャッフル）"):
        assert japanese in text, japanese
    for english in ("per decision", "reminders", "when time runs out", "vacation days",
                    "artifacts: classic"):
        assert english not in text, english
    page = client.get(f"/organise/games/{pending}?lang=ja").get_data(as_text=True)
    assert "1回の決定につき" in page and "per decision" not in page
    assert "遺物：クラシック" in page  # Japanese punctuation


def test_the_admin_game_page_in_chinese_names_events_in_chinese(app, client, new_game):
    from tests.service.test_admin_support import csrf_token, post_form, site_admin

    data, secrets = new_game(players=3)
    admin = site_admin(app, app.test_client())
    post_form(admin, data["id"], "pause", reason="", seq="1")
    page = admin.get(f"/admin/games/{data['id']}?lang=zh_Hans").get_data(as_text=True)
    text = visible(page)
    for english in ("GameCreated", "GamePaused", "created a game of", "paused the game",
                    "pending", "sent:", "start @", "turn @"):
        assert english not in text, english
    assert "创建游戏" in text and "暂停了游戏" in text
    dashboard = admin.get("/admin/?lang=zh_Hans").get_data(as_text=True)
    assert ">incan_gold<" not in dashboard and "印加宝藏" in dashboard


def test_the_admin_log_phrases_say_in_english_what_the_audit_words_say(app, client, new_game):
    """The page's phrases (service.view.audit.described) and the JSON's English words
    (service.view.audit.describe) are one log: the words are the phrases in English, and
    name no seat by a number nor any event by its seq."""
    from service.view.audit import audit
    from service.view.audit import described
    from service.store.loading import load
    from tests.service.test_admin_support import csrf_token, post_form, site_admin

    data, secrets = new_game(players=3)
    for seat in range(3):
        client.post(f"/api/play/{secrets[seat]}", json={"action": {"type": "stay"}, "seq": 1 + seat})
    admin = site_admin(app, app.test_client())
    assert post_form(admin, data["id"], "rollback", to_seq="2", reason="a slip").status_code == 303
    for seat in range(3):  # the rollback took back a reveal: everyone agrees by their link
        link = f"/play/{secrets[seat]}/rollback/5"
        answer = client.post(link, data={"csrf_token": csrf_token(client, link), "agree": "1"})
        assert answer.status_code == 303
    assert post_form(admin, data["id"], "pause", reason="", seq="").status_code == 303
    assert post_form(admin, data["id"], "resume", seq="").status_code == 303
    assert post_form(admin, data["id"], "seats/1/bot", seq="").status_code == 303
    svc = services(app)
    with svc.db.reading() as session:
        loaded = load(session, data["id"])
    kinds = {e.kind for e in loaded.events}
    assert {"GameCreated", "MoveMade", "RolledBack", "RollbackProposed", "RollbackConsented", "GamePaused", "GameResumed", "SeatBotted"} <= kinds
    for reveal in (True, False):
        entries, _report = audit(loaded, reveal)
        for index, entry in enumerate(entries):
            assert translate("en", described(loaded, index, reveal)) == entry.words, entry.kind
            assert not re.search(r"\bseq\b|\bseat \d", entry.words), entry.words
