"""The store's Core statements run straight on a sqlite3 connection, each compiled once.

SQLAlchemy spends Python on every execute (events, cache key, result objects) and every
transaction (pool, BEGIN hook) while the SQLite write thread holds the GIL: an append took
~0.5 ms of CPU in that thread, ~0.1 ms here (docs/storage.md). The SQL is still written once:
each statement from `queries.py` is compiled for the SQLite dialect on first use, and its bind
and result converters (JSON, booleans, floats) come from the same column types, so rows hold
what SQLAlchemy would have returned. Driver errors are raised as SQLAlchemy's
(`sqlalchemy.exc.IntegrityError`...), as they were through SQLAlchemy.
"""

from __future__ import annotations

import sqlite3
import weakref
from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import ClauseElement, Executable
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.selectable import SelectBase

_encode_json = msgspec.json.Encoder().encode


def json_text(value: Any) -> str:
    """JSON columns' text on SQLite, on this path and SQLAlchemy's: msgspec takes 0.2 µs for
    an action where the standard library's encoder took 2 µs. Rows written before read back
    the same (they hold `\\u` escapes where msgspec writes UTF-8)."""
    return _encode_json(value).decode()


# sqlite3 binds `:name` parameters from a dict, so values need no ordering.
_DIALECT = SQLiteDialect_pysqlite(paramstyle="named", json_serializer=json_text)


class Rows:
    """The part of SQLAlchemy's Result that `queries.py` uses."""

    __slots__ = ("_rows", "rowcount")

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    def __iter__(self) -> Iterator[Any]:
        return iter(self._rows)

    def first(self) -> Any:
        return self._rows[0] if self._rows else None

    def scalar_one(self) -> Any:
        (row,) = self._rows
        return row[0]


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    fixed: dict[str, Any]  # values the statement carries itself (the 1 of `version + 1`)
    convert: tuple[tuple[str, Callable[[Any], Any]], ...]  # caller's values needing a converter
    row: Callable[[Sequence[Any]], Any] | None  # builds a row; None: the statement returns none


_compiled: weakref.WeakKeyDictionary[Executable, _Compiled] = weakref.WeakKeyDictionary()


def _compile(statement: Executable) -> _Compiled:
    assert isinstance(statement, ClauseElement)
    compiled = statement.compile(dialect=_DIALECT)
    assert isinstance(compiled, SQLCompiler)
    if compiled.returning:
        raise NotImplementedError("RETURNING is not supported on the direct SQLite path")
    fixed, convert = {}, []
    for name, value in compiled.params.items():
        bind = compiled.binds[name]
        process = bind.type.dialect_impl(_DIALECT).bind_processor(_DIALECT)
        if not bind.required:
            fixed[name] = value if process is None else process(value)
        elif process is not None:
            convert.append((name, process))
    row = _row_maker(statement.selected_columns) if isinstance(statement, SelectBase) else None
    return _Compiled(compiled.string, fixed, tuple(convert), row)


def _row_maker(columns: Any) -> Callable[[Sequence[Any]], Any]:
    """Rows as named tuples keyed like SQLAlchemy's (attributes, `_asdict()`)."""
    names = [c.key or f"_{i}" for i, c in enumerate(columns)]
    row_type: Any = namedtuple("Row", names, rename=True)  # type: ignore[misc]
    make: Callable[[Sequence[Any]], Any] = row_type._make
    processors = [c.type.dialect_impl(_DIALECT).result_processor(_DIALECT, None) for c in columns]
    if not any(processors):
        return make

    def converted(raw: Sequence[Any]) -> Any:
        return make([v if p is None else p(v) for p, v in zip(processors, raw, strict=True)])

    return converted


class DirectDb:
    """A `queries.Db` over one sqlite3 connection (opened with isolation_level=None)."""

    __slots__ = ("raw",)

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    def execute(self, statement: Executable, parameters: Mapping[str, Any] | None = None) -> Rows:
        found = _compiled.get(statement)
        if found is None:
            found = _compiled[statement] = _compile(statement)
        params = {**found.fixed, **parameters} if parameters else dict(found.fixed)
        if found.convert:
            for name, process in found.convert:
                params[name] = process(params[name])
        try:
            cursor = self.raw.execute(found.sql, params)
            if found.row is None:
                return Rows([], cursor.rowcount)
            return Rows([found.row(r) for r in cursor.fetchall()], -1)
        except sqlite3.Error as error:
            raise _translated(found.sql, params, error) from error

    def run(self, sql: str) -> None:
        """A statement of the driver's own (BEGIN, COMMIT, SAVEPOINT...)."""
        try:
            self.raw.execute(sql)
        except sqlite3.Error as error:
            raise _translated(sql, None, error) from error


def _translated(sql: str, params: Any, error: sqlite3.Error) -> BaseException:
    return DBAPIError.instance(sql, params, error, sqlite3.Error, dialect=_DIALECT)
