"""Database access: resolve the URL (external or embedded), migrate, pool connections."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import psycopg
from pgvector.psycopg import register_vector_async
from psycopg.pq import TransactionStatus
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from memwarden.settings import Settings
from memwarden.store import citus
from memwarden.store.embedded import embedded_url, release_embedded, start_embedded
from memwarden.store.errors import PoolExhausted, translated
from memwarden.store.migrate import apply_migrations
from memwarden.store.queries import q

# set_plan_cache_mode's parameters for generic plans until the transaction ends.
GENERIC_IN_TRANSACTION = {"mode": "force_generic_plan", "local": True}

Conn = psycopg.AsyncConnection[dict[str, Any]]


def resolve_url(settings: Settings) -> tuple[str, Any]:
    """The database URL, starting the embedded server when no URL is configured."""
    if settings.database_url:
        return settings.database_url, None
    server = start_embedded(settings.pgdata_dir)
    return embedded_url(server), server


class Database:
    """One async pool per process; `transaction()` is the unit of a use case.

    The pool is a budget, not a queue without end: a caller waits at most `timeout_s`
    for a connection, then gets `PoolExhausted` (the API answers 503 with Retry-After);
    every statement on a pooled connection is cut at `statement_timeout_s` (0: never).
    """

    def __init__(
        self,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        timeout_s: float = 30.0,
        statement_timeout_s: float = 0.0,
        server: Any = None,
    ):
        self.url = url
        self.server = server  # keeps the embedded server's handle alive
        self.statement_timeout_ms = int(statement_timeout_s * 1000)
        self.pool: AsyncConnectionPool[Conn] = AsyncConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout_s,
            open=False,
            kwargs={"row_factory": dict_row, "autocommit": True},
            configure=self._configure,
        )

    async def _configure(self, conn: Conn) -> None:
        await register_vector_async(conn)
        if self.statement_timeout_ms:
            # Session-wide on an autocommit connection: a use case's transactions inherit it.
            await conn.execute(
                "SELECT set_config('statement_timeout', %s, false)",
                (str(self.statement_timeout_ms),),
            )
        await conn.execute(q("session_vector_settings"))
        await citus.note_connection(conn)

    async def open(self) -> None:
        await self.pool.open(wait=True, timeout=30)

    async def close(self) -> None:
        await self.pool.close()
        if self.server is not None:
            # The last process out stops the embedded server: here, not only at exit,
            # because a SIGTERM'd uvicorn re-raises the signal and skips atexit.
            release_embedded(self.server)
            self.server = None

    @asynccontextmanager
    async def transaction(self, *, generic_plans: bool = False) -> AsyncIterator[Conn]:
        """A unique violation (at a statement or at commit) leaves as `DuplicateRow`.

        `generic_plans`: every prepared statement in it reuses its generic plan, for the
        use cases whose statements all read one Context of the tables partitioned by
        Context (store/queries.py, GENERIC); the setting ends with the transaction."""
        with translated(), _budgeted():
            async with self.pool.connection() as conn, conn.transaction():
                if generic_plans and citus.generic_plans_allowed(conn):
                    await conn.execute(q("set_plan_cache_mode"), GENERIC_IN_TRANSACTION)
                yield conn

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Conn]:
        with translated(), _budgeted():
            async with self.pool.connection() as conn:
                yield conn


@contextmanager
def _budgeted() -> Iterator[None]:
    try:
        yield
    except PoolTimeout as exc:
        raise PoolExhausted() from exc


def idle(conn: Conn) -> bool:
    """Outside any transaction (an autocommit statement commits by itself)."""
    return conn.info.transaction_status == TransactionStatus.IDLE


def prepare(settings: Settings) -> Database:
    """Resolve, migrate and return an unopened Database."""
    url, server = resolve_url(settings)
    apply_migrations(url)
    return Database(
        url,
        min_size=settings.pool_min_size,
        max_size=settings.pool_max_size,
        timeout_s=settings.pool_timeout_s,
        statement_timeout_s=settings.statement_timeout_s,
        server=server,
    )
