"""Issue 7: HTML mail with its CSS inlined (css-inline), and a plain-text part that reads on
its own."""
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


def test_the_text_part_is_readable_alone(app, new_game, smtp):
    new_game(players=3)
    text = text_of(newest(smtp, "p0@example.com")).replace("\r\n", "\n")
    assert "<" not in text.replace("<-", ""), "no markup in the text part"
    assert re.search(r"^  \[A\] Stay in the temple\n\s+http://chasqui\.test/play/\S+/a/1/0$", text, re.M)
    assert "http://chasqui.test/me/" in text and "http://chasqui.test/unsubscribe/" in text
