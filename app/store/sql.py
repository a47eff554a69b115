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

import psycopg
from psycopg.pq import TransactionStatus
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

    def row(self, raw: Row, cursor: Any) -> Row:
        if self.results is None:
            # Read once: psycopg builds the description's column objects on every call.
            description: Sequence[Sequence[Any]] = cursor.description
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
    """Statements run in one database transaction on one pooled connection.

    On PostgreSQL the connection is in pipeline mode (psycopg 3): a statement is sent
    without waiting for the one before, and the client waits only for a result it
    reads. BEGIN goes with the first query, and `write`s go with the COMMIT, so a move
    costs two round trips (its game's row, then the save) instead of five.
    """

    def __init__(self, cursor: Any, pipeline: Any = None) -> None:
        self.cursor = cursor
        self.pipeline = pipeline

    def execute(self, statement: Prepared, values: Mapping[str, Any]) -> int:
        """Run a statement that returns no rows; the number of rows it changed."""
        self.cursor.execute(statement.sql, statement.parameters(values))
        if self.pipeline is not None:
            self.pipeline.sync()  # the count comes back with the statement's result
        count: int = self.cursor.rowcount
        return count

    def write(self, statement: Prepared, values: Mapping[str, Any]) -> int | None:
        """Run a statement that returns no rows, and whose count is not needed before the
        commit on PostgreSQL: None there (sent with the COMMIT; if it fails, the commit
        raises and nothing is written), else the number of rows it changed."""
        if self.pipeline is not None:
            self.cursor.execute(statement.sql, statement.parameters(values))
            return None
        return self.execute(statement, values)

    def execute_many(self, statement: Prepared, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run a statement once per row (on PostgreSQL sent with the COMMIT, as `write`)."""
        self.cursor.executemany(statement.sql, [statement.parameters(row) for row in rows])

    def one_or_none(self, statement: Prepared, values: Mapping[str, Any]) -> Row | None:
        self.cursor.execute(statement.sql, statement.parameters(values))
        raw = self.cursor.fetchone()
        return None if raw is None else statement.row(tuple(raw), self.cursor)

    def all(self, statement: Prepared, values: Mapping[str, Any]) -> list[Row]:
        self.cursor.execute(statement.sql, statement.parameters(values))
        rows = self.cursor.fetchall()  # in a pipeline, the description comes with the rows
        return [statement.row(tuple(raw), self.cursor) for raw in rows]


@contextmanager
def on_connection(
    connection: Any, *, begin: str | None, pipeline: Any = None
) -> Iterator[Transaction]:
    """A transaction on a DBAPI connection already at hand: `begin` is the statement
    that opens it (SQLite's), or None where the driver opens one itself; `pipeline`,
    psycopg's, if the connection is in pipeline mode."""
    cursor = connection.cursor()
    if begin is not None:
        cursor.execute(begin)
    try:
        yield Transaction(cursor, pipeline)
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
        if engine.dialect.name == "postgresql":
            with pipelined(connection) as tx:
                yield tx
        else:
            with on_connection(connection, begin=begin_statement(engine, write=write)) as tx:
                yield tx
    finally:
        connection.close()  # back to the pool


@contextmanager
def pipelined(connection: Any) -> Iterator[Transaction]:
    """A transaction on a pooled PostgreSQL connection in psycopg's pipeline mode. BEGIN
    and COMMIT are ours (the driver's autocommit is on meanwhile), so that BEGIN goes
    with the first statement and COMMIT with the writes before it: leaving the pipeline
    sends them and waits; if any failed, it raises and the transaction is rolled back."""
    driver = connection.driver_connection
    driver.autocommit = True
    try:
        with driver.pipeline() as pipeline:
            cursor = driver.cursor()
            cursor.execute("BEGIN")
            try:
                yield Transaction(cursor, pipeline)
            except BaseException:
                cursor.execute("ROLLBACK")  # skipped if a statement failed: see below
                raise
            cursor.execute("COMMIT")
    finally:
        try:
            if driver.info.transaction_status != TransactionStatus.IDLE:
                driver.rollback()  # a statement failed, and the COMMIT or ROLLBACK with it
            driver.autocommit = False  # as SQLAlchemy expects its connections
        except psycopg.Error:
            connection.invalidate()  # broken: the pool opens a new one
