"""The embedded default's mailbox (only registered while no SMTP server is configured)."""
from __future__ import annotations

import email
from email import policy

from flask import Blueprint, abort, render_template, request
from sqlalchemy import select

from service.app import services
from service.models import LocalMailRow

bp = Blueprint("mailbox", __name__, url_prefix="/mailbox")


@bp.get("/")
def inbox():
    to = request.args.get("to")
    with services().db.reading() as session:
        query = select(LocalMailRow).order_by(LocalMailRow.id.desc()).limit(200)
        if to:
            query = query.where(LocalMailRow.to_addr == to)
        mails = list(session.scalars(query))
    return render_template("pages/mailbox.html", mails=mails, to=to)


@bp.get("/<int:mail_id>")
def show(mail_id: int):
    with services().db.reading() as session:
        row = session.get(LocalMailRow, mail_id)
    if row is None:
        abort(404)
    message = email.message_from_string(row.raw, policy=policy.default)
    html = message.get_body(("html",))
    text = message.get_body(("plain",))
    return render_template("pages/mail.html", mail=row, headers=list(message.items()),
                           html=html.get_content() if html else None,
                           text=text.get_content() if text else "")
