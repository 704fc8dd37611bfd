"""Building one outbox row's message: headers, threading, text and HTML parts.

The message is a pure function of the row and the events up to its seq, so a delivery that is
retried after a crash produces the same bytes (and the receiver dedupes on Message-ID)."""
from __future__ import annotations

import hashlib
import re
import types
from email.message import EmailMessage
from email.headerregistry import HeaderRegistry
from email.policy import EmailPolicy
from email.utils import format_datetime
from functools import lru_cache

from flask import current_app
from jinja2 import Template, pass_context, pass_environment, pass_eval_context
from jinja2.runtime import Context, Macro
import markupsafe
from markupsafe import Markup, escape
from sqlalchemy.orm import object_session

from engine.text import phrase, term
from service.mail import headers as mail_headers
from service.mail import kit as mailkit
from service.mail import mime
from service.view.notices import notice_for
from service.view.i18n import N_, translate, translated_label
from service.core.kept import Kept
from service.core.config import Settings
from service.store.loading import Loaded
from service.mail.message_ids import thread_root
from service.store.mail_reads import DEADLINES
from service.store.models import OutboxRow
from service.view.presenter import seat_context, subject
from service.store.events import utc
from service.store.timekeeping import describe_left, format_due, timeout_of, zone_of


class MemoPolicy(EmailPolicy):
    """``email.policy.default`` with the header work memoised; the bytes are the same.

    With the default policy every header set is parsed through the header registry and every
    header written is re-folded from its parse tree: about a third of building and sending a
    mail.  Most of a mail's headers (From, Subject, List-Id, the MIME headers of the parts,
    ...) repeat from mail to mail, and both steps are pure functions of their inputs: the
    parse of (name, value) and the fold of a parsed header under a given policy.  So the parse
    is cached (parsed headers are immutable, sharing them is safe) and each parsed header keeps
    its folds per policy, as each policy keeps its folds of headers stored as their source
    (``_source_folds``).  Anything the cache does not take goes the default way."""

    def header_store_parse(self, name, value):
        if type(value) is str and len(value.splitlines()) <= 1:
            return (name, _parsed_header(self.header_factory, name, value))
        return super().header_store_parse(name, value)

    def header_fetch_parse(self, name, value):
        """A header stored as its source (``service.mail.mime`` stores plain ones so) is parsed when
        read (``msg["To"]``, the generator's look at Content-Type): memoised like a set."""
        if hasattr(value, "name"):
            return value
        return _parsed_header(self.header_factory, name, "".join(_LINESEP.split(value)))

    def _fold_key(self, kind: str) -> tuple:
        return (kind, type(self), self.max_line_length, self.linesep, self.utf8, self.cte_type,
                self.refold_source, self.raise_on_defect, id(self.header_factory))

    def fold(self, name, value):
        return self._memo_fold("fold", name, value) if hasattr(value, "name") else super().fold(name, value)

    def fold_binary(self, name, value):
        if type(value) is str:  # stored as its source (``service.mail.mime`` stores plain ones so)
            return _source_folds(self)[(name, value)]
        if not hasattr(value, "name"):
            return super().fold_binary(name, value)
        return self._memo_fold("fold_binary", name, value)

    def _memo_fold(self, kind: str, name, value):
        folds = value.__dict__.setdefault("_chasqui_folds", {})
        key = self._fold_key(kind)
        if key not in folds:
            folds[key] = getattr(super(), kind)(name, value)
        return folds[key]


_LINESEP = re.compile(r"\n|\r")  # email.policy.linesep_splitter


@lru_cache(maxsize=4096)
def _parsed_header(factory, name: str, value: str):
    return factory(name, value)


class _Registry(HeaderRegistry):
    """The header registry makes a new class on every look-up (each header set asks it twice:
    for the header's max count and to parse it); one class per header name is the same."""

    def __init__(self):
        super().__init__()
        self._classes: dict[str, type] = {}

    def __getitem__(self, name):
        key = name.lower()
        cls = self._classes.get(key)
        if cls is None:
            cls = self._classes[key] = super().__getitem__(name)
        return cls

    def map_to_type(self, name, cls):
        super().map_to_type(name, cls)
        self._classes.pop(name.lower(), None)


MAIL_POLICY = MemoPolicy(header_factory=_Registry(), refold_source="none")


def _source_folds(policy: MemoPolicy) -> Kept:
    """{(name, source text): its folded bytes} under ``policy``, whose fold of a header stored
    as its source is a pure function of the two (policies are immutable; each clone has its
    own).  Half a mail's headers (From, Date, MIME-Version, the parts' Content-Type, List-Id,
    ...) recur from mail to mail as the same text (issue 9, round 7); each mail brings ~6 of
    its own (Message-ID, Reply-To, List-Unsubscribe, ...), hence the bound."""
    folds = _SOURCE_FOLDS.get(policy)
    if folds is None:
        fold = super(MemoPolicy, policy).fold_binary
        folds = _SOURCE_FOLDS[policy] = Kept(lambda item: fold(*item), 10000)
    return folds


_SOURCE_FOLDS: dict[MemoPolicy, Kept] = {}


def clock_lines(loaded: Loaded, row: OutboxRow, deadlines: dict | None = None,
                zones: dict | None = None, language: str = "en") -> dict:
    """The deadline of the seat's open decision and what the last event was, if a timeout.
    Computed from rows fixed for that decision, so a re-sent mail says the same thing.
    ``deadlines``: ``deadlines_for`` of a delivery's rows, when the caller looked them up;
    ``zones``: their seats' time zones (``mailkit.languages_for``), likewise."""
    lines = {"deadline": None, "happened": None}
    last = loaded.events[-1]
    if last.kind == "TurnTimedOut":
        lines["happened"] = timed_out_line(loaded, last, row.seat)
    if row.kind.startswith("reminder"):
        lines["happened"] = phrase(N_("Reminder: your move is still open."))
    if deadlines is None or row.seat not in deadlines:
        deadlines = deadlines_for(object_session(row), loaded, [row])
    due = deadlines.get(row.seat)
    if due is not None:
        due = utc(due)
        zone = (zones or {}).get((loaded.row.id, row.seat))
        if zone is None:
            session = object_session(row)
            zone = zone_of(session, loaded.row.id, row.seat) if session else "UTC"
        lines["deadline"] = _deadline_line(due, zone, language, utc(row.created_at))
    return lines


def timed_out_line(loaded: Loaded, event, reader: int | None) -> dict:
    """What a timeout did, as ``reader`` may know it: the move the game chose is named to its
    own seat only, since in a simultaneous decision it is a secret choice like any other."""
    seat = event.payload["seat"]
    name = loaded.seats[seat].name
    if reader != seat:
        return phrase(N_("{player}'s time ran out; the game chose for them."), player=name)
    return phrase(N_("{player}'s time ran out; the game played “{move}” for them."), player=name,
                  move=event.payload.get("say") or term(event.payload["label"]))


@lru_cache(maxsize=1024)
def _deadline_line(due, zone: str, language: str, written) -> str:
    """"Wed 02 Dec 2026 05:15 UTC (in 2 days)": a pure function of UTC times, a zone and a
    language, which one event's mails share (its seats have one deadline, written at once)."""
    return f"{format_due(due, zone, language)} ({describe_left(due, written, language)})"


# The Date header of one event's mails, written at once: ``format_datetime`` of a UTC time.
_date = lru_cache(maxsize=256)(format_datetime)


def deadlines_for(session, loaded: Loaded, rows) -> dict:
    """{seat: due_at or None} of the open decisions of the rows' seats, in one query."""
    game, state = loaded.game, loaded.state
    if session is None or loaded.row.status != "active":
        return {}
    to_act = game.to_act(state)
    keys = {row.seat: game.decision_key(state, row.seat) for row in rows if row.seat in to_act}
    if not keys:
        return {}
    found: dict = {}
    for seat, key, kind, due in session.execute(DEADLINES, {
            "game_id": loaded.row.id, "seats": sorted(keys),
            "keys": sorted(set(keys.values()))}):
        if keys.get(seat) == key:
            found.setdefault(seat, timeout_of(kind, due))
    return {seat: found.get(seat) for seat in keys}


KIND_INTRO = {
    "start": "A new game has started.",
    "turn": "It is your turn.",
    "game_over": "The game is over.",
    "timeout": "A player's time ran out.",
    "vacation_auto": "Your time ran out, so your vacation started by itself: your clock is stopped.",
    "vacation_over": "Your vacation days are used up: your clock runs again.",
    # Issue 6: admin and undo notices.  Each of these events makes every earlier link stale.
    "rollback": "An admin rolled the game back. Links in earlier mails no longer work; use these.",
    "undone": "A player took back a move. Links in earlier mails no longer work; use these.",
    "seat": "You now have a seat in this game.",
    "paused": "An admin paused the game: no moves are taken until it resumes.",
    "resumed": "The game goes on again. Links in earlier mails no longer work; use these.",
    "abandoned": "An admin ended this game: no more moves are taken.",
}


def render(name: str, context: dict) -> str:
    """``flask.render_template(name, **context)`` for a mail's templates, without the work it
    does on every call (issue 9): running the context processors (``g``, ``request``,
    ``session``, the pages' ``html_lang`` and ``signed_in``) and sending the two template
    signals.  The mail templates and the games' templates they include use none of those
    names, so the text is the same (``tests/service/test_mail_cpu_bytes.py``).  The templates
    come from the app's mail environment (``mail_templates``)."""
    return mail_templates(current_app).get_template(name).render(context)


def mail_templates(app):
    """The app's Jinja environment for mail: an overlay of ``app.jinja_env`` (same loader,
    options, globals and filters; its own compiled templates) with three things made cheaper,
    each giving what the app's environment gives (issue 9, round 5):

    - ``view.round`` on a dict: Jinja tries ``getattr`` first, which for a dict raises
      ``AttributeError`` before the key is looked up (1.5 µs, ~140 times a mail); here a plain
      dict's key is looked up directly unless the name is one of ``dict``'s own attributes,
      which ``getattr`` would have found first;
    - a template's globals: a ``ChainMap`` of its own over the environment's, which every
      render copies key by key in Python; here one dict with the same names and values
      (the environment's, then the template's own over them);
    - the ``tr`` filter reads the mail's catalog from its render context (``tr_gettext``,
      ``mailkit.gettext_callables``) instead of asking Flask-Babel for it on every call.

    Its compiled templates are kept in a plain dict (the mail and game templates, a few
    dozen), not Jinja's LRU with its lock, its render contexts are ``MailContext``s
    (calls in templates made more cheaply, issue 9 round 6) and its templates escape their
    output with ``escape_quickly`` (``MailTemplate``, round 7).  Made on first use, after the
    app has set its globals and filters."""
    env = app.extensions.get("chasqui.mail_templates")
    if env is None:
        env = app.jinja_env.overlay(cache_size=-1)  # a dict: the mail's few templates, no LRU
        env.context_class = MailContext
        env.template_class = MailTemplate
        env.getattr = types.MethodType(_dict_key_first, env)
        env.make_globals = lambda own: {**env.globals, **(own or {})}
        env.filters = {**app.jinja_env.filters, "tr": _translated}
        app.extensions["chasqui.mail_templates"] = env
    return env


_DICT_ATTRIBUTES = frozenset(dir(dict))

# The marks Jinja's public decorators put on a callable (``jinja_pass_arg``).
_EVAL_CONTEXT = pass_eval_context(lambda: None).jinja_pass_arg
_ENVIRONMENT = pass_environment(lambda: None).jinja_pass_arg


class MailContext(Context):
    """A render context whose ``call`` (every ``f(...)`` in a template: ``_()``, the games'
    macros) takes a shorter way for a plain function or a macro, with the same outcome.

    ``Context.call`` asks each callable, and its ``__call__``, for the argument it wants
    first (``hasattr``, then two look-ups of ``jinja_pass_arg``), ~60 times a mail.  A Python
    function's ``__call__`` (a method-wrapper) and a ``Macro``'s (its class's undecorated
    method) never carry that mark, so for those two types the function's own mark is the
    whole answer: none, the evaluation context (the mail's ``_``, ``mailkit._bound_gettext``)
    or the environment are passed here as ``Context.call`` passes them; a function that
    wants the template context, and any other callable, still go through ``Context.call``
    (which may then derive a context with the loop's variables)."""

    def call(__self, __obj, *args, **kwargs):  # noqa: N805  (Context.call's own names)
        kind = type(__obj)
        if kind is types.FunctionType or kind is Macro:
            mark = getattr(__obj, "jinja_pass_arg", None)
            if mark is None or mark is _EVAL_CONTEXT or mark is _ENVIRONMENT:
                if mark is _EVAL_CONTEXT:
                    args = (__self.eval_ctx, *args)
                elif mark is _ENVIRONMENT:
                    args = (__self.environment, *args)
                if kwargs:
                    kwargs.pop("_block_vars", None)
                    kwargs.pop("_loop_vars", None)
                try:
                    return __obj(*args, **kwargs)
                except StopIteration:
                    return __self.environment.undefined(
                        "value was undefined because a callable raised a StopIteration"
                        " exception")
        return Context.call(__self, __obj, *args, **kwargs)


class MailTemplate(Template):
    """A template of the mail environment: its compiled code escapes each ``{{ ... }}`` of an
    HTML template with ``escape_quickly`` instead of markupsafe's ``escape``.

    Jinja's compiled module calls ``escape`` (markupsafe's, imported by name into the
    module's namespace) on every value an autoescaped template writes, ~60 a mail, and
    ``escape`` then builds its ``Markup`` through ``Markup.__new__``'s own check: ~10 % of
    building a mail (issue 9, round 7).  The namespace's ``escape`` is replaced once, when
    the template is made; nothing else of the code changes."""

    @classmethod
    def _from_namespace(cls, environment, namespace, globals):
        if namespace.get("escape") is escape:
            namespace["escape"] = escape_quickly
        return super()._from_namespace(environment, namespace, globals)


_new_str = str.__new__
_escape_inner = getattr(markupsafe, "_escape_inner", None)  # the escaper ``escape`` calls


def escape_quickly(value) -> Markup:
    """``markupsafe.escape(value)``, equal and of the same type, with its common cases made
    directly: a ``str`` escaped by markupsafe's own escaper (``_escape_inner``, what
    ``escape`` calls) and made ``Markup`` without ``Markup.__new__``'s look for
    ``__html__`` (a ``str`` has none); a ``Markup`` given back as it is (``escape`` gives an
    equal copy); an ``int`` as its digits (nothing in them to escape).  Anything else goes to
    ``escape`` (everything, should markupsafe no longer have its escaper by that name)."""
    kind = type(value)
    if kind is str and _escape_inner is not None:
        return _new_str(Markup, _escape_inner(value))
    if kind is Markup:
        return value
    if kind is int:
        return _new_str(Markup, int.__repr__(value))
    return escape(value)


def _dict_key_first(env, obj, attribute):
    """``Environment.getattr``: a plain dict has no attributes but ``dict``'s own, so for any
    other name the attribute look-up fails and Jinja falls back to the key."""
    if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
        try:
            return obj[attribute]
        except KeyError:
            return env.undefined(obj=obj, name=attribute)
    return type(env).getattr(env, obj, attribute)


@pass_context
def _translated(context, text):
    """The ``tr`` filter (``languages._translate_filter``) with the catalog of the mail being
    rendered, when its context carries it."""
    gettext = context.get("tr_gettext")
    if gettext is None:
        return context.environment.linked_to.filters["tr"](text)
    return translated_label(text, gettext) if text else text


def build_message(settings: Settings, loaded: Loaded, row: OutboxRow,
                  language: str | None = None, deadlines: dict | None = None,
                  zones: dict | None = None) -> EmailMessage:
    """Render the seat's private view at the row's seq (call inside an app context).
    ``language``, ``deadlines`` and ``zones``: looked up already by the caller for several
    rows at once (``mailkit.languages_for``, ``deadlines_for``); looked up here when not given."""
    language = language or mailkit.language_for(row)  # issue 7: the recipient's language
    if row.kind == "digest":
        from service.mail.digest import build_digest

        return build_digest(settings, row, language)
    context = seat_context(settings, loaded, row.seat)
    context["intro"] = translate(language, KIND_INTRO.get(row.kind, ""))
    context["kind"] = row.kind
    context["notice"] = notice_for(loaded, row.kind, row.seat)
    context.update(clock_lines(loaded, row, deadlines, zones, language))
    extra = mailkit.extra_context(settings, loaded, row, language)
    context.update(extra)
    headers = mime.HeaderList()
    headers["Subject"] = mail_headers.one_line(subject(loaded, language))
    headers["From"] = settings.mail_from
    headers["To"] = mail_headers.recipient(loaded.seats[row.seat].name, row.to_addr)
    headers["Message-ID"] = row.message_id
    headers["Date"] = _date(utc(row.created_at))
    headers["Auto-Submitted"] = "auto-generated"  # RFC 3834: auto-responders stay quiet
    root = thread_root(loaded.row.id, row.seat, settings.mail_domain)
    if row.message_id != root:
        headers["In-Reply-To"] = root
        headers["References"] = root
    headers["X-Chasqui-Game"] = loaded.row.id
    mailkit.add_headers(headers, settings, loaded, row, language, extra)
    with mailkit.locale(language):
        context.update(mailkit.gettext_callables(language))
        text = render("mail/turn.txt", context)
        html = render("mail/turn.html", context)  # its styles are inline already
    # A fixed boundary: left to the email package it is random, and a re-sent mail must be
    # byte-identical to the first (receivers dedupe on Message-ID; audits compare bytes).
    boundary = "=_chasqui_" + hashlib.sha256(row.message_id.encode()).hexdigest()[:32]
    # The tree EmailMessage.set_content/add_alternative/set_boundary made, made directly:
    # the same bytes for a third of the CPU (service/mail/mime.py).
    return mime.alternative(MAIL_POLICY, headers, text, html, boundary,
                            mailkit.content_language(language))
