"""Issue 9, round 6: three shortcuts in writing a mail give the bytes of the ways they skip.
``transport._flat_multipart`` writes a text + HTML mail as ``BytesGenerator`` writes it;
``mime.qp_body`` remembers each line's encoding; the mail environment's ``MailContext``
calls functions and macros as Jinja's ``Context.call`` does."""
from __future__ import annotations

import io
import itertools
from email import quoprimime
from email.generator import BytesGenerator

from hypothesis import given, settings, strategies as st
from jinja2 import Environment, pass_context, pass_environment, pass_eval_context

from service.mail import mime

from service.mail import transport
from service.mail.compose import MailContext, mail_templates
from tests.service.test_mail_bytes import corpus, corpus_mails  # noqa: F401  (corpus: a fixture)
from tests.service.test_mail_cpu_wire import ADDRESS, TEXT, made


def generated(message) -> bytes:
    out = io.BytesIO()
    BytesGenerator(out, mangle_from_=False).flatten(message, linesep="\r\n")
    return out.getvalue()


def test_every_mail_of_three_games_is_written_directly_as_the_generator_writes_it(app, corpus):
    for what, build in corpus_mails(app, corpus):
        message = build()
        flat = transport._flat_multipart(message)
        assert flat is not None, what
        assert flat == generated(message), what


@settings(max_examples=300, deadline=None)
@given(sender=ADDRESS, to=ADDRESS, text=TEXT, html=st.one_of(st.none(), TEXT),
       seven_bit=st.booleans(), boundary=st.sampled_from(["=_chasqui_0a1b", "b", "x y", None]))
def test_a_made_up_message_is_written_directly_as_the_generator_writes_it(
        sender, to, text, html, seven_bit, boundary):
    message = made(sender, to, text, html)
    if seven_bit:
        message.policy = message.policy.clone(cte_type="7bit")
    if html is not None and boundary is not None:
        message.set_boundary(boundary)
    flat = transport._flat_multipart(message)
    # None: a shape left to the generator (one part; no boundary yet, which it makes up; an
    # 8bit payload under a 7bit policy, which it re-encodes)
    if not seven_bit:
        assert (flat is None) == (html is None or boundary is None)
    if flat is not None:
        assert flat == generated(message)


def test_shapes_the_direct_way_does_not_know_are_left_to_the_generator():
    with_preamble = made("a@example.org", "b@example.org", "x", "<p>x</p>")
    with_preamble.preamble = "before"
    nested = made("a@example.org", "b@example.org", "x", "<p>x</p>")
    nested.make_mixed()
    nested.attach(made(None, None, "inner"))
    no_boundary = made("a@example.org", "b@example.org", "x", "<p>x</p>")
    no_boundary.set_param("boundary", "", header="Content-Type")
    for message in (with_preamble, nested, no_boundary):
        assert transport._flat_multipart(message) is None


# Text as mail templates make it and as any caller could give it: "\r" included (the data is
# then encoded whole), lines repeated so that remembered encodings are used.
LINES = st.lists(st.text(st.one_of(st.characters(min_codepoint=32, max_codepoint=126),
                                   st.sampled_from("\t =·—🏆张ü\r"),
                                   st.characters(min_codepoint=160, exclude_categories=("Cs",))),
                         max_size=200), max_size=8)


@settings(max_examples=400, deadline=None)
@given(lines=LINES, repeat=st.integers(min_value=1, max_value=3),
       maxlen=st.integers(min_value=4, max_value=100), ending=st.booleans())
def test_quoted_printable_with_remembered_lines_is_body_encode(lines, repeat, maxlen, ending):
    data = "\n".join(lines * repeat).encode("utf-8") + (b"\n" if ending else b"")
    for _ in range(2):  # the second time from what the first remembered
        assert mime.qp_body(data, maxlen) == quoprimime.body_encode(data.decode("latin-1"), maxlen)


SOURCE = """{% macro m(x) %}<{{ x }}>{% endmacro -%}
{{ plain(1, k=2) }} {{ ctx("a") }} {{ ev("b") }} {{ env_name() }} {{ m("c") }} {{ obj("d") }}
{{ stop() }}|{{ [3, 1, 2].index(1) }} {{ {"k": "v"}.get("k") }}
{% for i in [1, 2] %}{% set inner = i * 10 %}{{ ctx("loop") }}{{ m(inner) }}{{ ev("e") }}{% endfor %}
{% autoescape false %}{{ ev("<b>") }}{% endautoescape %}{{ ev("<i>") }}"""


class Callable:
    @pass_context
    def __call__(self, context, value):
        return f"{value}:{context.get('inner', '-')}"


def test_calls_in_the_mail_environment_give_what_jinjas_context_gives(app):
    def raises():
        raise StopIteration

    names = {
        "plain": lambda a, k: f"plain {a} {k}",
        "ctx": pass_context(lambda context, v: f"{v}:{context.get('inner', '-')}"),
        "ev": pass_eval_context(lambda eval_ctx, v: f"{v}:{eval_ctx.autoescape}"),
        "env_name": pass_environment(lambda environment: type(environment).__name__),
        "obj": Callable(),
        "stop": raises,
    }
    ours = mail_templates(app)
    assert ours.context_class is MailContext
    for autoescape in (False, True):
        theirs = Environment(autoescape=autoescape)
        mine = ours.overlay(autoescape=autoescape)
        assert mine.from_string(SOURCE).render(names) == theirs.from_string(SOURCE).render(
            names), autoescape


def test_remembered_header_folds_are_each_policys_own(app, corpus):
    """Issue 9, round 7: the mail's policy (``mail.MemoPolicy``) remembers the bytes of headers
    stored as their source, per policy: a mail written again (from what was remembered) and the same mail
    under a 7bit policy (other folds for the same texts) are each the generator's bytes."""
    for what, build in itertools.islice(corpus_mails(app, corpus), 20):
        message = build()
        for _ in range(2):
            assert transport._flat_multipart(message) == generated(message), what
        seven_bit = build()
        seven_bit.policy = seven_bit.policy.clone(cte_type="7bit")
        for part in seven_bit.iter_parts():
            part.policy = seven_bit.policy
        flat = transport._flat_multipart(seven_bit)
        assert flat is None or flat == generated(seven_bit), what
