"""The mail's ``_``/``gettext``/``ngettext`` (``mailkit.gettext_callables``): kept per language
and app, and giving what Jinja's newstyle gettext gives."""
from __future__ import annotations

from service.mail import kit as mailkit
from service.web.extensions import services


def test_the_kept_callables_of_a_language_are_those_of_its_catalog_in_each_app(app):
    """``gettext_callables(language)`` keeps each language's callables per
    app; they must be those made under that language's locale, whatever was asked before and
    whichever locale is current, and another app keeps its own."""
    from service.web.app import create_app

    messages = ["Open your game page", "My games", "Final scores:", "not in any catalog"]
    for first in (("ja", "en", "zh_Hans"), ("zh_Hans", "ja", "en")):
        for language in first:
            with app.app_context(), mailkit.locale("en" if language != "en" else "ja"):
                kept = mailkit.gettext_callables(language)
            with app.app_context(), mailkit.locale(language):
                made = mailkit.gettext_callables()
            assert kept["tr_gettext"].__self__ is made["tr_gettext"].__self__, language
            assert [kept["tr_gettext"](m) for m in messages] == [made["tr_gettext"](m)
                                                                 for m in messages]
            assert kept["_"] is made["_"] and kept["ngettext"] is made["ngettext"]
    other = create_app(services(app).settings)
    with other.app_context():
        assert mailkit.gettext_callables("ja") is not None
        assert other.extensions["chasqui.mail_gettext"] is not app.extensions["chasqui.mail_gettext"]


def test_the_mails_gettext_gives_jinjas_newstyle_text_each_time(app):
    """The mail's ``_`` keeps each message's translation (finished when it
    has no variables); every call must still give what Jinja's newstyle ``gettext`` gives for
    its own variables, escaped under autoescape and not otherwise."""
    from jinja2 import Environment
    from jinja2.ext import _make_new_gettext

    source = ('{{ _("Waiting for %(names)s.", names=who) }}|{{ _("Open your game page") }}|'
              '{{ _("Your move is due by %(deadline)s.", deadline=when) }}')
    for language in ("en", "ja", "zh_Hans"):
        with app.app_context(), mailkit.locale(language):
            from flask_babel import get_translations

            callables = mailkit.gettext_callables(language)
            theirs = {"_": _make_new_gettext(get_translations().ugettext)}
            for autoescape in (True, False):
                ours_env = Environment(autoescape=autoescape)
                jinja_env = Environment(autoescape=autoescape)
                for who, when in (("<Ana> & Ben", "Wed 02 Dec"), ("Zoë", "<b>soon</b>"),
                                  ("<Ana> & Ben", "Wed 02 Dec")):
                    ours = ours_env.from_string(source).render(
                        who=who, when=when, **callables)
                    assert ours == jinja_env.from_string(source).render(
                        who=who, when=when, **theirs), (language, autoescape)
