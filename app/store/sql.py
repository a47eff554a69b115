"""The store's statements, compiled once per database and run straight on the driver.

SQLAlchemy builds and compiles each statement (so the SQL is the dialect's own),
and its pool hands out the connections; the execution itself skips SQLAlchemy's
per-call machinery, which cost more than the queries on the move path (see
bench/server.py). Parameters and results go through the column types' own
processors, so what is stored is what SQLAlchemy itself would store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Dialect
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

Row = tuple[Any, ...]
Processor = Callable[[Any], Any]


class Prepared:
    """One statement compiled for one database."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        self.sql = str(compiled)
        names = list(compiled.positiontup or ()) if compiled.positional else list(compiled.binds)
        self.positional = compiled.positional
        # Values written into the statement itself (`status == "playing"`, LIMIT 1).
        self.fixed = {
            name: bind.effective_value
            for name, bind in compiled.binds.items()
            if bind.effective_value is not None
        }
        self.names = names
        processors = [
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in names
        ]
        # Only the few parameters whose type converts its values (dates, JSON) are touched.
        self.processed = [(index, process) for index, process in enumerate(processors) if process]
        self.dialect = dialect
        self.columns = list(getattr(statement, "selected_columns", ()))
        # The columns whose type converts their values (dates, booleans), by position: made
        # on the first result, from the driver's column type codes (as SQLAlchemy does).
        self.results: list[tuple[int, Processor]] | None = None

    def parameters(self, values: Mapping[str, Any]) -> list[Any] | dict[str, Any]:
        if self.fixed:
            values = {**self.fixed, **values}
        converted = [values[name] for name in self.names]
        for index, process in self.processed:
            value = converted[index]
            if value is not None:
                converted[index] = process(value)
        if self.positional:
            return converted
        return dict(zip(self.names, converted, strict=True))

    def row(self, raw: Row, description: Sequence[Sequence[Any]]) -> Row:
        if self.results is None:
            processors = [
                column.type.dialect_impl(self.dialect).result_processor(self.dialect, found[1])
                for column, found in zip(self.columns, description, strict=True)
            ]
            self.results = [(index, process) for index, process in enumerate(processors) if process]
        if not self.results:
            return raw
        converted = list(raw)
        for index, process in self.results:
            value = converted[index]
            if value is not None:
                converted[index] = process(value)
        return tuple(converted)


class Transaction:
    """Statements run in one database transaction on one pooled connection."""

    def __init__(self, cursor: Any) -> None:
        self.cursor = cursor

    def execute(self, statement: Prepared, values: Mapping[str, Any]) -> int:
        """Run a statement that returns no rows; the number of rows it changed."""
        self.cursor.execute(statement.sql, statement.parameters(values))
        count: int = self.cursor.rowcount
        return count

    def execute_many(self, statement: Prepared, rows: Sequence[Mapping[str, Any]]) -> None:
        self.cursor.executemany(statement.sql, [statement.parameters(row) for row in rows])

    def one_or_none(self, statement: Prepared, values: Mapping[str, Any]) -> Row | None:
        self.cursor.execute(statement.sql, statement.parameters(values))
        raw = self.cursor.fetchone()
        return None if raw is None else statement.row(tuple(raw), self.cursor.description)

    def all(self, statement: Prepared, values: Mapping[str, Any]) -> list[Row]:
        self.cursor.execute(statement.sql, statement.parameters(values))
        description = self.cursor.description
        return [statement.row(tuple(raw), description) for raw in self.cursor.fetchall()]


@contextmanager
def on_connection(connection: Any, *, begin: str | None) -> Iterator[Transaction]:
    """A transaction on a DBAPI connection already at hand: `begin` is the statement
    that opens it (SQLite's), or None where the driver opens one itself."""
    cursor = connection.cursor()
    if begin is not None:
        cursor.execute(begin)
    try:
        yield Transaction(cursor)
    except BaseException:
        connection.rollback()
        raise
    connection.commit()


def begin_statement(engine: Engine, *, write: bool) -> str | None:
    """SQLite's BEGIN (IMMEDIATE for a writer; app/store/db.py leaves BEGIN to us there)."""
    if engine.dialect.name != "sqlite":
        return None
    return "BEGIN IMMEDIATE" if write else "BEGIN"


@contextmanager
def transaction(engine: Engine, *, write: bool = False) -> Iterator[Transaction]:
    """A transaction on a connection from the engine's pool: committed at the end of
    the block, rolled back if it raises."""
    connection = engine.raw_connection()
    try:
        with on_connection(connection, begin=begin_statement(engine, write=write)) as tx:
            yield tx
    finally:
        connection.close()  # back to the pool
