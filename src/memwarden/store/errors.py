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


class PoolExhausted(StoreError):
    """No pooled connection came free within the pool's timeout: the process is at its
    connection budget."""

    def __init__(self) -> None:
        super().__init__("no database connection free within the pool timeout")


class StatementTimedOut(StoreError):
    """A statement ran past the pool's `statement_timeout` and PostgreSQL cancelled it."""

    def __init__(self) -> None:
        super().__init__("a database statement ran past its time limit")


@contextmanager
def translated() -> Iterator[None]:
    """Re-raise the database errors callers act on as store errors."""
    try:
        yield
    except pg_errors.UniqueViolation as exc:
        raise DuplicateRow(exc.diag.constraint_name) from exc
    except pg_errors.QueryCanceled as exc:
        raise StatementTimedOut() from exc
