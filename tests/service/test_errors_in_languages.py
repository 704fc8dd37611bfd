"""The service's own refusals (a stale move, a bad link, a vacation already taken, an
admin command on a game in the wrong state ...) reach a Chinese or Japanese reader in their
language, through the real pages, while the JSON API keeps the English text its clients read.

They are raised with phrases (``service.core.refusals``, ``engine.IllegalAction``), never matched by
their English text afterwards; the last test keeps it so for every raise in ``service/``."""
from __future__ import annotations

import ast
from html import unescape
from pathlib import Path

import pytest

from service.store.preferences import set_preference
from tests.service.test_admin_support import csrf_token, post_form, site_admin, token_in
from tests.service.test_pages_i18n import visible
from service.web.extensions import services

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("zh_Hans", "ja")
# Each refusal as the page shows it, per language (the catalogs' texts, values filled in).
SHOWN = {
    "double submit": {"zh_Hans": "这步行动已经记录过（重复提交）；没有再做任何操作",
                      "ja": "この手はすでに記録されています（二重送信）。それ以上は何も行っていません"},
    "moved on": {"zh_Hans": "你查看之后游戏已有变化：请刷新，查看游戏现在的样子",
                 "ja": "あなたが見た後にゲームが進みました：再読み込みして、今のゲームを見てください"},
    "bad secret": {"zh_Hans": "此链接无效（伪造或输错）", "ja": "このリンクは無効です（偽造または入力ミス）"},
    "bad watch link": {"zh_Hans": "没有这局游戏（链接是伪造的或输错了）",
                       "ja": "そのゲームはありません（リンクの偽造または入力ミス）"},
    "already on vacation": {"zh_Hans": "你已经在休假中", "ja": "すでに休暇中です"},
    "empty message": {"zh_Hans": "消息是空的", "ja": "メッセージが空です"},
    "nothing to undo": {"zh_Hans": "没有可撤回的行动：你还没有可以撤回的行动",
                        "ja": "取り消せる手はありません：取り消せるあなたの手はまだありません"},
    "unknown zone": {"zh_Hans": "未知的时区 'Mars/Olympus'", "ja": "不明なタイムゾーン 'Mars/Olympus'"},
    "early rematch": {"zh_Hans": "只有在游戏结束后才能请求再战",
                      "ja": "再戦はゲームが終わってからしか申し込めません"},
    "malformed plan": {"zh_Hans": "此链接中的计划格式不正确",
                       "ja": "このリンクの計画は形式が正しくありません"},
    "pause twice": {"zh_Hans": "游戏状态为已暂停；只有进行中的游戏才能暂停",
                    "ja": "ゲームは一時停止中です。一時停止できるのは進行中のゲームだけです"},
    "admin moved on": {"zh_Hans": "你查看之后游戏已有变化：请刷新后重新决定",
                       "ja": "あなたが見た後にゲームが進みました：再読み込みして、もう一度決めてください"},
    "not a number": {"zh_Hans": "要回到的步数必须是整数", "ja": "戻す先の段階は整数でなければなりません"},
    "not JSON": {"zh_Hans": "文件不是 JSON", "ja": "ファイルが JSON ではありません"},
}


def shown(response) -> str:
    """What a reader sees of a page (the page a POST redirected to, with its flash)."""
    return unescape(visible(response.get_data(as_text=True)))


def _seat_speaking(app, new_game, language: str, seat: int = 0):
    """A new Incan Gold game whose seat ``seat`` chose ``language``; (game id, secrets)."""
    data, secrets = new_game(players=3)
    svc = services(app)
    with svc.db.unit_of_work() as session:
        set_preference(session, data["id"], seat, svc.clock(), language=language)
    return data["id"], secrets


def _post(client, secret: str, path: str, **fields):
    """A play page's form, posted with the page's CSRF token; the page it leads to."""
    token = token_in(client.get(f"/play/{secret}").get_data(as_text=True))
    response = client.post(f"/play/{secret}/{path}", data={"csrf_token": token, **fields})
    assert response.status_code == 303, response.status_code
    return client.get(response.headers["Location"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_stale_or_doubled_move_is_refused_in_the_seats_language(app, client, new_game, language):
    _game_id, secrets = _seat_speaking(app, new_game, language)
    assert client.post(f"/api/play/{secrets[0]}",
                       json={"action": {"type": "stay"}, "seq": 1}).status_code == 200
    again = shown(_post(client, secrets[0], "move", seq="1", action='{"type": "stay"}'))
    assert SHOWN["double submit"][language] in again
    assert "double submit" not in again
    later = shown(_post(client, secrets[0], "move", seq="1", action='{"type": "leave"}'))
    assert SHOWN["moved on"][language] in later
    assert "the game moved on" not in later
    # the JSON API answers in English, without event numbers (its answer carries the seq)
    answer = client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "leave"}, "seq": 1})
    assert answer.status_code == 409
    assert answer.get_json()["error"] == ("the game moved on since you looked at it: reload to see "
                                          "it as it is now")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_bad_link_is_refused_in_the_visitors_language(client, language):
    page = client.get(f"/play/not-a-secret?lang={language}")
    assert page.status_code == 403
    assert SHOWN["bad secret"][language] in shown(page)
    watch = client.get(f"/watch/not-a-token?lang={language}")
    assert watch.status_code == 404
    assert SHOWN["bad watch link"][language] in shown(watch)
    unsubscribe = client.get(f"/unsubscribe/not-a-token?lang={language}")
    assert unsubscribe.status_code == 403
    assert SHOWN["bad secret"][language] in shown(unsubscribe)
    for page in (page, watch, unsubscribe):
        assert "forged or mistyped" not in shown(page)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_players_refusals_on_the_play_page_are_in_their_language(app, client, new_game, language):
    _game_id, secrets = _seat_speaking(app, new_game, language)
    secret = secrets[0]
    _post(client, secret, "vacation", on="1")
    refusals = {
        "already on vacation": _post(client, secret, "vacation", on="1"),
        "empty message": _post(client, secret, "talk", text="   "),
        "nothing to undo": _post(client, secret, "undo", seq="2"),
        "unknown zone": _post(client, secret, "timezone", timezone="Mars/Olympus"),
        "early rematch": _post(client, secret, "rematch"),
        "malformed plan": client.get(client.get(f"/play/{secret}/plan?steps=x")
                                     .headers["Location"]),
    }
    for name, page in refusals.items():
        text = shown(page)
        assert SHOWN[name][language] in text, name
        assert "Not done" not in text and "Not sent" not in text, name
    for english in ("already on vacation", "the message is empty", "nothing to take back",
                    "unknown time zone", "a rematch can only", "the plan in this link"):
        assert all(english not in shown(page) for page in refusals.values()), english


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_admins_refusals_are_in_the_pages_language(app, client, new_game, language):
    data, _secrets = new_game(players=3)
    game_id = data["id"]
    admin = site_admin(app, app.test_client())
    admin.get(f"/admin/?lang={language}")  # the admin's choice, kept in a cookie
    assert post_form(admin, game_id, "pause", reason="", seq="1").status_code == 303
    pages = {
        "pause twice": (post_form(admin, game_id, "pause", reason="", seq=""), 400),
        "admin moved on": (post_form(admin, game_id, "pause", reason="", seq="1"), 409),
        "not a number": (post_form(admin, game_id, "rollback", to_seq="x", reason="a slip"), 400),
        "not JSON": (admin.post("/admin/import", data={"csrf_token": csrf_token(admin, "/admin/"),
                                                       "data": "not json"}), 400),
    }
    for name, (page, status) in pages.items():
        assert page.status_code == status, name
        assert SHOWN[name][language] in shown(page), name
    for english in ("the game is paused", "the game moved on", "must be a whole number",
                    "the file is not JSON"):
        assert all(english not in shown(page) for page, _ in pages.values()), english


def test_an_english_reader_reads_the_same_text_the_json_api_gives(app, client, new_game):
    _game_id, secrets = _seat_speaking(app, new_game, "en")
    client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 1})
    page = shown(_post(client, secrets[0], "move", seq="1", action='{"type": "leave"}'))
    answer = client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "leave"}, "seq": 1})
    assert answer.get_json()["error"] in page


# ------------------------------------------------------------------ every raise has a phrase

# Errors that never reach a reader's page or mail: their English is all anyone reads.
ENGLISH_ONLY = {
    "ValueError", "RuntimeError", "IndexError",        # the code's own checks
    "ApiError", "Refused",                             # the JSON APIs answer in English
    "AdminError", "ClickException",                    # the command line
    "TemporaryFailure", "PermanentFailure", "_classify",  # the mail relay's answers, logged
    "PostFailed",                                      # a webhook channel's answers, kept on the post's row
    "DisconnectionError",                              # the database pool reconnects
    "BadReplyToken",                                   # not a reply address: nobody to tell
    "Broken",                                          # a record's broken rule: the verdict's details are English, as the rules document is
}
# Ways of making a finished (English or already translated) text: none is a phrase.
TEXT_CALLS = {"_", "gettext", "ngettext", "lazy_gettext", "str", "format", "join"}


def _finished_text(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.JoinedStr, ast.BinOp)):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        return name in TEXT_CALLS
    return False


def _raised_texts(path: Path):
    """(line, error class) of each raise in ``path`` whose message is a finished text."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
            continue
        func = node.exc.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name in ENGLISH_ONLY:
            continue
        if any(_finished_text(arg) for arg in node.exc.args):
            yield node.lineno, name


def test_every_refusal_the_service_raises_is_a_phrase_not_a_finished_text():
    """A refusal raised with English text would reach a Chinese or Japanese reader in English
    (nothing matches texts afterwards): raise it with ``phrase(...)``, or list its class in
    ``ENGLISH_ONLY`` if no reader ever sees it."""
    found = [f"{path.relative_to(ROOT)}:{line}: {name}"
             for path in sorted((ROOT / "service").rglob("*.py"))
             for line, name in _raised_texts(path)]
    assert not found, "raised with a finished text, not a phrase:\n" + "\n".join(found)


def test_the_check_sees_a_refusal_raised_with_english_text(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('def f(status):\n'
                      '    raise IllegalAction(f"the game is {status}")\n'
                      'def g():\n'
                      '    raise Conflict("the game is busy; try again")\n'
                      'def h(status):\n'
                      '    raise IllegalAction(phrase("the game is {status}", status=status))\n'
                      'def i():\n'
                      '    raise ValueError("an internal check")\n')
    assert list(_raised_texts(sample)) == [(2, "IllegalAction"), (4, "Conflict")]


def test_a_refusal_keeps_its_english_text_and_its_phrase_apart():
    from engine.text import phrase, term
    from service.web.errors import told
    from service.store.loading import NotFound
    from service.application.games import StaleMove
    from service.core.refusals import Refusal
    from service.store.events import Conflict
    from service.core.tokens import BadSecret

    assert all(issubclass(kind, Refusal) for kind in (Conflict, StaleMove, NotFound, BadSecret))
    error = NotFound(phrase("no game {game}", game=repr("abc")))
    assert str(error) == "no game 'abc'" and isinstance(error, LookupError)
    paused = Conflict(phrase("the game is {status}", status=term("paused")))
    assert str(paused) == "the game is paused"
    assert told(paused, "zh_Hans") == "游戏状态为已暂停"
    assert told(paused, "ja") == "ゲームは一時停止中です"
    assert told(paused, "en") == str(paused)
