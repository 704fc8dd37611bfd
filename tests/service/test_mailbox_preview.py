"""The local mailbox's preview of a mail's HTML part: its links open top-level pages of their
own, which leave the frame's sandbox, while nothing inside the frame runs a script or sends a
form, and the site's own headers stay as strict as on every page."""
from __future__ import annotations

import html
import re

from sqlalchemy import select

from service.web.limits import SECURITY_HEADERS
from service.web.mailbox import OPEN_LINKS_OUTSIDE, preview
from service.store.models import LocalMailRow
from service.web.extensions import services


def test_the_preview_opens_links_outside_before_any_base_of_the_mail():
    mail = '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><base target="_self">'
    shown = preview(mail + "</head><body><a href='x'>x</a></body></html>")
    assert shown.startswith('<!doctype html>\n<html lang="en"><head>' + OPEN_LINKS_OUTSIDE)
    assert shown.index(OPEN_LINKS_OUTSIDE) < shown.index('<base target="_self">')


def test_a_part_without_a_head_gets_it_inside_html_and_a_fragment_in_front():
    assert preview("<!doctype html><HTML><body>hi</body></HTML>") == \
        "<!doctype html><HTML>" + OPEN_LINKS_OUTSIDE + "<body>hi</body></HTML>"
    assert preview("<p><a href='x'>x</a></p>") == OPEN_LINKS_OUTSIDE + "<p><a href='x'>x</a></p>"
    assert preview("<header>x</header>") == OPEN_LINKS_OUTSIDE + "<header>x</header>"


def test_the_mail_page_frames_the_preview_in_a_sandbox_its_links_may_leave(app, client, new_game):
    new_game(players=3)
    with services(app).db.reading() as session:
        mail_id = session.scalars(select(LocalMailRow.id).order_by(LocalMailRow.id)).first()
    response = client.get(f"/mailbox/{mail_id}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    frame = re.search(r'<iframe class="mail-preview"[^>]*>', page).group()
    sandbox = set(re.search(r'sandbox="([^"]*)"', frame).group(1).split())
    assert {"allow-popups", "allow-popups-to-escape-sandbox"} <= sandbox
    assert not sandbox & {"allow-scripts", "allow-forms", "allow-modals", "allow-top-navigation"}
    srcdoc = html.unescape(re.search(r'srcdoc="([^"]*)"', frame).group(1))
    assert srcdoc.count(OPEN_LINKS_OUTSIDE) >= 1 and "/play/" in srcdoc
    for name, value in SECURITY_HEADERS.items():
        assert response.headers[name] == value
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
