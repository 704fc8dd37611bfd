"""Issue 9's shortcuts in building a mail leave every byte as it was: the templates rendered
straight from the Jinja environment (``mail.render``) rather than through
``flask.render_template``, inside a request or not; and the quoted-printable fast path
(``mime.qp_body`` on text with no control characters, ``encode_text`` reusing its sniff)."""
from __future__ import annotations

from email import contentmanager, quoprimime

import flask
from hypothesis import given, settings, strategies as st
from sqlalchemy import select

from service.mail import compose as mail

from service.mail import mime
from service.store.loading import load
from service.mail.compose import MAIL_POLICY, build_message
from service.store.models import OutboxRow
from tests.service.test_mail_bytes import corpus, corpus_mails, written  # noqa: F401  (corpus: a fixture)
from service.web.extensions import services


def through_flask(name: str, context: dict) -> str:
    return flask.render_template(name, **context)


def both_renderings(monkeypatch, build) -> tuple:
    direct = written(build())
    with monkeypatch.context() as patch:
        patch.setattr(mail, "render", through_flask)
        reference = written(build())
    return direct, reference


def test_every_mail_rendered_directly_is_the_mail_flask_renders(app, corpus, monkeypatch):
    for what, build in corpus_mails(app, corpus):
        direct, reference = both_renderings(monkeypatch, build)
        assert direct == reference, what


def test_a_mail_built_inside_a_request_is_rendered_as_flask_renders_it(app, corpus, monkeypatch):
    """In-process delivery builds mail inside a web request, where Flask's context processors
    add ``request``, ``session`` and the pages' helpers: the mail templates read none."""
    svc = services(app)
    with app.test_request_context("/?lang=ja"), svc.db.reading() as session:
        for row in list(session.scalars(select(OutboxRow).order_by(OutboxRow.id)))[:12]:
            direct, reference = both_renderings(monkeypatch, lambda: build_message(
                svc.settings, load(session, row.game_id, upto=row.seq), row))
            assert direct == reference, row.id


# Text as the templates make it: printable ASCII, line breaks, tabs and any non-ASCII
# character, but no control character (those take the regular expression).
MAIL_TEXT = st.text(st.one_of(st.characters(min_codepoint=32, max_codepoint=126),
                              st.sampled_from("\n\t =·—🏆张ü"),
                              st.characters(min_codepoint=160, exclude_categories=("Cs",))),
                    max_size=600)


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(MAIL_TEXT, st.lists(MAIL_TEXT, max_size=20).map("\n".join)),
       maxlen=st.integers(min_value=4, max_value=100))
def test_quoted_printable_of_mail_text_is_body_encode(text, maxlen):
    data = b"\n".join(text.encode("utf-8").splitlines()) + b"\n"
    assert mime.qp_body(data, maxlen) == quoprimime.body_encode(data.decode("latin-1"), maxlen)


@settings(max_examples=300, deadline=None)
@given(text=st.lists(MAIL_TEXT, min_size=8, max_size=40).map("\n".join))
def test_mail_text_of_many_lines_is_encoded_as_the_content_manager_encodes_it(text):
    assert mime.encode_text(text, MAIL_POLICY) == contentmanager._encode_text(
        text, "utf-8", None, MAIL_POLICY)
