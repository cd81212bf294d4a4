"""The store's own exceptions: database errors are translated here, so no caller above
store/ imports psycopg (procrastinate's manager does the same with `AlreadyEnqueued`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from psycopg import errors as pg_errors


class StoreError(Exception):
    """Base of the errors store/ raises on purpose."""


class DuplicateRow(StoreError):
    """A write met a unique constraint: a concurrent writer committed the same key first."""

    def __init__(self, constraint: str | None) -> None:
        super().__init__(f"duplicate row ({constraint or 'unknown constraint'})")
        self.constraint = constraint


class DatabaseBusy(StoreError):
    """The database is at one of its budgets for now: the caller answers 503 with
    `Retry-After` (`code` and `message` are what it says), never a 500."""

    code = "database_busy"
    message = "the database is at its budget; retry shortly"

    def __init__(self) -> None:
        super().__init__(self.message)


class PoolExhausted(DatabaseBusy):
    """No pooled connection came free within the pool's timeout: the process is at its
    connection budget."""

    message = "every database connection of this process is in use; retry shortly"


class StatementTimedOut(DatabaseBusy):
    """A statement ran past the pool's `statement_timeout` and PostgreSQL cancelled it."""

    code = "statement_timeout"
    message = "the database did not answer in time; its transaction was rolled back; retry shortly"


class LockTableFull(DatabaseBusy):
    """PostgreSQL's shared lock table is full ("out of shared memory", SQLSTATE 53200):
    every statement on a table locks all its indexes, per-Context ones included, so many
    concurrent transactions over many indexed Contexts can fill it. It frees as they end."""

    message = "the database's lock table is full; its transaction was rolled back; retry shortly"


@contextmanager
def translated() -> Iterator[None]:
    """Re-raise the database errors callers act on as store errors."""
    try:
        yield
    except pg_errors.UniqueViolation as exc:
        raise DuplicateRow(exc.diag.constraint_name) from exc
    except pg_errors.QueryCanceled as exc:
        raise StatementTimedOut() from exc
    except pg_errors.OutOfMemory as exc:
        raise LockTableFull() from exc
