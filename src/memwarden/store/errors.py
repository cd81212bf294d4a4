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


@contextmanager
def translated() -> Iterator[None]:
    """Re-raise the database errors callers act on as store errors."""
    try:
        yield
    except pg_errors.UniqueViolation as exc:
        raise DuplicateRow(exc.diag.constraint_name) from exc
