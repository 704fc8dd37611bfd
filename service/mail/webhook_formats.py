"""A notice (``webhook_notice``) as each kind of channel wants its body.

- ``discord``: an execute-webhook body: ``content`` (the plain text) and one embed linking
  the spectator page; ``allowed_mentions`` empty, so no player's name or table talk can ping
  anyone, and every text we did not write has Discord's Markdown escaped, so none posts a
  masked link or hides text as a spoiler;
- ``slack``: an incoming-webhook body: ``text`` (the fallback a notification shows) and
  ``blocks`` (a section, and a context with the spectator link); every text we did not write
  has Slack's control characters escaped (``&``, ``<``, ``>``), in ``text`` as in the
  blocks, so a name or table talk holding ``<!channel>`` or ``<@U123>`` shows as written and
  pings nobody;
- ``matrix``: the content of an ``m.room.message`` event (``m.text``, with an HTML
  ``formatted_body`` in which every text is escaped), as a bridge's webhook or the client
  API's send takes it; an empty ``m.mentions`` says the message mentions nobody, so clients
  do not ping the room for an "@room" in a name or in table talk;
- ``json``: the notice's fields, signed: ``X-Chasqui-Signature: sha256=<hex>`` is the
  HMAC-SHA256 of the exact body bytes under the hook's secret (``signature``).

Every body is JSON of sorted keys, so the same notice makes the same bytes; every post
carries ``X-Chasqui-Delivery`` (hook and seq: the same for a retry, so a receiver can
dedupe)."""
from __future__ import annotations

import hashlib
import hmac
import json
import re
from html import escape

from engine.text import phrase
from service.mail.webhook_notice import Notice
from service.view.i18n import translate

DISCORD_CONTENT = 2000  # Discord's limits of a message's content and an embed's description
DISCORD_DESCRIPTION = 4096
SIGNATURE_HEADER = "X-Chasqui-Signature"
DELIVERY_HEADER = "X-Chasqui-Delivery"


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def lines(notice: Notice) -> list[str]:
    """The notice as plain lines: what happened, where the game stands, who has until when."""
    return [*notice.news, notice.standing,
            *(w["due_text"] for w in notice.waiting if w["due_text"])]


def _watch(language: str) -> str:
    return translate(language, phrase("Watch the game"))


# What Discord's Markdown interprets anywhere in a line (emphasis, code, spoilers, masked
# links, mentions and timestamps in <…>), and at a line's start (headings, lists, quotes).
DISCORD_MARKS = re.compile(r"([\\*_~`|\[\]<>])")
DISCORD_LINE_MARKS = re.compile(r"^(\s*)([#>-])", re.MULTILINE)


def _discord_escape(text: str) -> str:
    """Discord's own escaping: a backslash before each character its Markdown interprets, so
    a name or table talk shows as written (no masked link passing for the game's own)."""
    return DISCORD_LINE_MARKS.sub(r"\1\\\2", DISCORD_MARKS.sub(r"\\\1", text))


def _discord(notice: Notice, language: str) -> dict:
    text = _discord_escape("\n".join(lines(notice)))
    title = _discord_escape(notice.game_title)
    return {"content": f"**{title}** ({_discord_escape(notice.game_id)})\n{text}"[:DISCORD_CONTENT],
            "allowed_mentions": {"parse": []},
            "embeds": [{"title": f"{notice.game_title} — {_watch(language)}",
                        "url": notice.watch_url, "description": text[:DISCORD_DESCRIPTION],
                        "timestamp": notice.at.isoformat()}]}


def _slack_escape(text: str) -> str:
    """Slack's own escaping: the three characters its message formatting interprets."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _slack(notice: Notice, language: str) -> dict:
    text = "\n".join(lines(notice))
    title = _slack_escape(notice.game_title)
    return {"text": f"{title} ({notice.game_id}): {_slack_escape(text)}",
            "blocks": [{"type": "section",
                        "text": {"type": "mrkdwn",
                                 "text": f"*{title}* ({notice.game_id})\n{_slack_escape(text)}"}},
                       {"type": "context",
                        "elements": [{"type": "mrkdwn",
                                      "text": f"<{notice.watch_url}|{_slack_escape(_watch(language))}>"}]}]}


def _matrix(notice: Notice, language: str) -> dict:
    body = "\n".join([f"{notice.game_title} ({notice.game_id})", *lines(notice),
                      f"{_watch(language)}: {notice.watch_url}"])
    html = (f"<p><strong>{escape(notice.game_title)}</strong> ({escape(notice.game_id)})</p>"
            + "".join(f"<p>{escape(line)}</p>" for line in lines(notice))
            + f'<p><a href="{escape(notice.watch_url)}">{escape(_watch(language))}</a></p>')
    return {"msgtype": "m.text", "body": body, "format": "org.matrix.custom.html",
            "formatted_body": html, "m.mentions": {}}


def _generic(notice: Notice, language: str) -> dict:
    return {"game": notice.game_id, "seq": notice.seq, "event": notice.topic,
            "title": notice.game_title, "news": notice.news, "standing": notice.standing,
            "waiting": [{"player": w["player"],
                         "due": None if w["due"] is None else w["due"].isoformat()}
                        for w in notice.waiting],
            "finished": notice.finished, "watch_url": notice.watch_url,
            "at": notice.at.isoformat(), "language": language}


FORMATS = {"discord": _discord, "slack": _slack, "matrix": _matrix, "json": _generic}


def request(style: str, notice: Notice, language: str, delivery: str,
            secret: str | None) -> tuple[bytes, dict[str, str]]:
    """The body and headers of one post."""
    body = json.dumps(FORMATS[style](notice, language), sort_keys=True,
                      ensure_ascii=False, separators=(",", ":")).encode()
    headers = {"Content-Type": "application/json", DELIVERY_HEADER: delivery}
    if style == "json":
        headers[SIGNATURE_HEADER] = signature(secret or "", body)
    return body, headers
