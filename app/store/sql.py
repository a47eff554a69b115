"""The store's statements, compiled once per database and run straight on the driver,
and the transactions they run in.

SQLAlchemy builds and compiles each statement (so the SQL is the dialect's own),
and its pool hands out the connections; the execution itself skips SQLAlchemy's
per-call machinery, which cost more than the queries on the move path (see
bench/server.py). Parameters and results go through the column types' own
processors, so what is stored is what SQLAlchemy itself would store.
"""

from __future__ import annotations

import hashlib
import re
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
# A parameter in psycopg's SQL (SQLAlchemy's pyformat): %(name)s.
_PARAMETER = re.compile(r"%\((\w+)\)s")
# The names a PostgreSQL connection has prepared (kept in its pool record's `info`), or
# absent when not known (after a failed batch, which may have stopped before a PREPARE).
_PREPARED_KEY = "canfield_prepared"


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
        self.name = self.prepare = self.execute_sql = ""
        self.used: list[str] = []
        if dialect.name == "postgresql" and not self.positional:
            # A server-side prepared statement, run by `Batched` as EXECUTE name(values):
            # PostgreSQL plans it once per connection, not at each run.
            self.name = "canfield_" + hashlib.sha1(self.sql.encode()).hexdigest()[:16]
            # The parameters the SQL uses (a few of the compiled binds are not rendered).
            self.used = list(dict.fromkeys(_PARAMETER.findall(self.sql)))
            numbers = {name: f"${index}" for index, name in enumerate(self.used, start=1)}
            body = _PARAMETER.sub(lambda found: numbers[found[1]], self.sql).replace("%%", "%")
            self.prepare = f"PREPARE {self.name} AS {body}"
            arguments = f"({', '.join(['%s'] * len(self.used))})" if self.used else ""
            self.execute_sql = f"EXECUTE {self.name}{arguments}"
        self.columns = list(getattr(statement, "selected_columns", ()))
        # The columns whose type converts their values (dates, booleans), by position: made
        # on the first result, from the driver's column type codes (as SQLAlchemy does).
        self.results: list[tuple[int, Processor]] | None = None

    def parameters(self, values: Mapping[str, Any]) -> list[Any] | dict[str, Any]:
        """The values as the driver takes them with `sql`."""
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

    def arguments(self, values: Mapping[str, Any]) -> list[Any]:
        """EXECUTE's arguments: the values converted, in the order of `prepare`'s $1, $2."""
        parameters = self.parameters(values)
        assert isinstance(parameters, dict)
        return [parameters[name] for name in self.used]

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
    """Statements run in one database transaction on one pooled connection (SQLite's;
    PostgreSQL's are `Batched`)."""

    def __init__(self, cursor: Any) -> None:
        self.cursor = cursor

    def execute(self, statement: Prepared, values: Mapping[str, Any]) -> int:
        """Run a statement that returns no rows; the number of rows it changed."""
        self.cursor.execute(statement.sql, statement.parameters(values))
        count: int = self.cursor.rowcount
        return count

    def write(self, statement: Prepared, values: Mapping[str, Any]) -> int | None:
        """Run a statement that returns no rows, and whose count is not needed before the
        commit on PostgreSQL: None there (sent with the COMMIT; if it fails, the commit
        raises and nothing is written), else the number of rows it changed."""
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
        return [statement.row(tuple(raw), self.cursor) for raw in self.cursor.fetchall()]


@contextmanager
def on_connection(connection: Any, *, begin: str) -> Iterator[Transaction]:
    """A transaction on a DBAPI connection already at hand (SQLite's): `begin` is the
    statement that opens it."""
    cursor = connection.cursor()
    cursor.execute(begin)
    try:
        yield Transaction(cursor)
    except BaseException:
        connection.rollback()
        raise
    connection.commit()


def begin_statement(*, write: bool) -> str:
    """SQLite's BEGIN (IMMEDIATE for a writer; app/store/db.py leaves BEGIN to us there)."""
    return "BEGIN IMMEDIATE" if write else "BEGIN"


@contextmanager
def transaction(engine: Engine, *, write: bool = False) -> Iterator[Transaction]:
    """A transaction on a connection from the engine's pool: committed at the end of
    the block, rolled back if it raises."""
    connection = engine.raw_connection()
    try:
        if engine.dialect.name == "postgresql":
            with batched(connection) as tx:
                yield tx
        else:
            with on_connection(connection, begin=begin_statement(write=write)) as tx:
                yield tx
    finally:
        connection.close()  # back to the pool


class Batched(Transaction):
    """A PostgreSQL transaction whose statements travel in batches, one round trip each.

    Each statement is prepared on the server once per connection (PREPARE, sent with
    the statement's first batch there) and then run as EXECUTE name(values), its values
    written in by psycopg's client-side binding (as its ClientCursor does); the
    statements of a batch go as one query string, which PostgreSQL runs in order,
    stopping at the first that fails (simple query protocol). BEGIN goes with the first
    statement, and `write`s wait for the next statement whose answer is needed, or for
    the COMMIT: a move is two round trips (its game's row, then the save and the
    commit), and two sends. psycopg's pipeline mode, used before, also took two round
    trips, but sent each statement on its own and polled and read the socket for each:
    bench/server.py measured this cheaper in the app's CPU.
    """

    def __init__(self, cursor: Any, prepared: set[str] | None) -> None:
        super().__init__(cursor)
        # None: not known what this connection has prepared; start over.
        self.prepared = prepared if prepared is not None else set()
        self.pending = ["BEGIN"] if prepared is not None else ["DEALLOCATE ALL", "BEGIN"]
        self.preparing: list[str] = []  # the names whose PREPARE is pending
        self.begun = False

    def _send(self, sql: str) -> Any:
        """Run the pending statements and `sql` as one query; the cursor, on the last
        statement's result."""
        pending = self.pending
        pending.append(sql)
        self.pending = []
        self.begun = True
        cursor = self.cursor
        cursor.execute(";".join(pending))
        self.preparing = []
        while cursor.nextset():
            pass
        return cursor

    def _sql(self, statement: Prepared, values: Mapping[str, Any]) -> str:
        """The statement's EXECUTE with its values (its PREPARE goes first if needed)."""
        if statement.name not in self.prepared:
            self.prepared.add(statement.name)
            self.preparing.append(statement.name)
            self.pending.append(statement.prepare)
        sql: str = self.cursor.mogrify(statement.execute_sql, statement.arguments(values))
        return sql

    def execute(self, statement: Prepared, values: Mapping[str, Any]) -> int:
        count: int = self._send(self._sql(statement, values)).rowcount
        return count

    def write(self, statement: Prepared, values: Mapping[str, Any]) -> int | None:
        self.pending.append(self._sql(statement, values))
        return None

    def execute_many(self, statement: Prepared, rows: Sequence[Mapping[str, Any]]) -> None:
        self.pending.extend([self._sql(statement, row) for row in rows])

    def one_or_none(self, statement: Prepared, values: Mapping[str, Any]) -> Row | None:
        cursor = self._send(self._sql(statement, values))
        raw = cursor.fetchone()
        return None if raw is None else statement.row(tuple(raw), cursor)

    def all(self, statement: Prepared, values: Mapping[str, Any]) -> list[Row]:
        cursor = self._send(self._sql(statement, values))
        return [statement.row(tuple(raw), cursor) for raw in cursor.fetchall()]

    def commit(self) -> None:
        if self.begun or len(self.pending) > 1:  # nothing for a transaction that did nothing
            self._send("COMMIT")

    def rollback(self) -> None:
        """Drop the statements not sent yet, and roll back what was."""
        self.pending = []
        self.prepared.difference_update(self.preparing)
        if self.begun:
            self.cursor.execute("ROLLBACK")


@contextmanager
def batched(connection: Any) -> Iterator[Transaction]:
    """A transaction in batches (Batched) on a pooled PostgreSQL connection. BEGIN and
    COMMIT are ours, so the driver's autocommit is on meanwhile."""
    driver = connection.driver_connection
    driver.autocommit = True
    info = connection.info
    tx = Batched(psycopg.ClientCursor(driver), info.pop(_PREPARED_KEY, None))
    try:
        try:
            yield tx
        except psycopg.Error:
            tx.rollback()  # a batch failed: what it prepared before failing is not known
            raise
        except BaseException:
            tx.rollback()
            info[_PREPARED_KEY] = tx.prepared
            raise
        tx.commit()
        info[_PREPARED_KEY] = tx.prepared
    finally:
        try:
            if driver.info.transaction_status != TransactionStatus.IDLE:
                driver.rollback()  # a statement failed, and the COMMIT with it
            driver.autocommit = False  # as SQLAlchemy expects its connections
        except psycopg.Error:
            connection.invalidate()  # broken: the pool opens a new one
