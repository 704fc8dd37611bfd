"""The mail worker's fixed statements, run on PostgreSQL as plain driver statements (issue 9,
round 6).

A batch's deadline and language reads and its ``UPDATE`` of the rows it sent went through
``db.execute_core``, i.e. SQLAlchemy's ``Connection.execute`` (their expanding ``IN`` lists
keep them off its plain-text path): the compiled-cache look-up, the rendering of the ``IN``
lists, the execution context and the result's set-up cost the worker about three times what
psycopg itself spends on the statement (~80 µs of CPU against ~20 µs per statement on this
VM, issue 9 round 6).  Here each such statement is a ``Statement``: its SQLAlchemy form,
still what runs on SQLite, and its PostgreSQL text, where a list parameter becomes
``IN (%s, %s, ...)``, as SQLAlchemy renders the expanding parameter (the same statement,
planned the same way), made once per list length.  It runs on the session's own connection
(the same transaction), on the driver's cursor (``driver_sql``, which keeps SQLAlchemy's
statement events, exceptions and invalidation of a lost connection; psycopg then prepares a
text it has seen five times, as it does through SQLAlchemy).  Pending ORM changes are
flushed first when the session autoflushes, as SQLAlchemy does."""
from __future__ import annotations

import string
from typing import Iterable

from service.store import driver_sql
from service.store.db import execute_core


class Statement:
    """``core``: the SQLAlchemy statement (SQLite); ``text``: its PostgreSQL text, where
    ``{name}`` or ``{name:TYPE}`` is a parameter (``%s`` or ``%s::TYPE``, as SQLAlchemy casts
    it): a scalar, or, for a name in ``lists``, a list of scalars (``IN (%s, %s)``) or of
    tuples (``IN ((%s, %s), (%s, %s))``)."""

    def __init__(self, core, text: str, lists: Iterable[str] = ()):
        self.core, self.text, self.lists = core, text, frozenset(lists)
        self.names = [name for _, name, _, _ in string.Formatter().parse(text) if name]
        self._texts: dict[tuple, str] = {}

    def postgres(self, params: dict) -> tuple[str, list]:
        """(text, positional arguments) for ``params``."""
        shape = tuple(_shape(params[name]) for name in self.names if name in self.lists)
        text = self._texts.get(shape)
        if text is None:
            text = self._texts[shape] = self.text.format_map(_Slots(self.lists, params))
        args: list = []
        for name in self.names:
            value = params[name]
            if name not in self.lists:
                args.append(value)
            elif value and type(value[0]) is tuple:
                for item in value:
                    args.extend(item)
            else:
                args.extend(value)
        return text, args


class _Slots(dict):
    """``format_map``'s look-up of a parameter: its placeholders, formatted by its cast."""

    def __init__(self, lists, params):
        super().__init__()
        self.lists, self.params = lists, params

    def __missing__(self, name):
        return _Placeholders(name in self.lists, self.params[name])


class _Placeholders:
    def __init__(self, listed: bool, value):
        self.listed, self.value = listed, value

    def __format__(self, cast: str) -> str:
        one = "%s::" + cast if cast else "%s"
        if not self.listed:
            return one
        length, width = _shape(self.value)
        if width:
            one = "(" + ", ".join(["%s"] * width) + ")"
        return "(" + ", ".join([one] * length) + ")" if length else "(NULL)"


def _shape(value) -> tuple[int, int]:
    """(length, tuple width or 0) of a list parameter."""
    return len(value), (len(value[0]) if value and type(value[0]) is tuple else 0)


def rows(session, statement: Statement, params: dict) -> list:
    """The rows ``statement`` reads in the session's transaction (tuples on PostgreSQL)."""
    if _postgres(session) is None:
        return execute_core(session, statement.core, params).all()
    return _execute(session, statement, params).fetchall()


def rowcount(session, statement: Statement, params: dict) -> int:
    """The rows ``statement`` (an UPDATE) matched in the session's transaction."""
    if _postgres(session) is None:
        return execute_core(session, statement.core, params).rowcount
    return _execute(session, statement, params).rowcount


def _postgres(session):
    connection = session.connection()
    return connection if connection.dialect.name == "postgresql" else None


def _execute(session, statement: Statement, params: dict):
    if session.autoflush:
        session.flush()
    text, args = statement.postgres(params)
    return driver_sql.run(session.connection(), text, args)
