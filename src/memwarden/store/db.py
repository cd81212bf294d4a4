"""Database access: resolve the URL (external or embedded), migrate, pool connections."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from pgvector.psycopg import register_vector_async
from psycopg.pq import TransactionStatus
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from memwarden.settings import Settings
from memwarden.store.embedded import embedded_url, start_embedded
from memwarden.store.errors import translated
from memwarden.store.migrate import apply_migrations
from memwarden.store.queries import q

Conn = psycopg.AsyncConnection[dict[str, Any]]


def resolve_url(settings: Settings) -> tuple[str, Any]:
    """The database URL, starting the embedded server when no URL is configured."""
    if settings.database_url:
        return settings.database_url, None
    server = start_embedded(settings.pgdata_dir)
    return embedded_url(server), server


class Database:
    """One async pool per process; `transaction()` is the unit of a use case."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10, server: Any = None):
        self.url = url
        self.server = server  # keeps the embedded server's handle alive
        self.pool: AsyncConnectionPool[Conn] = AsyncConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            open=False,
            kwargs={"row_factory": dict_row, "autocommit": True},
            configure=self._configure,
        )

    @staticmethod
    async def _configure(conn: Conn) -> None:
        await register_vector_async(conn)
        await conn.execute(q("session_vector_settings"))

    async def open(self) -> None:
        await self.pool.open(wait=True, timeout=30)

    async def close(self) -> None:
        await self.pool.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Conn]:
        """A unique violation (at a statement or at commit) leaves as `DuplicateRow`."""
        with translated():
            async with self.pool.connection() as conn, conn.transaction():
                yield conn

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Conn]:
        with translated():
            async with self.pool.connection() as conn:
                yield conn


def idle(conn: Conn) -> bool:
    """Outside any transaction (an autocommit statement commits by itself)."""
    return conn.info.transaction_status == TransactionStatus.IDLE


def prepare(settings: Settings) -> Database:
    """Resolve, migrate and return an unopened Database."""
    url, server = resolve_url(settings)
    apply_migrations(url)
    return Database(
        url, min_size=settings.pool_min_size, max_size=settings.pool_max_size, server=server
    )
