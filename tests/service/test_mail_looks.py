"""HTML mail whose styles are all inline (mail clients drop <style>), and a plain-text
part that reads on its own.  Game mails are written with their styles inline (no
inliner runs per mail); the daily digest's CSS is inlined by css-inline."""
from __future__ import annotations

import re

from tests.service.mail_kit import app, listener, newest, send, smtp, text_of, write_reply  # noqa: F401


def test_html_has_inlined_css_and_no_style_block(app, new_game, smtp, listener):
    new_game(players=3)
    send(listener, write_reply(newest(smtp, "p0@example.com"), "Good luck, everyone."))
    talk = newest(smtp, "p1@example.com")
    html = talk.get_body(("html",)).get_content()
    assert "<style" not in html, "mail clients drop <style>: every rule is inlined"
    assert re.search(r'<blockquote[^>]*style="[^"]*border-left:\s*4px solid #8a3b12', html)
    assert re.search(r'<p[^>]*class="footer"[^>]*style="[^"]*font-size:\s*12px', html)


def test_what_the_stylesheet_styled_is_styled_inline(app, new_game, smtp):
    """The classes the mail's stylesheet had (talk, hint, footer and its links) carry those
    styles themselves."""
    new_game(players=3)
    html = newest(smtp, "p0@example.com").get_body(("html",)).get_content()
    tags = re.findall(r'<[^>]*class="(?:talk|hint|footer)"[^>]*>', html)
    assert tags and all('style="' in tag for tag in tags)
    for footer in re.findall(r'<p class="footer"[^>]*>(.*?)</p>', html, re.S):
        assert all('style="color:#5d574b;"' in a for a in re.findall(r"<a [^>]*>", footer))
    assert 'class="hint" style="margin:0 0 10px 0;color:#5d574b;font-size:14px;"' in html


def test_the_text_part_is_readable_alone(app, new_game, smtp):
    new_game(players=3)
    text = text_of(newest(smtp, "p0@example.com")).replace("\r\n", "\n")
    assert "<" not in text.replace("<-", ""), "no markup in the text part"
    assert re.search(r"^  \[A\] Stay in the temple\n\s+http://chasqui\.test/play/\S+/a/1/0$", text, re.M)
    assert "http://chasqui.test/me/" in text and "http://chasqui.test/unsubscribe/" in text
