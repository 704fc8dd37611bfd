"""The embedded default's mailbox (only registered while no SMTP server is configured).

A mail's HTML part is shown in a sandboxed frame (``pages/mail.html``): no script and no form
runs inside it.  Its links must still work as they do in a mail client, where each opens as
a page of its own: a move link's page has a button (a form), and the sign-in and invitation
pages refuse to be framed (``frame-ancestors 'none'``).  So the preview makes every link open
a new top-level page (``preview``), and the frame lets such pages leave its sandbox
(``allow-popups-to-escape-sandbox``)."""
from __future__ import annotations

import re

from flask import Blueprint, abort, render_template, request

from service.mail.preview import read_stored
from service.core.config import is_loopback_host
from service.web.extensions import services
from service.store.local_mailbox import stored_mail, stored_mails

bp = Blueprint("mailbox", __name__, url_prefix="/mailbox")


@bp.before_request
def this_machine_only():
    """A client on this machine only, unless the mailbox was turned on on purpose
    (``CHASQUI_LOCAL_MAILBOX=on``): the base URL's host says where links point, not who can
    reach the server, and an unset base URL defaults to this machine's address, so a server
    bound to every interface without one would otherwise show anyone every player's mail."""
    if not (services().settings.local_mailbox_on or is_loopback_host(request.remote_addr)):
        abort(404)

OPEN_LINKS_OUTSIDE = '<base target="_blank">'
_HEAD = re.compile(r"<head\b[^>]*>", re.IGNORECASE)
_ROOT = re.compile(r"<html\b[^>]*>", re.IGNORECASE)


def preview(html: str) -> str:
    """``html`` with every link opening a new top-level page: a ``<base target="_blank">``
    first in its head, since the first base element with a target decides (the mail's own,
    if any, comes after it).  A part without a head gets it right after ``<html>`` (the
    parser opens the head for it), a fragment in front."""
    start = _HEAD.search(html) or _ROOT.search(html)
    at = start.end() if start else 0
    return html[:at] + OPEN_LINKS_OUTSIDE + html[at:]


@bp.get("/")
def inbox():
    to = request.args.get("to")
    with services().db.reading() as session:
        mails = [{"row": row, "kind": kind} for row, kind in stored_mails(session, to)]
    return render_template("pages/mailbox.html", mails=mails, to=to)


@bp.get("/<int:mail_id>")
def show(mail_id: int):
    with services().db.reading() as session:
        found = stored_mail(session, mail_id)
    if found is None:
        abort(404)
    row, kind = found
    stored = read_stored(row.raw)
    return render_template("pages/mail.html", mail=row, kind=kind, headers=stored.headers,
                           html=preview(stored.html) if stored.html is not None else None,
                           text=stored.text)
