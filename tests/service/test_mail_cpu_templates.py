"""Issue 9, round 5: the mail's Jinja environment (``mail.mail_templates``) looks dict keys up
first, keeps its templates' globals in one dict and reads the ``tr`` filter's catalog from the
render context; every template renders as in the app's environment.  The mails themselves are
compared with Flask's rendering in ``test_mail_cpu_bytes.py``."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st
from jinja2 import Undefined

from service.mail import kit as mailkit
from service.mail.compose import mail_templates
from service.web.extensions import services

# Names that are dict attributes (found by getattr before any key), and names that are not.
NAMES = st.sampled_from(["items", "keys", "get", "values", "copy", "pop", "update", "__len__",
                         "round", "players", "you", "name", "tent", "missing", "_say"])
VALUES = st.one_of(st.integers(), st.text(max_size=5), st.none())


class Box(dict):
    """A dict subclass may have attributes of its own: it takes Jinja's usual way."""

    round = "attribute"


def test_an_attribute_of_a_dict_is_what_the_apps_environment_finds(app):
    ours_env, theirs_env = mail_templates(app), app.jinja_env

    @settings(max_examples=300, deadline=None)
    @given(keys=st.dictionaries(NAMES, VALUES, max_size=6), name=NAMES, boxed=st.booleans())
    def check(keys, name, boxed):
        obj = Box(keys) if boxed else keys
        ours, theirs = ours_env.getattr(obj, name), theirs_env.getattr(obj, name)
        if isinstance(theirs, Undefined):
            assert type(ours) is type(theirs)
            assert (ours._undefined_obj, ours._undefined_name) == (obj, name)
        else:
            assert ours == theirs

    check()


def test_attributes_of_other_objects_are_looked_up_as_the_app_does(app):
    env = mail_templates(app)
    for obj, name in (([1, 2], "append"), ("text", "upper"), (3, "real"), (None, "x")):
        ours, theirs = env.getattr(obj, name), app.jinja_env.getattr(obj, name)
        assert type(ours) is type(theirs)


def test_templates_of_the_mail_environment_see_the_apps_globals(app):
    env = mail_templates(app)
    template = env.get_template("mail/turn.txt")
    assert dict(template.globals) == dict(app.jinja_env.get_template("mail/turn.txt").globals)
    assert env.from_string("{{ range(3) | list }} {{ boards is defined }}").render() == (
        app.jinja_env.from_string("{{ range(3) | list }} {{ boards is defined }}").render())


TEXTS = ["active", "finished", "Stay in the temple", "Leave for camp", "not in any catalog",
         {"t": "Round {round} is over", "round": 2}, {"label": "Stay in the temple"},
         {"_say": {"t": "Leave for camp"}, "label": "leave"}, [{"t": "active"}], "", None]


def test_the_tr_filter_reads_the_catalog_the_mail_renders_with(app):
    source = "{% for t in texts %}[{{ t | tr }}]{% endfor %}"
    for language in ("en", "ja", "zh_Hans"):
        with app.app_context(), mailkit.locale(language):
            mail = mail_templates(app).from_string(source).render(
                texts=TEXTS, **mailkit.gettext_callables())
            without = mail_templates(app).from_string(source).render(texts=TEXTS)
            page = app.jinja_env.from_string(source).render(texts=TEXTS)
        assert mail == without == page, language


def test_the_kept_callables_of_a_language_are_those_of_its_catalog_in_each_app(app):
    """Issue 9, round 7: ``gettext_callables(language)`` keeps each language's callables per
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


class Html:
    """An object that renders itself as HTML."""

    def __html__(self):
        return "<b>safe</b>"


class Tagged(str):
    """A str subclass: escaped as markupsafe escapes it, not by the quick way."""

    def __html__(self):
        return "<i>tagged</i>"


@settings(max_examples=500, deadline=None)
@given(value=st.one_of(st.text(), st.text().map(lambda t: __import__("markupsafe").Markup(t)),
                       st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False),
                       st.text().map(Tagged), st.just(Html()), st.lists(st.text(max_size=3))))
def test_the_quick_escape_is_markupsafes(value):
    """Issue 9, round 7: the mail templates escape with ``mail.escape_quickly``."""
    from markupsafe import escape

    from service.mail.compose import escape_quickly

    ours, theirs = escape_quickly(value), escape(value)
    assert ours == theirs and type(ours) is type(theirs)


def test_the_mail_environments_html_templates_escape_quickly_and_write_what_the_apps_write(app):
    from service.mail.compose import escape_quickly

    env = mail_templates(app)
    source = "{{ a }}|{{ b }}|{{ c }}|{{ d }}|{{ e | safe }}|{{ f }}"
    values = dict(a="<x & 'y'>", b=7, c=None, d=Html(), e="<raw>", f=["<l>"])
    ours = env.from_string(source)  # no name: autoescaped, as Flask's environment does
    assert ours.root_render_func.__globals__["escape"] is escape_quickly
    assert ours.render(values) == app.jinja_env.from_string(source).render(values)
    assert "&lt;x &amp; &#39;y&#39;&gt;|7|None|<b>safe</b>|<raw>|[&#39;&lt;l&gt;&#39;]" == ours.render(
        values)
    turn = env.get_template("mail/turn.html")
    assert turn.root_render_func.__globals__["escape"] is escape_quickly


def test_the_mails_gettext_gives_jinjas_newstyle_text_each_time(app):
    """Issue 9, round 6-7: the mail's ``_`` keeps each message's translation (finished when it
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
                ours_env.context_class = mail_templates(app).context_class
                jinja_env = Environment(autoescape=autoescape)
                for who, when in (("<Ana> & Ben", "Wed 02 Dec"), ("Zoë", "<b>soon</b>"),
                                  ("<Ana> & Ben", "Wed 02 Dec")):
                    ours = ours_env.from_string(source).render(
                        who=who, when=when, **callables)
                    assert ours == jinja_env.from_string(source).render(
                        who=who, when=when, **theirs), (language, autoescape)
