"""Issue 9, round 5: the mail's Jinja environment (``mail.mail_templates``) looks dict keys up
first, keeps its templates' globals in one dict and reads the ``tr`` filter's catalog from the
render context; every template renders as in the app's environment.  The mails themselves are
compared with Flask's rendering in ``test_mail_cpu_bytes.py``."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st
from jinja2 import Undefined

from service import mailkit
from service.mail import mail_templates

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
